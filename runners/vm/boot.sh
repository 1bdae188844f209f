#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot one target under qemu (TCG), let the guest run the suite, and bring
# its results back from the serial console.
#
#   runners/vm/boot.sh TARGET KERNEL_DIR INITRAMFS
#     TARGET      x86_64-<M.m>, arm64-<M.m>, arm64-vhe[-<M.m>],
#                 <arch>-<M.m>-<flavour> (a Debian flavour: rt, cloud, 16k)
#                 or <arch>-custom (vm.sh: a kernel the user built)
#     KERNEL_DIR  from resolve-kernel.sh or vm.sh (vmlinuz, vmlinux,
#                 release, config; module/perfconf_pmu.ko or module/why
#                 from module.sh, packed as /pc/build/module/)
#     INITRAMFS   from initramfs.sh
#
# x86_64: PVH boot of the ELF vmlinux with qboot (-bios qboot.rom), no NIC;
#         a KERNEL_DIR with no vmlinux boots its bzImage (vmlinuz) with
#         qemu's default BIOS (SeaBIOS: slower, no PVH needed).
# arm64:  -M virt -cpu max,pauth-impdef=on -icount shift=0 (exact
#         instruction counts from the emulated PMUv3); arm64-vhe adds
#         virtualization=on, so the kernel runs at EL2 with VHE.
# A variant (vhe, or the flavour of <arch>-<M.m>-<flavour>) is passed to
# the guest's runner as --variant: its own profile and baseline name.
# Both: one vCPU, -no-reboot and panic=-1, console on a log file.
#
# qemu exits 0 after a panic as after a poweroff, so only the guest's done
# marker says the run finished. A panic, a missing marker or the timeout
# (VM_TIMEOUT seconds, default 300; s390x, ppc64el 900) fails the target and shows the
# console's tail; qemu is killed on timeout and when this script is stopped.
#
# Output, in build/results/<release>-<uname -m>-<profile>[-<variant>]/:
#   ktap.txt, results.txt and durations.txt (the guest runner's: each
#   binary's seconds), console.log, vm.txt (the summary matrix.sh reads:
#   key=value lines). With VM_RECORD=1 the guest
#   records its baseline and it is written to VM_RECORD_DIR (default
#   expected/).
# Exit: 0 the guest's runner passed, 1 it failed or regressed, 2 the target
# did not run to the end.
#
# Environment:
#   VM_TIMEOUT        seconds before the target is stopped (300; s390x, ppc64el 900)
#   VM_GUEST_TIMEOUT  the runner's --timeout in the guest, guest seconds
#                     (arm64: 2; x86_64: the runner's default)
#   VM_MEM, VM_SMP    guest memory in MiB (1024: the initramfs, unpacked into RAM, is about 150 MB) and vCPUs (1)
#   VM_ICOUNT         arm64 -icount value (shift=0); riscv64, ppc64el: only when set
#   VM_PPC_CPU        ppc64el's -cpu (power9)
#   VM_APPEND         more kernel parameters
#   VM_ARGS           more runner options in the guest, e.g. "-t attr/*"
#   VM_RECORD=1       record the target's baseline into VM_RECORD_DIR (expected)
#   VM_VERBOSE=1      the kernel's boot messages on the console
#   VM_RESULTS        where the results directories go (build/results)
#   VM_RUN            scratch directory of the boots (VM_DIR/run)
#   VM_BASELINE       a baseline file packed into the guest and given to its
#                     runner as --baseline (e.g. a good kernel's results.txt)
set -euo pipefail

target=${1:?usage: boot.sh TARGET KERNEL_DIR INITRAMFS}
kdir=${2:?usage: boot.sh TARGET KERNEL_DIR INITRAMFS}
initramfs=${3:?usage: boot.sh TARGET KERNEL_DIR INITRAMFS}
vm=${VM_DIR:-build/vm}
# s390x and ppc64el under TCG run the suite about 3 times slower than the others.
case $1 in s390x-* | ppc64el-*) timeout=${VM_TIMEOUT:-900} ;; *) timeout=${VM_TIMEOUT:-300} ;; esac
mem=${VM_MEM:-1024}
smp=${VM_SMP:-1}
results_root=${VM_RESULTS:-build/results}

arch=${target%%-*}
variant=
case $target in
arm64-vhe*) variant=vhe ;;
x86_64-*-i386 | arm64-*-armhf) ;;	# a userland: its runner is that variant by itself
x86_64-* | arm64-* | riscv64-* | s390x-* | ppc64el-*)
	if [[ $target =~ ^[a-z0-9_]+-[0-9]+\.[0-9]+-([a-z0-9]+)$ ]]; then
		variant=${BASH_REMATCH[1]}
	fi
	;;
*) echo "vm: unknown target $target" >&2; exit 2 ;;
esac
if [ -n "${VM_BASELINE:-}" ] && [ ! -r "$VM_BASELINE" ]; then
	echo "vm: VM_BASELINE: cannot read $VM_BASELINE" >&2
	exit 2
fi
release=$(cat "$kdir/release")

run=${VM_RUN:-$vm/run}/$target
rm -rf "$run" && mkdir -p "$run/extra/pc" "$run/extra/boot"
log=$run/console.log
qpid=
cleanup() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill -TERM "$qpid" 2>/dev/null || true
		sleep 1
		kill -KILL "$qpid" 2>/dev/null || true
	fi
	[ -n "$qpid" ] && wait "$qpid" 2>/dev/null || true
	# Copies are in the results directory; vm.txt stays for matrix.sh.
	rm -rf "$run/extra" "$run/initrd" "$run/console.log" "$run/qemu.out" "$run/qemu.cmd"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The runner's default timeout per binary, in guest seconds. Under
# -icount shift=0 the arm64 guest's clock advances 1 ns per instruction, so
# it runs 8x (one target alone) to 60x (a loaded matrix) slower than the
# host's: the runner's 60 s would be 10 to 60 minutes. The whole arm64
# suite takes about 1.3 guest seconds; a binary stuck for 2 is stuck.
if [ -z "${VM_GUEST_TIMEOUT+set}" ]; then
	guest_timeout=
	[ "$arch" = arm64 ] && guest_timeout=2
else
	guest_timeout=$VM_GUEST_TIMEOUT
fi

# The per-target part of the initramfs: what to run, and the kernel config
# (Debian kernels have no /proc/config.gz; the lib reads /boot/config-*).
{
	echo "TARGET='$target'"
	echo "VARIANT='$variant'"
	echo "RECORD='${VM_RECORD:-0}'"
	echo "PERFCONF_ARGS='${guest_timeout:+--timeout $guest_timeout }${VM_BASELINE:+--baseline /pc/baseline.txt }${VM_ARGS:-}'"
} >"$run/extra/pc/target"
[ -z "${VM_BASELINE:-}" ] || cp "$VM_BASELINE" "$run/extra/pc/baseline.txt"
[ -f "$kdir/config" ] && cp "$kdir/config" "$run/extra/boot/config-$release"
# perfconf_pmu.ko for this kernel (module.sh: KERNEL_DIR/module/), where the
# guest's runner looks for it, or the one line that says why there is none.
mkdir -p "$run/extra/pc/build/module"
if [ -s "$kdir/module/perfconf_pmu.ko" ]; then
	cp "$kdir/module/perfconf_pmu.ko" "$run/extra/pc/build/module/"
elif [ -s "$kdir/module/why" ]; then
	head -n 1 "$kdir/module/why" >"$run/extra/pc/build/module/why"
else
	echo "perfconf_pmu.ko was not built for $release (runners/vm/module.sh was not run)" >"$run/extra/pc/build/module/why"
fi
(cd "$run/extra" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$run/extra.cpio"
cat "$initramfs" "$run/extra.cpio" >"$run/initrd"
rm -f "$run/extra.cpio"

quiet="quiet"
[ "${VM_VERBOSE:-0}" = 1 ] && quiet=""
case $arch in
x86_64)
	if [ -s "$kdir/vmlinux" ]; then
		qemu=(qemu-system-x86_64 -accel tcg -bios /usr/share/qemu/qboot.rom -kernel "$kdir/vmlinux")
	elif [ -s "$kdir/vmlinuz" ]; then
		qemu=(qemu-system-x86_64 -accel tcg -kernel "$kdir/vmlinuz")
	else
		echo "vm: neither $kdir/vmlinux nor $kdir/vmlinuz (resolve-kernel.sh makes them)" >&2
		exit 2
	fi
	qemu+=(-append "console=ttyS0 panic=-1 cryptomgr.notests=1 $quiet ${VM_APPEND:-}")
	;;
arm64)
	machine=virt
	[ -n "$variant" ] && machine=virt,virtualization=on
	qemu=(qemu-system-aarch64 -M "$machine" -cpu max,pauth-impdef=on -icount "${VM_ICOUNT:-shift=0}"
		-kernel "$kdir/vmlinuz"
		-append "console=ttyAMA0 panic=-1 cryptomgr.notests=1 $quiet ${VM_APPEND:-}")
	;;
riscv64)
	# OpenSBI (qemu's own) runs the kernel, and with sscofpmf its SBI PMU
	# counts and samples qemu's counters.
	qemu=(qemu-system-riscv64 -M virt -cpu rv64,sscofpmf=on -bios default -kernel "$kdir/vmlinuz"
		-append "console=ttyS0 panic=-1 cryptomgr.notests=1 $quiet ${VM_APPEND:-}")
	[ -z "${VM_ICOUNT:-}" ] || qemu+=(-icount "$VM_ICOUNT")
	;;
s390x)
	# The serial device is the SCLP console (ttysclp0).
	qemu=(qemu-system-s390x -M s390-ccw-virtio -cpu max -kernel "$kdir/vmlinuz"
		-append "console=ttysclp0 panic=-1 cryptomgr.notests=1 $quiet ${VM_APPEND:-}")
	;;
ppc64el)
	# pseries with VOF (qemu's small Open Firmware, no SLOF); the serial
	# device is the hypervisor's virtual terminal (hvc0). The cap-* that
	# TCG cannot provide are off, so qemu warns of none.
	qemu=(qemu-system-ppc64 -M "pseries,x-vof=on,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off"
		-cpu "${VM_PPC_CPU:-power9}" -kernel "$kdir/vmlinuz"
		-append "console=hvc0 panic=-1 cryptomgr.notests=1 $quiet ${VM_APPEND:-}")
	[ -z "${VM_ICOUNT:-}" ] || qemu+=(-icount "$VM_ICOUNT")
	;;
esac
command -v "${qemu[0]}" >/dev/null ||
	{ echo "vm: ${qemu[0]} not found (runners/vm/deps.sh $arch installs it)" >&2; exit 2; }
qemu+=(-m "$mem" -smp "$smp" -nodefaults -no-user-config -display none -nic none -no-reboot
	-initrd "$run/initrd" -serial "file:$log" -monitor none)
printf '%q ' "${qemu[@]}" >"$run/qemu.cmd"
echo >>"$run/qemu.cmd"

M="=== perfconf-vm:"
t0=$(date +%s.%N)
: >"$log"
"${qemu[@]}" </dev/null >"$run/qemu.out" 2>&1 &
qpid=$!

# Wait for the done marker, a panic, qemu's exit or the timeout.
state=timeout
t_first=
deadline=$(($(date +%s) + timeout))
while :; do
	if [ -z "$t_first" ] && grep -q "^$M start" "$log" 2>/dev/null; then
		t_first=$(date +%s.%N)
	fi
	if grep -q "^$M done" "$log" 2>/dev/null; then
		state=done
		break
	fi
	if grep -qE '^(\[ *[0-9.]+\] )?Kernel panic - not syncing' "$log" 2>/dev/null; then
		state=panic
		break
	fi
	if ! kill -0 "$qpid" 2>/dev/null; then
		state=exited
		break
	fi
	if [ "$(date +%s)" -ge "$deadline" ]; then
		break
	fi
	sleep 0.2
done
t_end=$(date +%s.%N)
[ "$state" != exited ] || ! grep -q "^$M done" "$log" || state=done
# Let qemu exit by itself after the guest's poweroff, briefly; then stop it.
for _ in 1 2 3 4 5 6 7 8 9 10; do
	kill -0 "$qpid" 2>/dev/null || break
	sleep 0.2
done
if kill -0 "$qpid" 2>/dev/null; then
	[ "$state" = done ] || echo "vm: $target: stopping qemu ($state)" >&2
	kill -TERM "$qpid" 2>/dev/null || true
	sleep 0.5
	kill -KILL "$qpid" 2>/dev/null || true
fi
wait "$qpid" 2>/dev/null || true
qpid=
tr -d '\r' <"$log" >"$log.txt" && mv "$log.txt" "$log"

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
boot_s=-
[ -n "$t_first" ] && boot_s=$(secs "$t0" "$t_first")
wall_s=$(secs "$t0" "$t_end")

# Where the results go: named like the runner's own results directory.
# The id line comes from the guest: its three words name a directory on the
# host, so each must be a plain name (no '/', no spaces, no shell syntax);
# otherwise the id is ignored.
safe_word() { [[ $1 =~ ^[A-Za-z0-9_+~][A-Za-z0-9._+~-]*$ ]]; }
id_release='' id_machine='' id_profile=''
read -r id_release id_machine id_profile _ < <(sed -n "s/^$M id //p" "$log" | head -n 1) || true
profile=-
if safe_word "$id_release" && safe_word "$id_machine" && safe_word "$id_profile"; then
	dirname="$id_release-$id_machine-$id_profile"	# the profile carries the variant (-vhe)
	profile=$id_profile
else
	[ -z "$id_release" ] || echo "vm: $target: ignoring a malformed id line from the guest" >&2
	dirname="$release-$(case $arch in arm64) echo aarch64 ;; *) echo "$arch" ;; esac)-unknown${variant:+-$variant}"
fi
res=$results_root/$dirname
rm -rf "$res" && mkdir -p "$res"
cp "$log" "$res/console.log"
cp "$run/qemu.cmd" "$res/qemu.cmd"

# Unframe the files: lines between begin/end markers that start with "|".
problems=""
unframe() { # NAME DEST
	awk -v b="$M begin $1" -v e="$M end $1 " '
		$0 == b { on = 1; next }
		on && index($0, e) == 1 { on = 0; next }
		on && /^\|/ { print substr($0, 2) }' "$log" >"$2"
	local want got
	want=$(grep -F "$M end $1 " "$log" | head -n 1 | awk '{ print $(NF - 1), $NF }')
	if [ -z "$want" ]; then
		rm -f "$2"
		return 1
	fi
	got="$(wc -l <"$2") $(md5sum <"$2" | cut -d' ' -f1)"
	if [ "$want" != "$got" ]; then
		problems="$problems $1 arrived damaged (lines md5: sent $want, got $got);"
	fi
}

rc=
status=failed
if [ "$state" = done ]; then
	rc=$(sed -n "s/^$M done rc=//p" "$log" | head -n 1)
	unframe ktap.txt "$res/ktap.txt" || problems="$problems no ktap.txt;"
	unframe results.txt "$res/results.txt" || true
	unframe durations.txt "$res/durations.txt" || true
	# The guest's unit tests (init.sh): each must pass.
	if unframe unit.txt "$res/unit.txt"; then
		unit_failed=$(sed -n "s/^$M unit passed=[0-9]* failed=//p" "$log" | head -n 1)
		[ "${unit_failed:-x}" = 0 ] ||
			problems="$problems unit tests failed: $(sed -n 's/^# unit: \(.*\) failed$/\1/p' "$res/unit.txt" | tr '\n' ' ')(unit.txt);"
	fi
	# Baselines only when asked for, and only as plain file names in
	# VM_RECORD_DIR: the names come from the guest.
	if [ "${VM_RECORD:-0}" = 1 ]; then
		while IFS= read -r name; do
			if ! [[ $name =~ ^[A-Za-z0-9_+~][A-Za-z0-9._+~-]*\.txt$ ]]; then
				problems="$problems a baseline with a bad name;"
				continue
			fi
			dest=${VM_RECORD_DIR:-expected}
			mkdir -p "$dest"
			unframe "baseline:$name" "$dest/$name" && echo "vm: $target: recorded $dest/$name" >&2
		done < <(sed -n "s/^$M begin baseline://p" "$log")
	fi
	case $rc in
	0) status=ok ;;
	1) status=failed ;;
	*) status=error ;;
	esac
	[ -z "$problems" ] || status=error
else
	status=$state
fi

# Counts from the runner's closing line and its regression sections.
passed=- failed=- skipped=- regressions=-
if [ -s "$res/ktap.txt" ]; then
	closing=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$res/ktap.txt" | tail -n 1 || true)
	if [ -n "$closing" ]; then
		read -r passed _ failed _ skipped _ <<<"$closing"
	fi
	regressions=$(sed -n 's/^# regressions (\([0-9]*\)):.*/\1/p' "$res/ktap.txt" | tail -n 1)
	: "${regressions:=0}"
fi
pmus=$(sed -n 's/^# perf_event_paranoid=[0-9-]* PMUs: //p' "$log" | head -n 1)
paranoid=$(sed -n 's/^# perf_event_paranoid=\([0-9-]*\) .*/\1/p' "$log" | head -n 1)
{
	echo "target=$target"
	echo "status=$status"
	echo "rc=${rc:-}"
	echo "passed=$passed"
	echo "failed=$failed"
	echo "skipped=$skipped"
	echo "regressions=$regressions"
	echo "release=$release"
	echo "profile=$profile"
	echo "package=$(cat "$kdir/package" 2>/dev/null)"
	echo "boot_s=$boot_s"
	echo "wall_s=$wall_s"
	echo "paranoid=$paranoid"
	echo "pmus=$pmus"
	echo "problems=$problems"
	echo "results=$res"
} >"$res/vm.txt"
cp "$res/vm.txt" "$run/vm.txt"

case $status in
ok) exit 0 ;;
failed)
	if [ "$state" = done ]; then
		# The runner's own verdict sections: regressions, new failures, ...
		{
			echo "vm: $target: the guest's runner exited $rc ($res/ktap.txt):"
			awk '/^# (regressions|new failures|known failures|gone)/ { on = 1 }
			     /^# (improvements|other changes|fixed|new cases)/ { on = 0 }
			     on && /^# / { print "  " $0 }' "$res/ktap.txt" 2>/dev/null | head -n 60
		} >&2
		exit 1
	fi
	;;
esac
{
	case $status in
	timeout) echo "vm: $target: no done marker after ${timeout} s (timeout); console tail:" ;;
	panic) echo "vm: $target: the kernel panicked; console tail:" ;;
	exited) echo "vm: $target: qemu exited without the done marker; console tail:" ;;
	*) echo "vm: $target: status $status (rc=${rc:-none})${problems:+:$problems}; console tail:" ;;
	esac
	tail -n 25 "$log" | sed 's/^/  | /'
	[ -s "$run/qemu.out" ] && sed 's/^/  qemu: /' "$run/qemu.out"
} >&2
[ "$status" = failed ] && exit 1
exit 2
