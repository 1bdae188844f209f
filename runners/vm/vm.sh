#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite on a kernel you built, under qemu (TCG), with the matrix's
# initramfs, /init and console protocol (build-static.sh, initramfs.sh,
# boot.sh). The guest's runner compares with the baseline of the kernel it
# booted: exact, or the nearest of the same arch and profile in expected/.
#
#   perfconf vm --kernel PATH [--arch x86_64|arm64] [--config FILE]
#               [--baseline FILE] [-- RUNNER-OPTIONS]
#   runners/vm/vm.sh ...  (the same)
#
#   --kernel PATH    bzImage, vmlinux (x86_64 or arm64 ELF), arm64 Image or
#                    Image.gz
#   --arch A         x86_64 or arm64; default: from the image's magic
#   --config FILE    the kernel's .config, put at /boot/config-<release> in
#                    the guest (tests/config checks read it); default: the
#                    .config of the build tree the image lies in, if any
#   --baseline FILE  compare with FILE (a baseline or a results.txt, e.g.
#                    a good kernel's) instead of expected/: it is packed
#                    into the guest
#   -- OPTIONS       more options for the guest's runner (-t errors, -x ...)
#
# x86_64: an ELF vmlinux with the PVH note (CONFIG_PVH) boots with qboot; a
# bzImage is unpacked to its vmlinux when that has the PVH note (faster),
# otherwise it boots as is with qemu's default BIOS. VM_X86_BOOT=bios boots
# a bzImage through the BIOS anyway.
#
# Results: build/results/<release>-<arch>-<profile>/ (VM_RESULTS), as the
# matrix writes them; the summary line is printed at the end.
# Exit: 0 no regression; 1 a regression or new failure; 2 usage or setup
# error (here or in the guest's runner); 3 the kernel did not run the suite
# to the end (no boot, panic, timeout, damaged console transfer).
#
# VM_INITRAMFS=FILE: the packed suite to boot. When FILE exists it is used
# as is (no build: the suite stays the same across the steps of a
# bisection, whatever happens to the source tree meanwhile); otherwise the
# suite is built and packed, and kept there.
#
# Environment: VM_TIMEOUT (300 s), VM_MEM, VM_SMP, VM_APPEND, VM_VERBOSE,
# VM_GUEST_TIMEOUT, VM_ICOUNT (boot.sh); VM_DIR (build/vm: the static
# builds, shared with the matrix and written under its lock); VM_RESULTS.
set -euo pipefail

usage() {
	echo "usage: perfconf vm --kernel PATH [--arch x86_64|arm64] [--config FILE] [--baseline FILE] [-- RUNNER-OPTIONS]" >&2
	exit 2
}
die() {
	echo "vm: $*" >&2
	exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
kernel='' arch='' config='' baseline=''
guest_args=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage; kernel=$2; shift 2 ;;
	--kernel=*) kernel=${1#*=}; shift ;;
	--arch) [ $# -ge 2 ] || usage; arch=$2; shift 2 ;;
	--arch=*) arch=${1#*=}; shift ;;
	--config) [ $# -ge 2 ] || usage; config=$2; shift 2 ;;
	--config=*) config=${1#*=}; shift ;;
	--baseline) [ $# -ge 2 ] || usage; baseline=$2; shift 2 ;;
	--baseline=*) baseline=${1#*=}; shift ;;
	-h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 0 ;;
	--) shift; guest_args=("$@"); break ;;
	*) echo "vm: unknown argument \"$1\"" >&2; usage ;;
	esac
done
[ -n "$kernel" ] || usage
[ -f "$kernel" ] && [ -r "$kernel" ] || die "--kernel $kernel: not a readable file"
[ -z "$config" ] || [ -r "$config" ] || die "--config $config: not readable"
[ -z "$baseline" ] || [ -r "$baseline" ] || die "--baseline $baseline: not readable"
# The guest's /init splits the runner options on spaces, in a quoted
# assignment: each must be one plain word.
for a in "${guest_args[@]}"; do
	[[ $a =~ ^[A-Za-z0-9_./*?=:,+@%^-]+$ ]] ||
		die "runner option \"$a\": only letters, digits and _./*?=:,+@%^- can reach the guest"
done
kernel=$(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel")
[ -z "$config" ] || config=$(cd "$(dirname "$config")" && pwd)/$(basename "$config")
[ -z "$baseline" ] || baseline=$(cd "$(dirname "$baseline")" && pwd)/$(basename "$baseline")

cd "$here/../.."
export VM_DIR=${VM_DIR:-build/vm}
vm=$VM_DIR

# --- what the image is: "<format> <arch>" from its magic numbers ---
hex() { # FILE OFFSET COUNT
	od -An -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'
}
identify() { # FILE
	local f=$1
	case $(hex "$f" 0 4) in
	7f454c46)
		# e_machine, little-endian, at 18: 0x3e x86-64, 0xb7 AArch64.
		case $(hex "$f" 18 2) in
		3e00) echo "elf x86_64" ;;
		b700) echo "elf arm64" ;;
		*) echo "elf unknown" ;;
		esac
		return
		;;
	1f8b*) echo "gzip unknown"; return ;;
	esac
	# x86 boot protocol: "HdrS" at 0x202.
	[ "$(hex "$f" 514 4)" = 48647253 ] && { echo "bzimage x86_64"; return; }
	# arm64 Image header: "ARM\x64" at 56.
	[ "$(hex "$f" 56 4)" = 41524d64 ] && { echo "image arm64"; return; }
	echo "unknown unknown"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/perfconf-vm.XXXXXX")
modpid=''
cleanup() {
	[ -z "$modpid" ] || kill "$modpid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
kd=$tmp/kernel
mkdir -p "$kd"

img=$kernel
read -r format img_arch < <(identify "$img")
if [ "$format" = gzip ]; then
	gzip -dc "$img" >"$tmp/unpacked" 2>/dev/null || die "$kernel: gzip data that does not unpack"
	img=$tmp/unpacked
	read -r format img_arch < <(identify "$img")
	[ "$format" = image ] || die "$kernel: a gzip file that holds no arm64 Image"
fi
[ "$format" != unknown ] || die "$kernel: not a bzImage, vmlinux or arm64 Image (no known magic)"
[ "$img_arch" != unknown ] || die "$kernel: an ELF file of neither x86-64 nor AArch64"
case ${arch:-$img_arch} in
x86_64 | amd64) arch=x86_64 ;;
arm64 | aarch64) arch=arm64 ;;
*) die "--arch $arch: x86_64 or arm64" ;;
esac
[ "$arch" = "$img_arch" ] || die "$kernel is built for $img_arch, not $arch"

# The release, from the image: the x86 setup header points at the version
# string; elsewhere the banner "Linux version <release> " is in clear.
release=''
if [ "$format" = bzimage ]; then
	off=$((0x$(hex "$img" 527 1)$(hex "$img" 526 1) + 0x200))
	release=$(dd if="$img" bs=1 skip="$off" count=128 status=none | tr '\0' '\n' | head -n 1 | cut -d' ' -f1)
else
	release=$(LC_ALL=C grep -a -o -m 1 'Linux version [^ ]*' "$img" | head -n 1 | cut -d' ' -f3) || true
fi
[[ $release =~ ^[A-Za-z0-9_+~][A-Za-z0-9._+~-]*$ ]] || release=unknown

# The kernel file boot.sh boots.
has_pvh() { # ELF: XEN_ELFNOTE_PHYS32_ENTRY (type 18) in a "Xen" note
	readelf -n "$1" 2>/dev/null | grep -E '^ *Xen ' | grep -qE '\(0x00000012\)|PHYS32_ENTRY'
}
how=''
case $arch-$format in
x86_64-elf)
	has_pvh "$img" || die "$kernel: vmlinux without the PVH entry (CONFIG_PVH): give the bzImage"
	ln -s "$img" "$kd/vmlinux"
	how="vmlinux, PVH with qboot"
	;;
x86_64-bzimage)
	if [ "${VM_X86_BOOT:-}" != bios ] && "$here/extract-vmlinux.sh" "$img" "$kd/vmlinux" 2>/dev/null && has_pvh "$kd/vmlinux"; then
		how="bzImage unpacked to vmlinux, PVH with qboot"
	else
		rm -f "$kd/vmlinux"
		ln -s "$img" "$kd/vmlinuz"
		how="bzImage with the BIOS (SeaBIOS)"
	fi
	;;
arm64-image)
	ln -s "$img" "$kd/vmlinuz"
	how="Image"
	;;
arm64-elf)
	command -v aarch64-linux-gnu-objcopy >/dev/null || die "aarch64-linux-gnu-objcopy missing (runners/vm/deps.sh installs it)"
	aarch64-linux-gnu-objcopy -O binary -R .note -R .note.gnu.build-id -R .comment -S "$img" "$kd/vmlinuz" ||
		die "$kernel: cannot make an Image of this vmlinux"
	how="vmlinux made an Image (objcopy)"
	;;
*) die "$kernel: a $format cannot boot as $arch" ;;
esac

# The build tree holding the image (a directory up to 5 levels above it
# with .config and Makefile): its .config is the default --config, and
# perfconf_pmu.ko is built against it (module.sh).
tree=''
d=$(dirname "$kernel")
for _ in 1 2 3 4 5; do
	if [ -f "$d/.config" ] && [ -f "$d/Makefile" ]; then
		tree=$d
		break
	fi
	[ "$d" = / ] && break
	d=$(dirname "$d")
done
[ -n "$config" ] || [ -z "$tree" ] || config=$tree/.config
[ -z "$config" ] || cp "$config" "$kd/config"
echo "$release" >"$kd/release"
echo "custom $kernel" >"$kd/package"
echo "$arch" >"$kd/arch"
echo "$arch custom" >"$kd/line"
[ -z "$tree" ] || echo "$tree" >"$kd/tree"

echo "vm: $kernel: $arch $release, $how${config:+, config $config}" >&2

# --- the suite, built and packed like the matrix's, under its lock ---
"$here/deps.sh" || exit 2
# perfconf_pmu.ko against the image's build tree, beside the suite's build
# (kd/module/perfconf_pmu.ko, or kd/module/why: boot.sh packs either).
"$here/module.sh" "$kd" </dev/null 2>"$tmp/module.err" &
modpid=$!
initrd=$tmp/initramfs.cpio
if [ -n "${VM_INITRAMFS:-}" ] && [ -s "$VM_INITRAMFS" ]; then
	initrd=$VM_INITRAMFS
	echo "vm: the suite packed in $initrd" >&2
else
	mkdir -p "$vm"
	t0=$(date +%s.%N)
	(
		exec 8>"$vm/matrix.lock"
		flock -w 900 8 || die "$vm is locked by a matrix run for more than 900 s"
		b=$("$here/build-static.sh" "$arch") || exit 2
		i=$("$here/initramfs.sh" "$arch" "$b") || exit 2
		cp "$i" "$initrd"
	) || exit 2
	echo "vm: suite built and packed ($(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s)" >&2
	if [ -n "${VM_INITRAMFS:-}" ]; then
		cp "$initrd" "$VM_INITRAMFS.tmp" && mv "$VM_INITRAMFS.tmp" "$VM_INITRAMFS" || die "cannot write $VM_INITRAMFS"
	fi
fi

wait "$modpid" || true
modpid=''
sed 's/^vm: module: [^:]*: /vm: module: /' "$tmp/module.err" >&2

# --- boot ---
target=$arch-custom
mkdir -p "$tmp/run"
# boot.sh's own exit code is coarser than vm.txt's status: read that.
VM_RUN=$tmp/run VM_ARGS="${guest_args[*]}" VM_BASELINE=$baseline \
	"$here/boot.sh" "$target" "$kd" "$initrd" || true

# The summary, from boot.sh's vm.txt (written by this host, not the guest).
f=$tmp/run/$target/vm.txt
get() { sed -n "s/^$1=//p" "$f" 2>/dev/null | tail -n 1; }
status=$(get status)
printf '%-16s %-24s %-16s %6s %6s %6s %5s %6s %6s  %s\n' target kernel profile passed failed skipped regr boot_s wall_s status
printf '%-16s %-24s %-16s %6s %6s %6s %5s %6s %6s  %s\n' "$target" "$release" "$(get profile)" "$(get passed)" \
	"$(get failed)" "$(get skipped)" "$(get regressions)" "$(get boot_s)" "$(get wall_s)" "${status:-error}"
[ -z "$(get results)" ] || echo "vm: results in $(get results)"

case $status in
ok) exit 0 ;;
failed) [ "$(get rc)" = 1 ] && exit 1 ;;
error) [ "$(get rc)" = 2 ] && [ -z "$(get problems)" ] && exit 2 ;;
esac
exit 3
