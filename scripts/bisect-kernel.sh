#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One step of `git bisect run` in a kernel tree: build the checked-out
# kernel with perfconf's config fragment, boot it under qemu with
# `perfconf vm --kernel`, and say good or bad.
#
#   cd linux && git bisect start BAD GOOD
#   git bisect run /path/to/perfconf/scripts/bisect-kernel.sh [options]
#
#   -O DIR          build directory, kept between steps so that builds after
#                   the first are incremental (default: .perfconf-build in
#                   the tree; the kernel's .gitignore ignores it)
#   --arch A        x86_64 (default: the host's) or arm64 (cross-built)
#   --base CONFIG   tinyconfig (default) or defconfig: the config the
#                   fragment runners/vm/kernel.config is merged onto
#   --baseline FILE compare with FILE: the good kernel's results.txt (see
#                   --save) or a baseline; default: expected/ (nearest)
#   --save FILE     copy the guest's results.txt to FILE (run it once on
#                   the good commit to make the --baseline of the bisect)
#   --cases-from RUN  run only the binaries with a regression or a new
#                   failure in RUN, a bad commit's results (a directory
#                   DIR/perfconf-results/<commit>, or its ktap.txt): a step
#                   then takes seconds; check the commit found with the
#                   whole suite (scripts/check-bisect.sh does)
#   -t GLOB, -x GLOB  the runner's selection, passed to the guest (repeatable)
#   -j N            make jobs (default: the number of CPUs)
#   -- OPTIONS      more options for the guest's runner
#
# The suite is built and packed on the first step and kept in
# DIR/perfconf-<arch>.cpio: every step boots the same suite, whatever
# happens to the perfconf tree meanwhile (delete the file to repack it).
# The config is made once per build directory (base config, then
# scripts/kconfig/merge_config.sh with the fragment, then olddefconfig);
# each later step only runs olddefconfig, so an unchanged tree rebuilds
# nothing and a changed file recompiles only what depends on it.
# Logs: DIR/perfconf-logs/<commit>.{build,vm}.log; results:
# DIR/perfconf-results/<commit>/ (results.txt, ktap.txt with the verdicts);
# a commit tested again gets <commit>.2, and so on.
# One line per step on stderr, and appended to DIR/perfconf-logs/steps.txt:
#   bisect-kernel: <commit> build N s, boot+suite N s (boot N s): bad: <case>: <why>
# naming the first regression or new failure, or why the step was skipped.
#
# Exit (git bisect run's protocol): 0 good, 1 bad (a regression or a new
# failure), 125 the commit cannot be tested (the build fails, the kernel
# does not boot or run the suite to the end, the guest's runner has a setup
# error, the kernel warned or oopsed while no binary of ours ran or with no
# binary to blame; scripts/bisect-verdict.sh reads the report), 200 a
# setup error that no commit can fix (bad option, not a kernel tree,
# missing packages): any exit of 128 or more stops the bisection.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
fatal() {
	echo "bisect-kernel: $*" >&2
	exit 200
}
usage() {
	echo "usage: bisect-kernel.sh [-O DIR] [--arch x86_64|arm64] [--base tinyconfig|defconfig] [--baseline FILE] [--save FILE] [--cases-from RUN] [-t GLOB] [-x GLOB] [-j N] [-- RUNNER-OPTIONS]" >&2
	exit 200
}

obj='' arch='' base=tinyconfig baseline='' save='' cases_from='' jobs=$(nproc)
runner=()
while [ $# -gt 0 ]; do
	case $1 in
	-O) [ $# -ge 2 ] || usage; obj=$2; shift 2 ;;
	--arch) [ $# -ge 2 ] || usage; arch=$2; shift 2 ;;
	--base) [ $# -ge 2 ] || usage; base=$2; shift 2 ;;
	--baseline) [ $# -ge 2 ] || usage; baseline=$2; shift 2 ;;
	--save) [ $# -ge 2 ] || usage; save=$2; shift 2 ;;
	--cases-from) [ $# -ge 2 ] || usage; cases_from=$2; shift 2 ;;
	-t | -x) [ $# -ge 2 ] || usage; runner+=("$1" "$2"); shift 2 ;;
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	-h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 0 ;;
	--) shift; runner+=("$@"); break ;;
	*) echo "bisect-kernel: unknown argument \"$1\"" >&2; usage ;;
	esac
done
[ -f Makefile ] && [ -f Kconfig ] && [ -x scripts/kconfig/merge_config.sh ] ||
	fatal "run it at the top of a kernel tree (git bisect run does)"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || fatal "-j $jobs: a number"
case $base in tinyconfig | defconfig) ;; *) fatal "--base $base: tinyconfig or defconfig" ;; esac
case ${arch:-$(uname -m)} in
x86_64 | amd64) arch=x86_64 karch=x86_64 cross='' ;;
arm64 | aarch64) arch=arm64 karch=arm64 cross=aarch64-linux-gnu- ;;
*) fatal "--arch $arch: x86_64 or arm64" ;;
esac
if [ -n "$baseline" ]; then
	[ -r "$baseline" ] || fatal "--baseline $baseline: not readable"
	baseline=$(cd "$(dirname "$baseline")" && pwd)/$(basename "$baseline")
fi
if [ -n "$cases_from" ]; then
	ktap=$cases_from
	[ -d "$ktap" ] && ktap=$ktap/ktap.txt
	[ -r "$ktap" ] || fatal "--cases-from $cases_from: no ktap.txt there (a step's DIR/perfconf-results/<commit>)"
	bins=$("$src/scripts/bisect-verdict.sh" binaries "$ktap") ||
		fatal "--cases-from $cases_from: no regression or new failure in its report"
	for b in $bins; do runner+=(-t "$b"); done
	echo "bisect-kernel: --cases-from $cases_from: $(echo $bins)" >&2
fi
frag=$src/runners/vm/kernel.config
[ -r "$frag" ] || fatal "$frag missing"
obj=${obj:-$PWD/.perfconf-build}
mkdir -p "$obj/perfconf-logs"
obj=$(cd "$obj" && pwd)

pkgs="make gcc flex bison bc libelf-dev libssl-dev cpio xz-utils"
[ "$arch" = arm64 ] && pkgs="$pkgs gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu"
# shellcheck disable=SC2086
sh "$src/scripts/apt-install.sh" -p bisect-kernel $pkgs || fatal "build dependencies missing"

commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo worktree)
logs=$obj/perfconf-logs
# A commit tested again (another selection, a rerun) keeps the earlier files: <commit>.2, ...
step_id=$commit
for i in $(seq 2 99); do
	[ -e "$obj/perfconf-results/$step_id" ] || break
	step_id=$commit.$i
done
results=$obj/perfconf-results/$step_id
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
k=(make -s -j"$jobs" O="$obj" ARCH="$karch" ${cross:+CROSS_COMPILE=$cross})
step() { # LINE: the step's one line, on stderr and in steps.txt
	echo "bisect-kernel: $step_id $*" | tee -a "$logs/steps.txt" >&2
}
cannot() { # WHY: this commit cannot be tested
	step "$*: skip (125)"
	exit 125
}
trap 'exit 130' INT
trap 'exit 143' TERM

# 1. The config: once per build directory and fragment, then olddefconfig.
t0=$(date +%s.%N)
stamp="$base $(md5sum <"$frag" | cut -d' ' -f1) $arch"
{
	if [ "$(cat "$obj/.perfconf-config" 2>/dev/null)" != "$stamp" ] || [ ! -f "$obj/.config" ]; then
		"${k[@]}" "$base" &&
			scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$frag" &&
			echo "$stamp" >"$obj/.perfconf-config"
	fi && "${k[@]}" olddefconfig
} >"$logs/$step_id.build.log" 2>&1 || cannot "configuring failed (log: $logs/$step_id.build.log)"

# 2. The build: x86_64 boots vmlinux by PVH when the config has it.
case $arch in
x86_64)
	goal=bzImage image=$obj/arch/x86/boot/bzImage
	if grep -q '^CONFIG_PVH=y' "$obj/.config"; then goal=vmlinux image=$obj/vmlinux; fi
	;;
arm64) goal=Image image=$obj/arch/arm64/boot/Image ;;
esac
# `modules` too: it writes Module.symvers, which perfconf_pmu.ko is built against.
"${k[@]}" "$goal" modules >>"$logs/$step_id.build.log" 2>&1 ||
	{ grep -E 'error|Error' "$logs/$step_id.build.log" | head -n 5 >&2; cannot "build $(secs "$t0" "$(date +%s.%N)") s: the build failed (log: $logs/$step_id.build.log)"; }
t1=$(date +%s.%N)

# 3. Boot and run: perfconf vm, through the runner when it is built.
vmcmd=("$src/runners/vm/vm.sh")
[ -x "$src/build/perfconf" ] && vmcmd=("$src/build/perfconf" vm)
rc=0
rm -rf "$results" && mkdir -p "$results"
VM_RESULTS=$results.tmp VM_INITRAMFS=$obj/perfconf-$arch.cpio PERFCONF_SOURCE=$src \
	"${vmcmd[@]}" --kernel "$image" --arch "$arch" --config "$obj/.config" \
	${baseline:+--baseline "$baseline"} -- "${runner[@]}" >"$logs/$step_id.vm.log" 2>&1 || rc=$?
t2=$(date +%s.%N)
# boot.sh names the directory after the guest's id: there is one.
for d in "$results.tmp"/*/; do [ -d "$d" ] && cp -a "$d/." "$results/"; done
rm -rf "$results.tmp"
grep -E '^(target|[a-z0-9_]+-custom) ' "$logs/$step_id.vm.log" | sed 's/^/bisect-kernel:   /' >&2 || true
boot=$(sed -n 's/^boot_s=//p' "$results/vm.txt" 2>/dev/null)
times="build $(secs "$t0" "$t1") s, boot+suite $(secs "$t1" "$t2") s (boot ${boot:--} s)"

if [ -n "$save" ] && [ "$rc" -le 1 ]; then
	if [ -f "$results/results.txt" ]; then
		cp "$results/results.txt" "$save"
		echo "bisect-kernel: $commit: results saved to $save" >&2
	else
		echo "bisect-kernel: $commit: no results.txt to save" >&2
	fi
fi

# The verdict, and the case that decided it (scripts/bisect-verdict.sh).
vrc=0
verdict=$("$src/scripts/bisect-verdict.sh" verdict "$results/ktap.txt" "$rc") || vrc=$?
case $vrc in
0 | 1) step "$times: $verdict" ;;
*)
	[ "$rc" -le 1 ] || verdict="$verdict: $(grep -E '^vm: |problems=' "$logs/$step_id.vm.log" | tail -n 1)"
	cannot "$times: ${verdict#cannot test: } (log: $logs/$step_id.vm.log)"
	;;
esac
exit "$vrc"
