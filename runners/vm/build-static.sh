#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the suite and the runner statically for a guest arch, out of tree in
# build/vm/<arch>/build:
#   x86_64  natively;
#   arm64   with Debian's cross compiler (gcc-aarch64-linux-gnu,
#           libc6-dev-arm64-cross) and a sysroot of arm64 libcap-dev and
#           zlib1g-dev unpacked with dpkg -x from .debs fetched through the
#           private apt configuration, at the host's own versions;
#   i386    the same with gcc-i686-linux-gnu and libc6-dev-i386-cross: the
#           32-bit suite that x86_64 kernels run through their compat ABI;
#   armhf   with gcc-arm-linux-gnueabihf and libc6-dev-armhf-cross, in ARM
#           state: the 32-bit suite of arm64 kernels (AArch32 at EL0).
#
#   runners/vm/build-static.sh x86_64|arm64|i386|armhf
#
# The test binaries are required; the runner (build/perfconf) is built when
# its sources compile. Prints the build directory.
#
# CFLAGS and LDFLAGS go through the environment, not the make command line:
# the Makefile appends its own flags with +=, which a command-line
# assignment would discard.
set -euo pipefail

arch=${1:?usage: build-static.sh x86_64|arm64|i386|armhf}
here=$(cd "$(dirname "$0")" && pwd)
vm=${VM_DIR:-build/vm}
cache=${VM_CACHE:-$vm/cache}
jobs=${VM_MAKE_JOBS:-$(nproc)}
b=$vm/$arch/build
mkdir -p "$b"

# Reuse the harness headers and kunit that scripts/deps.sh already extracted
# into build/, so each arch's build does not read the kernel tarball again.
for d in include kunit; do
	if [ -d "build/$d" ] && [ ! -e "$b/$d" ]; then cp -a "build/$d" "$b/$d"; fi
done

# The make goals: the suite binaries and the runner, not the unit tests.
goals=()
for src in tests/*/*.c; do
	[ -e "$src" ] && goals+=("$b/${src%.c}")
done
[ ${#goals[@]} -gt 0 ] || { echo "vm: no tests/*/*.c to build" >&2; exit 2; }

# A sysroot of libcap-dev and zlib1g-dev for a Debian arch, unpacked with
# dpkg -x from .debs the private apt configuration fetches at the host's
# versions (glibc comes with the cross compiler's libc6-dev-*-cross).
# Prints its directory.
sysroot() {
	local darch=$1 dir=$vm/$arch/sysroot want="" p v pv debs=$cache/userland/$1
	for p in libcap-dev zlib1g-dev; do
		want="$want $p=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || echo missing)"
	done
	if [ "$(cat "$dir/.versions" 2>/dev/null)" != "$want" ]; then
		mkdir -p "$debs"
		case $darch in i386 | armhf) "$here/apt.sh" add-arch "$darch" || return 2 ;; esac
		"$here/apt.sh" update || return 2
		for pv in $want; do
			p=${pv%%=*} v=${pv#*=}
			[ "$v" != missing ] || { echo "vm: $p is not installed on the host (runners/vm/deps.sh)" >&2; return 2; }
			ls "$debs/${p}_${v//:/%3a}_$darch.deb" >/dev/null 2>&1 ||
				"$here/apt.sh" download "$debs" "$p:$darch=$v" >/dev/null ||
				{ echo "vm: cannot download $p:$darch $v" >&2; return 2; }
		done
		rm -rf "$dir" && mkdir -p "$dir"
		for pv in $want; do
			p=${pv%%=*} v=${pv#*=}
			dpkg -x "$debs/${p}_${v//:/%3a}_$darch.deb" "$dir"
		done
		echo "$want" >"$dir/.versions"
	fi
	(cd "$dir" && pwd)
}

# A cross build: Debian's cross compiler for TRIPLET, the sysroot of DARCH.
cross() {
	local darch=$1 triplet=$2 root
	root=$(sysroot "$darch") || exit 2
	command -v "$triplet-gcc" >/dev/null || { echo "vm: $triplet-gcc missing (runners/vm/deps.sh)" >&2; exit 2; }
	mk=(make --no-print-directory -j"$jobs" B="$b" STATIC=1 CC="$triplet-gcc" AR="$triplet-ar")
	export CFLAGS="${VM_CFLAGS:--O2} -I$root/usr/include"
	# The multiarch directory: i386-linux-gnu for the i686-linux-gnu compiler.
	export LDFLAGS="-L$root/usr/lib/$(dpkg-architecture -a"$darch" -qDEB_HOST_MULTIARCH 2>/dev/null)"
}

case $arch in
x86_64)
	mk=(make --no-print-directory -j"$jobs" B="$b" STATIC=1)
	export CFLAGS="${VM_CFLAGS:--O2}"
	export LDFLAGS=""
	;;
arm64) cross arm64 aarch64-linux-gnu ;;
i386)
	# Only the compat variants need them: installed here, not by deps.sh.
	"$here/../../scripts/apt-install.sh" -p vm gcc-i686-linux-gnu libc6-dev-i386-cross || exit 2
	cross i386 i686-linux-gnu
	;;
armhf)
	"$here/../../scripts/apt-install.sh" -p vm gcc-arm-linux-gnueabihf libc6-dev-armhf-cross || exit 2
	cross armhf arm-linux-gnueabihf
	# ARM state, not Thumb (Debian's default): a function's address is its
	# first instruction, where an execute breakpoint or a uprobe goes.
	CFLAGS="$CFLAGS -marm"
	;;
*)
	echo "vm: unknown arch $arch (x86_64, arm64, i386 or armhf)" >&2
	exit 2
	;;
esac

log=$vm/$arch/build.log
if ! "${mk[@]}" "${goals[@]}" >"$log" 2>&1; then
	echo "vm: building the suite for $arch failed (log: $log):" >&2
	grep -E 'error|Error' "$log" | head -n 20 >&2
	exit 1
fi
rm -f "$b/.runner-failed"
if ls runners/*.c >/dev/null 2>&1; then
	if ! "${mk[@]}" "$b/perfconf" >>"$log" 2>&1; then
		echo "vm: the runner does not build for $arch yet; the guest will run the binaries directly (log: $log)" >&2
		rm -f "$b/perfconf"
		touch "$b/.runner-failed"
	fi
fi
echo "$b"
