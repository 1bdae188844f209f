#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The VM matrix: the suite on Debian's kernels under qemu, each target
# compared with its own baseline, in parallel up to the core count.
#
#   runners/vm/matrix.sh [TARGET...]        (or TARGETS="arm64-6.1 x86_64-7.2")
#
# Targets: x86_64-<M.m>, arm64-<M.m>, arm64-vhe (the kernel at EL2 with VHE,
# on the newest line of the default list, VM_VHE_LINE) or arm64-vhe-<M.m>;
# opt-in, a Debian flavour: x86_64-<M.m>-rt, <arch>-<M.m>-cloud,
# arm64-<M.m>-16k (the guest's runner gets --variant <flavour>: a profile
# and baseline of their own, never the plain kernel's); and the 32-bit
# suite on a 64-bit kernel, x86_64-<M.m>-i386 and arm64-<M.m>-armhf (the
# compat ABI: such a runner is variant i386 or armhf by itself); other
# arches, riscv64-<M.m> (qemu's virt machine, its SBI PMU), s390x-<M.m>
# (big-endian; software events) and ppc64el-<M.m> (qemu's pseries machine,
# its POWER PMU).
# Default: x86_64 and arm64 on 5.10, 6.1, 6.12 and 7.2, plus arm64-vhe.
#
# Steps: install what is missing (runners/vm/deps.sh); resolve and download
# each kernel once (resolve-kernel.sh, cached in build/vm/cache); build
# perfconf_pmu.ko for each kernel (module.sh, cached; in the background);
# build the suite statically per arch (build-static.sh); pack it
# (initramfs.sh); boot the targets (boot.sh); print a table. Results land in
# build/results/<release>-<arch>-<profile>[-vhe]/.
#
# Exit: 0 every target ran and matched its baseline; 1 a target failed,
# regressed or did not run to the end; 2 a setup error (dependencies, build).
#
# Environment (all of them in runners/vm/README.md): VM_JOBS (targets at
# once, default nproc), VM_TIMEOUT, VM_GUEST_TIMEOUT, VM_EXPECTED,
# VM_RECORD=1 (record each target's baseline into VM_RECORD_DIR, default
# expected/), VM_ARGS (extra runner options in the guests), VM_REFRESH and
# VM_LISTS_DAYS (package lists, see apt.sh), VM_DIR, VM_CACHE.
set -eEuo pipefail
# Every exit says why: a command that fails where nothing handles it is named.
trap 'echo "matrix: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
export VM_DIR=${VM_DIR:-build/vm}
vm=$VM_DIR
vhe_line=${VM_VHE_LINE:-7.2}
lines="5.10 6.1 6.12 7.2"

if [ $# -gt 0 ]; then
	targets="$*"
elif [ -n "${TARGETS:-}" ]; then
	targets=$TARGETS
else
	targets=""
	for a in x86_64 arm64; do
		for l in $lines; do targets="$targets $a-$l"; done
	done
	targets="$targets arm64-vhe"
fi

t_start=$(date +%s.%N)
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# TARGET FILE: the table's keys of a vm.txt ("key=value" lines, the last of
# a key wins) into the variables of the same name. Its values come from the
# guest, so it is parsed, never evaluated: other keys are ignored, and a
# value of the wrong form is dropped with a warning and returns 1 (the
# target then counts as an error).
read_vm_txt() {
	local line key val re ok=0
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in *=*) ;; *) continue ;; esac
		key=${line%%=*} val=${line#*=}
		case $key in
		status) re='^[a-z][a-z-]*$' ;;
		release | profile) re='^[A-Za-z0-9._+~-]+$' ;;
		passed | failed | skipped | regressions) re='^([0-9]+|-)$' ;;
		boot_s | wall_s) re='^([0-9]+(\.[0-9]+)?|-)$' ;;
		*) continue ;;
		esac
		if [ -z "$val" ]; then
			unset "$key"
		elif [[ $val =~ $re ]]; then
			printf -v "$key" '%s' "$val"
		else
			echo "matrix: $1: ignoring $key in $2: not a valid value: $(printf '%q' "$val" | cut -c1-80)" >&2
			unset "$key"
			ok=1
		fi
	done <"$2"
	return "$ok"
}

# target -> "arch line [flavour]"
parse() {
	case $1 in
	arm64-vhe) echo "arm64 $vhe_line" ;;
	arm64-vhe-[0-9]*.[0-9]*) echo "arm64 ${1#arm64-vhe-}" ;;
	*)
		[[ $1 =~ ^(riscv64|s390x|ppc64el)-([0-9]+\.[0-9]+)$ ]] && { echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"; return; }
		[[ $1 =~ ^(x86_64|arm64)-([0-9]+\.[0-9]+)(-(rt|cloud|16k|i386|armhf))?$ ]] || return 1
		[ "${BASH_REMATCH[4]}" != 16k ] || [ "${BASH_REMATCH[1]}" = arm64 ] || return 1
		[ "${BASH_REMATCH[4]}" != armhf ] || [ "${BASH_REMATCH[1]}" = arm64 ] || return 1
		[ "${BASH_REMATCH[4]}" != i386 ] || [ "${BASH_REMATCH[1]}" = x86_64 ] || return 1
		echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}${BASH_REMATCH[4]:+ ${BASH_REMATCH[4]}}"
		;;
	esac
}
for t in $targets; do
	parse "$t" >/dev/null || { echo "matrix: unknown target \"$t\" (x86_64-M.m, arm64-M.m, arm64-vhe[-M.m], <arch>-M.m-rt|cloud, arm64-M.m-16k, x86_64-M.m-i386, arm64-M.m-armhf, riscv64-M.m, s390x-M.m, ppc64el-M.m)" >&2; exit 2; }
done

fail() { # WHY
	echo "matrix: $1" >&2
	exit 2
}
guest_archs=$(for t in $targets; do parse "$t"; done | awk '{ print $1; if ($3 == "i386" || $3 == "armhf") print $3 }' |
	sort -u | tr '\n' ' ')
# shellcheck disable=SC2086 # a list of archs
"$here/deps.sh" $guest_archs || fail "the VM matrix's packages are missing (runners/vm/deps.sh ${guest_archs% })"
mkdir -p "$vm"
exec 8>"$vm/matrix.lock"
flock -n 8 || fail "another matrix run is using $vm"
rm -rf "$vm/run" && mkdir -p "$vm/run"
# Stopped: stop the steps and the boots (each boot kills its qemu), and clean up.
stop() {
	trap - INT TERM EXIT ERR
	local p
	for p in $(jobs -p); do kill -TERM "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$vm/run"
	exit "${1:-130}"
}
trap 'stop 130' INT
trap 'stop 143' TERM

# OUT CMD...: a setup step (resolving a kernel, building the suite), its
# stdout into OUT; returns its exit code. In the background and in a
# process group of its own (setsid runs it in place: a background child
# leads no group), so that a signal reaches the traps at once (bash runs a
# trap only after its foreground command ends) and stop() ends all of it,
# a build's make and compilers too.
step() {
	local out=$1 rc=0
	shift
	setsid "$@" >"$out" &
	wait $! || rc=$?
	return "$rc"
}

# A target's kernel flavour ("" for i386 and armhf, userlands) and
# userland (its suite's build: the arch, i386 or armhf).
kflavour() { case ${1:-} in i386 | armhf) ;; *) echo "${1:-}" ;; esac; }
userland() { case ${2:-} in i386 | armhf) echo "$2" ;; *) echo "$1" ;; esac; }

# 1. Kernels, one at a time (one apt configuration, one download at a time).
declare -A kdir
for t in $targets; do
	read -r arch line flavour < <(parse "$t")
	flavour=$(kflavour "$flavour")
	key="$arch-$line${flavour:+-$flavour}"
	[ -n "${kdir[$key]:-}" ] && continue
	t0=$(date +%s.%N)
	if step "$vm/run/kernel.$key" "$here/resolve-kernel.sh" "$arch" "$line" $flavour; then
		k=$(cat "$vm/run/kernel.$key")
		kdir[$key]=$k
		echo "matrix: $key: $(cat "$k/package") ($(secs "$t0" "$(date +%s.%N)") s)" >&2
	else
		kdir[$key]=none
	fi
done

# 1b. perfconf_pmu.ko for each kernel (module.sh: cached per kernel, module
# source and headers), in the background while the suites build; the boots
# wait for it. A kernel without one boots with module/why.
modks=()
for k in "${kdir[@]}"; do
	[ "$k" = none ] || modks+=("$k")
done
modpid=''
t_mod=$(date +%s.%N)
if [ ${#modks[@]} -gt 0 ]; then
	# shellcheck disable=SC2016 # expanded by that bash
	setsid bash -c 'm=$1 t=$2; shift 2; for k; do "$m" "$k" </dev/null || true; done; date +%s.%N >"$t"' \
		bash "$here/module.sh" "$vm/run/module.end" "${modks[@]}" >/dev/null 2>"$vm/run/module.err" &
	modpid=$!
fi

# 2. The suite, per arch, and its initramfs.
declare -A initrd want
for t in $targets; do
	read -r arch line flavour < <(parse "$t")
	want[$(userland "$arch" "$flavour")]=1
done
for arch in x86_64 arm64 i386 armhf riscv64 s390x ppc64el; do
	[ -n "${want[$arch]:-}" ] || continue
	t0=$(date +%s.%N)
	step "$vm/run/build.$arch" "$here/build-static.sh" "$arch" || fail "$arch: building the suite failed (exit $?)"
	b=$(cat "$vm/run/build.$arch")
	step "$vm/run/initrd.$arch" "$here/initramfs.sh" "$arch" "$b" || fail "$arch: packing the initramfs failed (exit $?)"
	initrd[$arch]=$(cat "$vm/run/initrd.$arch")
	echo "matrix: $arch: suite built and packed ($(secs "$t0" "$(date +%s.%N)") s)" >&2
done

if [ -n "$modpid" ]; then
	t_wait=$(date +%s.%N)
	wait "$modpid" || true
	sed 's/^vm: module: /matrix: module: /' "$vm/run/module.err" >&2
	n_ko=0
	for k in "${modks[@]}"; do [ -s "$k/module/perfconf_pmu.ko" ] && n_ko=$((n_ko + 1)); done
	echo "matrix: perfconf_pmu.ko for $n_ko of ${#modks[@]} kernels ($(secs "$t_mod" "$(cat "$vm/run/module.end" 2>/dev/null || date +%s.%N)") s, beside the suites' builds; waited $(secs "$t_wait" "$(date +%s.%N)") s)" >&2
fi

# 3. Boot the targets, up to VM_JOBS at once.
jobs=${VM_JOBS:-$(nproc)}
declare -A pid_of
running=0
t_boot=$(date +%s.%N)
for t in $targets; do
	read -r arch line flavour < <(parse "$t")
	ul=$(userland "$arch" "$flavour")
	flavour=$(kflavour "$flavour")
	k=${kdir[$arch-$line${flavour:+-$flavour}]}
	mkdir -p "$vm/run/$t"
	if [ "$k" = none ]; then
		printf 'target=%s\nstatus=no-kernel\nrelease=-\n' "$t" >"$vm/run/$t/vm.txt"
		continue
	fi
	while [ "$running" -ge "$jobs" ]; do
		wait -n || true
		running=$((running - 1))
	done
	echo "matrix: $t: booting $(cat "$k/release")" >&2
	"$here/boot.sh" "$t" "$k" "${initrd[$ul]}" >"$vm/run/$t.out" 2>"$vm/run/$t.err" &
	pid_of[$t]=$!
	running=$((running + 1))
done
wait || true
t_end=$(date +%s.%N)

# 4. The table.
bad=0
printf '\n%-16s %-24s %-16s %6s %6s %6s %5s %6s %6s  %s\n' target kernel profile passed failed skipped regr boot_s wall_s status
for t in $targets; do
	f=$vm/run/$t/vm.txt
	unset status release profile passed failed skipped regressions boot_s wall_s
	if [ -f "$f" ]; then
		read_vm_txt "$t" "$f" || status=error
	fi
	status=${status:-error}
	printf '%-16s %-24s %-16s %6s %6s %6s %5s %6s %6s  %s\n' "$t" "${release:--}" "${profile:--}" "${passed:--}" \
		"${failed:--}" "${skipped:--}" "${regressions:--}" "${boot_s:--}" "${wall_s:--}" "$status"
	[ "$status" = ok ] || bad=1
done
echo
echo "matrix: $(echo "$targets" | wc -w) targets, boots $(secs "$t_boot" "$t_end") s, total $(secs "$t_start" "$t_end") s, -j $jobs"

# The failed targets' own words (console tails, damaged transfers).
for t in $targets; do
	if [ -s "$vm/run/$t.err" ]; then
		echo
		echo "--- $t"
		cat "$vm/run/$t.err"
	fi
done
rm -rf "$vm/run"
exit "$bad"
