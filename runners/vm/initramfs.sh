#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Pack the guest's root filesystem for an arch: busybox-static, the static
# runner and test binaries (stripped), the baselines and runners/vm/init.sh
# as /init, laid out like the repository so the runner finds its defaults:
#   /pc/build/perfconf  /pc/build/tests/<area>/<binary>  /pc/build/unit/<unit test>
#   /pc/expected/*.txt  /pc/runners/timeouts.conf
# VM_EXPECTED (default expected/) is where the baselines come from.
# The archive is an uncompressed newc cpio (decompressing under TCG costs
# more than loading a larger file); boot.sh appends a small per-target one.
#
# BUILD_DIR "-" packs no suite: a lab's root filesystem (runners/lava), whose
# /init gives a root shell on the console (MODE=shell in /pc/target) and
# whose empty /opt/perfconf is where the lab puts the dist tarball.
#
#   runners/vm/initramfs.sh x86_64|arm64|i386|armhf|riscv64|s390x|ppc64el BUILD_DIR|-
# Prints the archive's path: build/vm/<arch>/initramfs.cpio (shell.cpio for -)
set -eEuo pipefail
# Every exit says why: a command that fails where nothing handles it is named.
trap 'echo "vm: ${0##*/}: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

arch=${1:?usage: initramfs.sh x86_64|arm64|i386|armhf|riscv64|s390x|ppc64el BUILD_DIR|-}
b=${2:?usage: initramfs.sh x86_64|arm64|i386|armhf|riscv64|s390x|ppc64el BUILD_DIR|-}
here=$(cd "$(dirname "$0")" && pwd)
vm=${VM_DIR:-build/vm}
cache=${VM_CACHE:-$vm/cache}
root=$vm/$arch/rootfs
out=$vm/$arch/initramfs.cpio
[ "$b" = - ] && root=$vm/$arch/shellfs out=$vm/$arch/shell.cpio

case $arch in
x86_64 | i386)	# i386: the 32-bit suite for an x86_64 kernel, with its busybox
	strip=strip
	busybox=/bin/busybox
	;;
arm64 | armhf | riscv64 | s390x | ppc64el)	# armhf: the 32-bit suite for an arm64 kernel, with its busybox
	bbarch=$arch strip=$arch-linux-gnu-strip
	case $arch in
	arm64) strip=aarch64-linux-gnu-strip ;;
	armhf) bbarch=arm64 strip=arm-linux-gnueabihf-strip ;;
	ppc64el) strip=powerpc64le-linux-gnu-strip ;;
	esac
	# busybox-static for the guest, at the host's version (or the oldest
	# release's that has the arch: apt.sh userland), unpacked once.
	v=$(dpkg-query -W -f='${Version}' busybox-static 2>/dev/null) ||
		{ echo "vm: busybox-static is not installed on the host (runners/vm/deps.sh)" >&2; exit 2; }
	bbdir=$vm/$bbarch/busybox
	if [ "$(cat "$bbdir/.version" 2>/dev/null)" != "$v" ]; then
		deb=$("$here/apt.sh" userland "$cache/userland/$bbarch" busybox-static "$bbarch" "$v") || exit 2
		rm -rf "$bbdir" && mkdir -p "$bbdir"
		dpkg -x "$deb" "$bbdir"
		echo "$v" >"$bbdir/.version"
	fi
	busybox=$bbdir/bin/busybox
	[ -e "$busybox" ] || busybox=$bbdir/usr/bin/busybox	# trixie's merged /usr
	;;
*)
	echo "vm: unknown arch $arch (x86_64, arm64, i386, armhf, riscv64, s390x or ppc64el)" >&2
	exit 2
	;;
esac
[ -x "$busybox" ] || { echo "vm: no busybox at $busybox" >&2; exit 2; }

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,boot,pc/build,pc/expected,pc/runners}
cp "$busybox" "$root/bin/busybox"
install -m 0755 "$here/init.sh" "$root/init"
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

if [ "$b" = - ]; then
	echo MODE=shell >"$root/pc/target"
	mkdir -p "$root/opt/perfconf"
else
	n=0
	while IFS= read -r f; do
		rel=${f#"$b"/}
		mkdir -p "$root/pc/build/${rel%/*}"
		"$strip" -o "$root/pc/build/$rel" "$f"
		n=$((n + 1))
	done < <(find "$b/tests" -type f -perm -u+x | sort)
	[ "$n" -gt 0 ] || { echo "vm: no test binaries under $b/tests" >&2; exit 2; }
	# The unit tests that the guest runs first (build-static.sh builds them).
	for f in "$b"/lib/tests/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		mkdir -p "$root/pc/build/unit"
		"$strip" -o "$root/pc/build/unit/${f##*/}" "$f"
	done
	if [ -x "$b/perfconf" ] && [ ! -e "$b/.runner-failed" ]; then
		"$strip" -o "$root/pc/build/perfconf" "$b/perfconf"
	fi
	cp "${VM_EXPECTED:-expected}"/*.txt "$root/pc/expected/" 2>/dev/null || true
	[ -f runners/timeouts.conf ] && cp runners/timeouts.conf "$root/pc/runners/"
fi

# A reproducible archive: sorted names, root-owned, fixed times.
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet) >"$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$root"
echo "$out"
