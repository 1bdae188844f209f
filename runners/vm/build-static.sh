#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the suite and the runner statically for a guest arch, out of tree in
# build/vm/<arch>/build:
#   x86_64  natively;
#   arm64   with Debian's cross compiler (gcc-aarch64-linux-gnu,
#           libc6-dev-arm64-cross) and a sysroot of arm64 libcap-dev and
#           zlib1g-dev unpacked with dpkg -x from .debs fetched through the
#           private apt configuration, at the host's own versions.
#
#   runners/vm/build-static.sh x86_64|arm64
#
# The test binaries are required; the runner (build/perfconf) is built when
# its sources compile. Prints the build directory.
#
# CFLAGS and LDFLAGS go through the environment, not the make command line:
# the Makefile appends its own flags with +=, which a command-line
# assignment would discard.
set -euo pipefail

arch=${1:?usage: build-static.sh x86_64|arm64}
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

case $arch in
x86_64)
	mk=(make --no-print-directory -j"$jobs" B="$b" STATIC=1)
	export CFLAGS="${VM_CFLAGS:--O2}"
	export LDFLAGS=""
	;;
arm64)
	sysroot=$vm/arm64/sysroot
	stamp=$sysroot/.versions
	want=""
	for p in libcap-dev zlib1g-dev; do
		want="$want $p=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || echo missing)"
	done
	if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		debs=$cache/userland/arm64
		mkdir -p "$debs"
		for pv in $want; do
			p=${pv%%=*} v=${pv#*=}
			[ "$v" != missing ] || { echo "vm: $p is not installed on the host (runners/vm/deps.sh)" >&2; exit 2; }
			ls "$debs/${p}_${v//:/%3a}_arm64.deb" >/dev/null 2>&1 ||
				"$here/apt.sh" download "$debs" "$p:arm64=$v" >/dev/null ||
				{ echo "vm: cannot download $p:arm64 $v" >&2; exit 2; }
		done
		rm -rf "$sysroot" && mkdir -p "$sysroot"
		for pv in $want; do
			p=${pv%%=*} v=${pv#*=}
			dpkg -x "$debs/${p}_${v//:/%3a}_arm64.deb" "$sysroot"
		done
		echo "$want" >"$stamp"
	fi
	sysroot=$(cd "$sysroot" && pwd)
	command -v aarch64-linux-gnu-gcc >/dev/null || { echo "vm: aarch64-linux-gnu-gcc missing (runners/vm/deps.sh)" >&2; exit 2; }
	mk=(make --no-print-directory -j"$jobs" B="$b" STATIC=1
		CC=aarch64-linux-gnu-gcc AR=aarch64-linux-gnu-ar)
	export CFLAGS="${VM_CFLAGS:--O2} -I$sysroot/usr/include"
	export LDFLAGS="-L$sysroot/usr/lib/aarch64-linux-gnu"
	;;
*)
	echo "vm: unknown arch $arch (x86_64 or arm64)" >&2
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
