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
#           state: the 32-bit suite of arm64 kernels (AArch32 at EL0);
#   riscv64, s390x  with gcc-<arch>-linux-gnu and libc6-dev-<arch>-cross;
#           riscv64's libcap and zlib are trixie's (bookworm has no
#           riscv64), so isoc23.c supplies what they need of glibc 2.38.
#   ppc64el with gcc-powerpc64le-linux-gnu and libc6-dev-ppc64el-cross.
#
#   runners/vm/build-static.sh x86_64|arm64|i386|armhf|riscv64|s390x|ppc64el
#
# The test binaries (and three unit tests) are required; the runner (build/perfconf) is built when
# its sources compile. Prints the build directory.
#
# CFLAGS and LDFLAGS go through the environment, not the make command line:
# the Makefile appends its own flags with +=, which a command-line
# assignment would discard.
set -eEuo pipefail
# Every exit says why: a command that fails where nothing handles it is named.
trap 'echo "vm: ${0##*/}: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

arch=${1:?usage: build-static.sh x86_64|arm64|i386|armhf|riscv64|s390x|ppc64el}
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
# The lib's unit tests whose subject is byte layout, run by each guest
# before the suite (init.sh): the ABI tables, the record parser and the
# ring reader, on every arch's byte order and word size.
for src in lib/tests/abi_tables.c lib/tests/record_parser.c lib/tests/ring_reader.c; do
	goals+=("$b/${src%.c}")
done

# A sysroot of libcap-dev and zlib1g-dev for a Debian arch, unpacked with
# dpkg -x from .debs the private apt configuration fetches at the host's
# versions, or the oldest release's where the archive has none for that arch
# (apt.sh userland; glibc comes with the cross compiler's libc6-dev-*-cross).
# Prints its directory.
sysroot() {
	local darch=$1 dir=$vm/$arch/sysroot want="" p v debs=$cache/userland/$1 list=""
	for p in libcap-dev zlib1g-dev; do
		v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null) ||
			{ echo "vm: $p is not installed on the host (runners/vm/deps.sh)" >&2; return 2; }
		want="$want $p=$v"
	done
	if [ "$(cat "$dir/.versions" 2>/dev/null)" != "$want" ]; then
		case $darch in amd64 | arm64) ;; *) "$here/apt.sh" add-arch "$darch" || return 2 ;; esac
		"$here/apt.sh" update || return 2
		for p in $want; do
			list="$list $("$here/apt.sh" userland "$debs" "${p%%=*}" "$darch" "${p#*=}")" || return 2
		done
		rm -rf "$dir" && mkdir -p "$dir"
		for p in $list; do dpkg -x "$p" "$dir"; done
		echo "$want" >"$dir/.versions"
	fi
	(cd "$dir" && pwd)
}

# A cross build: Debian's cross compiler for TRIPLET, the sysroot of DARCH.
cross() {
	local darch=$1 triplet=$2 root libdir
	root=$(sysroot "$darch") || exit 2
	command -v "$triplet-gcc" >/dev/null || { echo "vm: $triplet-gcc missing (runners/vm/deps.sh)" >&2; exit 2; }
	mk=(make --no-print-directory -j"$jobs" B="$b" STATIC=1 CC="$triplet-gcc" AR="$triplet-ar")
	export CFLAGS="${VM_CFLAGS:--O2} -I$root/usr/include"
	# The multiarch directory: i386-linux-gnu for the i686-linux-gnu compiler.
	libdir=$root/usr/lib/$(dpkg-architecture -a"$darch" -qDEB_HOST_MULTIARCH 2>/dev/null)
	export LDFLAGS="-L$libdir"
	# A libcap from a newer release than the cross glibc (riscv64) calls
	# C23's strto* entry points, which that glibc lacks: supply them.
	# (grep -c, not -q: pipefail would see nm killed by SIGPIPE)
	if [ "$("$triplet-nm" "$libdir/libcap.a" 2>/dev/null | grep -c ' U __isoc23_')" != 0 ] &&
		[ "$("$triplet-nm" "$("$triplet-gcc" -print-file-name=libc.a)" 2>/dev/null | grep -c ' T __isoc23_strtoul$')" = 0 ]; then
		"$triplet-gcc" ${VM_CFLAGS:--O2} -c "$here/isoc23.c" -o "$vm/$arch/isoc23.o" || exit 2
		LDFLAGS="$LDFLAGS $(cd "$vm/$arch" && pwd)/isoc23.o"
	fi
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
riscv64 | s390x)	# opt-in guests: their compilers on first use
	"$here/../../scripts/apt-install.sh" -p vm "gcc-$arch-linux-gnu" "libc6-dev-$arch-cross" || exit 2
	cross "$arch" "$arch-linux-gnu"
	;;
ppc64el)	# Debian's name; the compiler's is powerpc64le
	"$here/../../scripts/apt-install.sh" -p vm gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross || exit 2
	cross ppc64el powerpc64le-linux-gnu
	;;
*)
	echo "vm: unknown arch $arch (x86_64, arm64, i386, armhf, riscv64, s390x or ppc64el)" >&2
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
