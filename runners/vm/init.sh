#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the matrix's guests (busybox-static): mount the pseudo
# filesystems, run the suite with the kernel's own settings (Debian boots
# with perf_event_paranoid=3, and it stays so), print the results on the
# serial console framed by markers, then power off.
#
# Console protocol (read by boot.sh):
#   === perfconf-vm: id <release> <uname -m> <profile>
#   === perfconf-vm: begin <name>       then the file's lines, each prefixed
#   |<line>                             with "|" (kernel messages that slip in
#   === perfconf-vm: end <name> <lines> <md5>   are told apart and dropped)
#   === perfconf-vm: done rc=<runner exit code>
# Files: ktap.txt, results.txt, and baseline:<name> with VM_RECORD.
#
# /pc/target (written per target by boot.sh) sets TARGET, VARIANT (e.g.
# "vhe": the baseline gets a "-vhe" suffix), RECORD (1: record a baseline),
# JOBS and PERFCONF_ARGS (extra runner options, e.g. -t attr/*).
# MODE=shell (a lab's root filesystem, initramfs.sh with no suite): after
# the mounts, a root shell on the console, prompt "perfconf# ", instead.

/bin/busybox mkdir -p /proc /sys /dev /tmp /run /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/sbin:/bin:/usr/sbin:/usr/bin HOME=/ TMPDIR=/tmp

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
# As systemd does on a booted system: write the root's subtree_control
# once. Until then the kernel gives new cgroup2 cgroups no css of the
# implicit perf_event controller, so mkdir writes no PERF_RECORD_CGROUP.
echo +pids >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
# Only emergencies on the console from here on: the framed output must not
# be interleaved with kernel messages. The runner reads /dev/kmsg itself.
echo "1 4 1 7" >/proc/sys/kernel/printk
# A config packed under another release name (vm.sh could not read the
# image's release): give the only one the name the lib looks for.
if [ ! -e "/boot/config-$(uname -r)" ]; then
	set -- /boot/config-*
	[ $# = 1 ] && [ -f "$1" ] && ln -s "${1##*/}" "/boot/config-$(uname -r)"
fi
ip link set lo up 2>/dev/null

M="=== perfconf-vm:"
TARGET=unknown VARIANT='' RECORD=0 JOBS='' PERFCONF_ARGS='' MODE=''
[ -r /pc/target ] && . /pc/target
if [ "$MODE" = shell ]; then
	echo "$M shell $(uname -r) $(uname -m) cpus=$(nproc)"
	export PS1='perfconf# '
	# The console as the shell's controlling terminal (cttyhack finds it).
	exec setsid cttyhack sh
fi
: "${JOBS:=$(nproc)}"

# The runner's profile rule (runners/profile.c), for when there is no runner.
profile() {
	p=""
	for d in /sys/bus/event_source/devices/*; do
		n=${d##*/}
		case $n in
		software | tracepoint | breakpoint | kprobe | uprobe | msr | power) continue ;;
		cpu | cpu_* | cpum_cf) ;;
		*) [ -e "$d/cpus" ] || continue ;;
		esac
		n=$(echo "$n" | sed 's/_[0-9][0-9]*$//')
		case " $p " in *" $n "*) ;; *) p="$p $n" ;; esac
	done
	p=$(echo $p | tr ' ' '\n' | sort | tr '\n' '+' | sed 's/+$//')
	echo "${p:-nohw}"
}

frame() { # NAME FILE
	[ -f "$2" ] || return 0
	echo "$M begin $1"
	sed 's/^/|/' "$2"
	echo "$M end $1 $(wc -l <"$2") $(md5sum <"$2" | cut -d' ' -f1)"
}

cd /pc || echo "$M no /pc in the initramfs"
echo "$M start $TARGET $(uname -r) $(uname -m) cpus=$(nproc)"
echo "# cmdline: $(cat /proc/cmdline)"
echo "# perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid) PMUs: $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
# What the kernel said about its PMU and exception level (VHE or not).
dmesg | grep -iE 'started at EL|VHE|hw perfevents|Performance Events' | sed 's/^\[[ 0-9.]*\] */# dmesg: /'
mkdir -p /pc/results /pc/record

# The lib's unit tests of byte layout first (ABI tables, record parser,
# ring reader): their TAP is framed back as unit.txt and boot.sh fails the
# target when one fails.
if [ -d build/unit ]; then
	upass=0 ufail=0
	for u in build/unit/*; do
		echo "# unit: ${u##*/}" >>/pc/results/unit.txt
		if "$u" </dev/null >>/pc/results/unit.txt 2>&1; then upass=$((upass + 1)); else
			ufail=$((ufail + 1))
			echo "# unit: ${u##*/} failed" >>/pc/results/unit.txt
		fi
	done
	echo "$M unit passed=$upass failed=$ufail"
fi

if [ -x build/perfconf ]; then
	# A variant (vhe: same arch, kernel and PMU as the plain target, other
	# semantics) makes the runner's profile <profile>-<variant>: a baseline
	# of its own, <arch>-<M.m>-<profile>-<variant>.txt.
	set -- --results /pc/results -j "$JOBS" ${VARIANT:+--variant "$VARIANT"}
	prof=$(build/perfconf info "$@" | sed -n 's/^profile: //p')
	rec=$(build/perfconf info "$@" | sed -n 's/^record target: //p')
	[ -n "$prof" ] || prof=$(profile)${VARIANT:+-$VARIANT}
	echo "$M id $(uname -r) $(uname -m) $prof"
	# From the baseline there is, so that a recording with -t or -x
	# replaces the selected binaries' lines and keeps the others.
	if [ "$RECORD" = 1 ]; then
		[ ! -f "$rec" ] || cp "$rec" "/pc/record/${rec##*/}"
		set -- "$@" --record="/pc/record/${rec##*/}"
	fi
	echo "# perfconf $* $PERFCONF_ARGS"
	# shellcheck disable=SC2086
	build/perfconf "$@" $PERFCONF_ARGS </dev/null
	rc=$?
else
	# No runner (yet): every binary directly, its TAP kept whole.
	echo "$M id $(uname -r) $(uname -m) $(profile)${VARIANT:+-$VARIANT}"
	out=/pc/results/ktap.txt
	bins=$(find build/tests -type f | sort)
	n=$(echo "$bins" | grep -c .)
	pass=0 fail=0 skip=0 i=0
	{ echo "KTAP version 1"; echo "# perfconf-vm: no runner, $n binaries run directly"; echo "1..$n"; } >"$out"
	for b in $bins; do
		i=$((i + 1))
		name=${b#build/tests/}
		timeout 300 "$b" </dev/null >/tmp/out 2>&1
		r=$?
		sed 's/^/  /' /tmp/out >>"$out"
		case $r in
		0) echo "ok $i $name" >>"$out"; pass=$((pass + 1)) ;;
		4) echo "ok $i $name # SKIP" >>"$out"; skip=$((skip + 1)) ;;
		*) echo "not ok $i $name # exit $r" >>"$out"; fail=$((fail + 1)) ;;
		esac
		tail -n 1 "$out"
	done
	echo "$pass passed, $fail failed, $skip skipped" | tee -a "$out"
	rc=0
	[ "$fail" = 0 ] || rc=1
fi

frame unit.txt /pc/results/unit.txt
frame ktap.txt /pc/results/ktap.txt
frame results.txt /pc/results/results.txt
frame durations.txt /pc/results/durations.txt
for f in /pc/record/*.txt; do
	[ -f "$f" ] && frame "baseline:${f##*/}" "$f"
done
echo "$M done rc=$rc"
sync
poweroff -f
sleep 5
echo "$M poweroff failed"
