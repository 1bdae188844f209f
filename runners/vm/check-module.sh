#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perfconf_pmu.ko proven on the guests' kernels, without the suite: for each
# target, its kernel (resolve-kernel.sh), the module built against its
# headers (module.sh), and a boot (boot.sh) of a small initramfs whose /init
# loads it with busybox insmod, reads its taint and the PMUs it registered
# (perfconf_aux, perfconf_out), and unloads it. One line per target.
#
#   runners/vm/check-module.sh [TARGET...]    (or TARGETS=...)
#
# Targets: <arch>-<M.m> (x86_64, arm64, riscv64, s390x, ppc64el); default:
# x86_64 and arm64 on 5.10, 6.1, 6.12 and 7.2. Boots run VM_JOBS (nproc) at
# once; each has VM_TIMEOUT (120) seconds.
# Exit: 0 the module loaded and unloaded on every target; 1 otherwise; 2 a
# setup error.
set -eEuo pipefail
# Every exit says why: a command that fails where nothing handles it is named.
trap 'echo "check-module: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
export VM_DIR=${VM_DIR:-build/vm}
if [ $# -gt 0 ]; then
	targets="$*"
elif [ -n "${TARGETS:-}" ]; then
	targets=$TARGETS
else
	targets=""
	for a in x86_64 arm64; do for l in 5.10 6.1 6.12 7.2; do targets="$targets $a-$l"; done; done
fi
archs=""
for t in $targets; do
	[[ $t =~ ^(x86_64|arm64|riscv64|s390x|ppc64el)-([0-9]+\.[0-9]+)$ ]] ||
		{ echo "check-module: unknown target \"$t\" (<arch>-<M.m>)" >&2; exit 2; }
	case " $archs " in *" ${BASH_REMATCH[1]} "*) ;; *) archs="$archs ${BASH_REMATCH[1]}" ;; esac
done
# shellcheck disable=SC2086 # a list of archs
"$here/deps.sh" $archs || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/perfconf-check-module.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The guest's /init: the module's whole life, on the console.
cat >"$tmp/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
M="=== perfconf-vm:"
echo "$M start module $(uname -r) $(uname -m)"
ko=/pc/build/module/perfconf_pmu.ko
if [ ! -f $ko ]; then
	echo "$M module absent: $(cat /pc/build/module/why 2>/dev/null)"
elif n=$(dmesg | wc -l) && insmod $ko 2>/tmp/insmod.err; then
	pmus=''
	for p in perfconf_aux perfconf_out; do
		[ -r /sys/bus/event_source/devices/$p/type ] && pmus="$pmus $p=$(cat /sys/bus/event_source/devices/$p/type)"
	done
	echo "$M module loaded taint=$(cat /sys/module/perfconf_pmu/taint 2>/dev/null) pmus=${pmus# }"
	if rmmod perfconf_pmu 2>/tmp/rmmod.err; then
		echo "$M module unloaded"
	else
		echo "$M module rmmod failed: $(cat /tmp/rmmod.err)"
	fi
else
	echo "$M module insmod failed: $(cat /tmp/insmod.err) / $(dmesg | tail -n 1)"
fi
# A WARN or an oops since the insmod: the kernel's words, on the console.
dmesg | tail -n +$((${n:-0} + 1)) | grep -E -A 3 'WARNING:|BUG:|Oops' | head -n 8 | sed "s/^/$M dmesg: /"
echo "$M done rc=0"
poweroff -f
EOF
(cd "$tmp" && mkdir -p overlay && install -m 0755 init overlay/init &&
	cd overlay && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$tmp/overlay.cpio"

# Kernels, modules, initramfs per arch: one at a time.
declare -A kd
for t in $targets; do
	arch=${t%%-*} line=${t#*-}
	if ! kd[$t]=$("$here/resolve-kernel.sh" "$arch" "$line"); then
		kd[$t]=none
		continue
	fi
	"$here/module.sh" "${kd[$t]}" || true
	if [ ! -s "$tmp/$arch.cpio" ]; then
		base=$("$here/initramfs.sh" "$arch" -) || exit 2
		cat "$base" "$tmp/overlay.cpio" >"$tmp/$arch.cpio"
	fi
done

# Boots, VM_JOBS at once.
jobs=${VM_JOBS:-$(nproc)}
running=0
for t in $targets; do
	[ "${kd[$t]}" != none ] || continue
	while [ "$running" -ge "$jobs" ]; do
		wait -n || true
		running=$((running - 1))
	done
	mkdir -p "$tmp/res/$t" "$tmp/run/$t"
	VM_TIMEOUT=${VM_TIMEOUT:-120} VM_RESULTS=$tmp/res/$t VM_RUN=$tmp/run/$t \
		"$here/boot.sh" "$t" "${kd[$t]}" "$tmp/${t%%-*}.cpio" >/dev/null 2>"$tmp/run/$t.err" &
	running=$((running + 1))
done
wait || true

bad=0
printf '%-12s %-24s %-34s %s\n' target kernel compiler result
for t in $targets; do
	k=${kd[$t]}
	if [ "$k" = none ]; then
		printf '%-12s %-24s %-34s %s\n' "$t" - - "no kernel"
		bad=1
		continue
	fi
	log=$(ls "$tmp/res/$t"/*/console.log 2>/dev/null | head -n 1 || true)
	res=$(sed -n 's/^=== perfconf-vm: module //p' "$log" 2>/dev/null | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	[ -n "$res" ] || res="no result ($(tail -n 1 "$tmp/run/$t.err" 2>/dev/null))"
	case $res in "loaded "*"; unloaded") ;; *) bad=1 ;; esac
	cc=$(awk '{ print $3 " " $4 }' "$k/module/built-with" 2>/dev/null || echo -)
	printf '%-12s %-24s %-34s %s\n' "$t" "$(cat "$k/release")" "$cc" "$res"
	grep '^=== perfconf-vm: dmesg: ' "$log" 2>/dev/null | sed 's/^=== perfconf-vm: /  /' || true
done
exit "$bad"
