#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bisecting proven end to end (make check-bisect): Debian's
# linux-source-6.12 as a git history with a planted perf ABI regression, and
# `git bisect run scripts/bisect-kernel.sh` must name that commit: once
# with the whole suite at every step, once with --cases-from (the binaries
# that regressed in the bad commit's run), whose find is then run with the
# whole suite.
#
#   scripts/check-bisect.sh [--arch x86_64|arm64]... [-o DIR] [-j N]
#
#   --arch A   the kernel's arch, repeatable (default: x86_64 and arm64;
#              arm64 is cross-built)
#   -o DIR     where the tree, the builds and the logs go (default:
#              build/bisect); an existing tree with the same history and
#              its build directories are reused, so a second run builds
#              incrementally from its first step
#   -j N       make jobs (default: the number of CPUs)
#
# The history (DIR/linux, made once; the same commit ids every time): the
# tarball as Debian ships it (tag perfconf/good), then the commits of
# `history` below: harmless ones (comments, subsystems the tinyconfig build
# does not compile), one whose effect a fact explains (the BPF JIT off by
# default: the runner's fact bpf_jit changes, and the cases that depend on
# it are not judged: it must not be blamed), one that does not build (and
# the next that mends it: a step there is skipped, 125), and the planted
# regression (perf_event_open() refuses a sample_period with bit 63 set
# with ERANGE, where the ABI says EINVAL). The last is perfconf/bad.
#
# Each step prints its line (bisect-kernel.sh: commit, build seconds, boot
# and suite seconds, the verdict and the case that decided it); each bisect
# prints the commit found and its time. Logs: DIR/<arch>-*.log and the
# build directory's perfconf-logs/ and perfconf-results/<commit>/.
#
# Exit: 0 every bisection named the planted commit; 1 one did not, or a
# step it relies on did not say what it must; 2 a setup error.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	echo "usage: scripts/check-bisect.sh [--arch x86_64|arm64]... [-o DIR] [-j N]" >&2
	exit 2
}
die() {
	echo "check-bisect: $*" >&2
	exit 2
}
say() { echo "check-bisect: $*" >&2; }

arches=() dir=$src/build/bisect jobs=$(nproc)
while [ $# -gt 0 ]; do
	case $1 in
	--arch) [ $# -ge 2 ] || usage; arches+=("$2"); shift 2 ;;
	-o) [ $# -ge 2 ] || usage; dir=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	-h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 0 ;;
	*) echo "check-bisect: unknown argument \"$1\"" >&2; usage ;;
	esac
done
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 arm64)
for a in "${arches[@]}"; do
	case $a in x86_64 | arm64) ;; *) die "--arch $a: x86_64 or arm64" ;; esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "-j $jobs: a number"
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
sh "$src/scripts/apt-install.sh" -p check-bisect git linux-source-6.12 xz-utils || die "its packages are missing"
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || die "/usr/src/linux-source-6.12.tar.* not found (Debian's linux-source-6.12)"
[ -x "$src/build/perfconf" ] || die "build/perfconf is not built (make)"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }
g() { git -C "$tree" "$@"; }

# --- the history -------------------------------------------------------------

tree=$dir/linux
n=0
# MESSAGE: commit what the worktree has, with fixed names and dates so that
# the ids are the same on every machine that has this tarball.
commit() {
	n=$((n + 1))
	g add -f -A . >/dev/null
	GIT_AUTHOR_DATE="2026-01-01T00:$((n / 60)):$((n % 60))Z" GIT_COMMITTER_DATE="2026-01-01T00:$((n / 60)):$((n % 60))Z" \
		g -c user.name=perfconf -c user.email=perfconf@localhost commit -q --no-verify -m "$1"
}
# FILE MESSAGE: a comment appended to FILE, in its language.
note() {
	case $1 in
	*.c | *.h) printf '/* %s */\n' "$2" >>"$tree/$1" ;;
	*) printf '\n%s\n' "$2" >>"$tree/$1" ;;
	esac
	commit "$(dirname "$1" | cut -d/ -f1-2): $2"
}
# PERL-EXPRESSION FILE MESSAGE: an edit that must change FILE.
edit() {
	perl -0pi -e "$1" "$tree/$2"
	[ -n "$(g status --porcelain -- "$2")" ] || die "the history's edit of $2 no longer applies"
	commit "$3"
}
history() {
	note Documentation/admin-guide/perf-security.rst "A note on where perf_event_paranoid is documented."
	note kernel/events/core.c "End of the perf core."
	note mm/mmap.c "End of mmap.c."
	note drivers/net/ethernet/intel/e1000/e1000_main.c "End of the e1000 driver."
	note fs/open.c "End of open.c."
	note sound/core/init.c "End of the sound core."
	note kernel/events/ring_buffer.c "End of the ring buffer."
	note tools/perf/builtin-record.c "End of perf record."
	edit 's/^int bpf_jit_enable   __read_mostly = IS_BUILTIN\(CONFIG_BPF_JIT_DEFAULT_ON\);/int bpf_jit_enable   __read_mostly;/m' \
		kernel/bpf/core.c "bpf: the JIT is off until net.core.bpf_jit_enable turns it on"
	note net/ipv4/tcp.c "End of tcp.c."
	note kernel/sched/core.c "End of the scheduler core."
	note lib/string.c "End of string.c."
	edit 's/\z/#error "a half-done change"\n/' kernel/events/ring_buffer.c "perf/core: a half-done change (it does not build)"
	edit 's/#error "a half-done change"\n\z//' kernel/events/ring_buffer.c "perf/core: the half-done change undone"
	note Documentation/userspace-api/index.rst "A note at the end of the index."
	edit 's/(if \(attr\.sample_period & \(1ULL << 63\)\)\n\t+return -)EINVAL;/${1}ERANGE;/' \
		kernel/events/core.c "perf/core: a sample_period with bit 63 set is out of range"
	note kernel/events/callchain.c "End of callchain.c."
	note MAINTAINERS "End of MAINTAINERS."
}
# The stamp: the tarball, then this history's text. Another stamp, another
# tree; another tarball, new build directories too (its files keep the
# tarball's times, which may be older than the objects built from the
# last). Files the history changes are written anew, so objects built
# before are never taken for theirs.
stamp="$(basename "$tarball") $(stat -c %s "$tarball")
$(declare -f history note edit commit | md5sum | cut -d' ' -f1)"
if [ "$(cat "$dir/linux.stamp" 2>/dev/null)" != "$stamp" ] || ! g rev-parse -q --verify perfconf/bad >/dev/null; then
	t0=$(now)
	say "making the history in $tree from $tarball"
	[ "$(head -n 1 "$dir/linux.stamp" 2>/dev/null)" = "$(echo "$stamp" | head -n 1)" ] || rm -rf "$dir"/build-*
	rm -rf "$tree" "$dir/linux.stamp"
	mkdir -p "$tree"
	tar -xf "$tarball" -C "$tree" --strip-components=1 || die "cannot unpack $tarball"
	g init -q
	commit "linux-source-6.12 as Debian ships it ($(basename "$tarball"))"
	g tag perfconf/good
	history
	g tag perfconf/bad
	g tag perfconf/planted "$(g log --format=%H -1 --grep='^perf/core: a sample_period with bit 63')"
	g tag perfconf/explained "$(g log --format=%H -1 --grep='^bpf: the JIT is off')"
	echo "$stamp" >"$dir/linux.stamp"
	say "history made ($(g rev-list --count perfconf/good..perfconf/bad) commits on the tarball, $(secs "$t0" "$(now)") s)"
fi
g bisect reset >/dev/null 2>&1 || true
planted=$(g rev-parse perfconf/planted)
explained=$(g rev-parse perfconf/explained)

# --- one arch ----------------------------------------------------------------

fails=0
# The steps.txt lines written since mark, each after its commit's subject.
steps_since() {
	tail -n +"$((mark + 1))" "$steps" | while IFS= read -r l; do
		c=$(echo "$l" | awk '{ print $2 }')
		c=${c%%.*}	# <commit>.2: tested again
		printf '  %s  %s\n' "$(g log --format='%<(44,trunc)%s' -1 "$c" 2>/dev/null)" "${l#bisect-kernel: }"
	done
	mark=$(wc -l <"$steps")
}
# NAME BISECT-KERNEL-OPTIONS...: git bisect run between perfconf/bad and
# perfconf/good; sets found.
bisect() {
	local name=$1 t0 log
	shift
	log=$dir/$arch-bisect-$name.log
	t0=$(now)
	g bisect start perfconf/bad perfconf/good >/dev/null
	(cd "$tree" && git bisect run "$src/scripts/bisect-kernel.sh" "${common[@]}" "$@") >"$log" 2>&1 || true
	found=$(g rev-parse -q --verify refs/bisect/bad 2>/dev/null || echo none)
	if ! grep -q 'is the first bad commit' "$log"; then
		found=none
	fi
	g bisect log >"$dir/$arch-bisect-$name.gitlog" 2>/dev/null || true
	g bisect reset >/dev/null 2>&1 || true
	say "$arch, $name: steps"
	steps_since >&2
	if [ "$found" = "$planted" ]; then
		say "$arch, $name: found $(g log --oneline -1 "$found"): the planted commit, in $(secs "$t0" "$(now)") s"
	else
		say "$arch, $name: FAILED: found ${found:0:12} ($(g log --format=%s -1 "$found" 2>/dev/null || echo nothing)), not the planted ${planted:0:12}; log: $log"
		fails=$((fails + 1))
	fi
	local skipped
	skipped=$(grep -c '^# skip' "$dir/$arch-bisect-$name.gitlog" || true)
	[ "$skipped" = 0 ] || say "$arch, $name: commits skipped: $skipped (why: their lines above)"
	return 0
}
# COMMIT WANT BISECT-KERNEL-OPTIONS...: one step outside a bisection; its
# exit must match WANT (a glob: [01]).
step() {
	local c=$1 want=$2 rc=0
	shift 2
	g checkout -q -f "$c"
	(cd "$tree" && "$src/scripts/bisect-kernel.sh" "${common[@]}" "$@") >"$dir/$arch-step.log" 2>&1 || rc=$?
	steps_since >&2
	# shellcheck disable=SC2254 # WANT is a pattern
	case $rc in $want) return 0 ;; esac
	say "$arch: FAILED: $(g log --oneline -1 "$c") exited $rc, not $want (log: $dir/$arch-step.log)"
	tail -n 5 "$dir/$arch-step.log" >&2
	fails=$((fails + 1))
	return 1
}

for arch in "${arches[@]}"; do
	t_arch=$(now)
	obj=$dir/build-$arch
	rm -rf "$obj/perfconf-logs" "$obj/perfconf-results"	# this run's steps only
	mkdir -p "$obj/perfconf-logs"
	steps=$obj/perfconf-logs/steps.txt
	touch "$steps"
	mark=$(wc -l <"$steps")
	rm -f "$obj/perfconf-$arch.cpio"	# this tree's suite, packed at the first step
	common=(-O "$obj" --arch "$arch" -j "$jobs")
	good=$dir/good-$arch.txt

	say "$arch: the good commit, its results saved (the first build; judged against expected/)"
	rm -f "$good"
	step perfconf/good '[01]' --save "$good" || true
	if [ ! -s "$good" ]; then
		say "$arch: FAILED: no results of the good commit"
		fails=$((fails + 1))
		continue
	fi
	common+=(--baseline "$good")

	bisect whole

	say "$arch: the bad commit with the whole suite: the cases to select"
	step perfconf/bad 1 || continue
	bisect cases-from --cases-from "$obj/perfconf-results/$(g rev-parse --short=12 perfconf/bad)"
	if [ "$found" != none ]; then
		say "$arch: the commit found, with the whole suite"
		step "$found" 1 || true
	fi
	g checkout -q -f perfconf/bad
	say "$arch: done in $(secs "$t_arch" "$(now)") s"
done
[ "$fails" = 0 ] || { say "FAILED: $fails"; exit 1; }
say "ok: every bisection named the planted commit ($(g log --oneline -1 "$planted")), not the one a fact explains ($(g log --oneline -1 "$explained"))"
