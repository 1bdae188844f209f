#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build perfconf_pmu.ko (module/) for one guest kernel, against that
# kernel's own Debian headers, with its own suite's compiler.
#
#   runners/vm/module.sh KERNEL_DIR
#
# KERNEL_DIR is resolve-kernel.sh's (package, release, line, config) or
# vm.sh's (a kernel the user built: its `tree`, when the image lies in a
# kernel build tree). The result is KERNEL_DIR/module/perfconf_pmu.ko, or
# KERNEL_DIR/module/why (one line) and exit 1 with that line on stderr;
# the build's output is in KERNEL_DIR/module/build.log.
#
# Debian kernels: linux-headers-<abi>-<flavour> at the image's version, the
# -common package its Depends name and the amd64 linux-kbuild-* (the host
# tools), fetched through the private apt configuration (apt.sh download)
# and unpacked with dpkg-deb (never installed) into
# VM_CACHE/headers/linux_<version>/ (one tree per source version: its
# flavours share the -common and kbuild parts, as in /usr/src). The
# flavour's Makefile includes the -common tree by an absolute /usr/src path:
# it is rewritten to a path relative to itself, so the tree works where it
# lies and inside a chroot.
#
# The compiler is the one the headers name (.kernelvariables: gcc-N, with
# CROSS_COMPILE for arm64, riscv64, s390x, ppc64el), from the kernel's own
# Debian suite: on the host when that suite is the host's (bookworm's
# gcc-12), otherwise in a chroot of that suite (VM_CHROOT/<suite>,
# debootstrap --variant=minbase, made once; bullseye's gcc-10, trixie's
# gcc-14, sid's gcc-16): a newer suite's kbuild programs need a newer glibc
# than the host's, and its headers use compiler features an older gcc
# lacks. The chroot's mounts live in a private mount namespace (unshare):
# they end with the build, however it ends.
#
# Cached: the .ko is rebuilt only when the module's source, this script or
# the headers change (KERNEL_DIR/module/key). A compile failure is cached
# the same way (its why is kept); a download or setup failure is not.
#
# Environment: VM_DIR (build/vm), VM_CACHE (VM_DIR/cache), VM_CHROOT
# (VM_DIR/chroot), VM_MIRROR (the chroots' mirror, http://deb.debian.org),
# PERFCONF_MODULE_SRC (the module's source directory, module/).
set -eEuo pipefail
# Every exit says why: a command that fails where nothing handles it is named.
trap 'echo "vm: ${0##*/}: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

kdir=${1:?usage: module.sh KERNEL_DIR}
here=$(cd "$(dirname "$0")" && pwd)
vm=${VM_DIR:-build/vm}
cache=${VM_CACHE:-$vm/cache}
chroots=${VM_CHROOT:-$vm/chroot}
mirror=${VM_MIRROR:-http://deb.debian.org}
src=${PERFCONF_MODULE_SRC:-$here/../../module}
[ -d "$kdir" ] || { echo "vm: module.sh: no kernel directory $kdir" >&2; exit 2; }
kdir=$(cd "$kdir" && pwd)
out=$kdir/module
mkdir -p "$out"
t0=$(date +%s.%N)
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# One build per kernel at a time (the matrix and vm.sh may share one).
exec 7>"$out/.lock"
flock 7

name=$(cat "$kdir/line" 2>/dev/null || cat "$kdir/release" 2>/dev/null || echo "$kdir")
name=${name// /-}
scratch=''
cleanup() { [ -z "$scratch" ] || rm -rf "$scratch"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# WHY [cache]: no module for this kernel. "cache" keeps the reason for the
# same key (a compile error comes back the same until something changes).
give_up() {
	rm -f "$out/perfconf_pmu.ko" "$out/key"
	printf '%s\n' "$1" | head -n 1 | tr -d '\r' >"$out/why"
	[ "${2:-}" != cache ] || printf '%s\n' "$key" >"$out/key"
	echo "vm: module: $name: $(cat "$out/why")" >&2
	exit 1
}

key=''
if [ ! -f "$src/Kbuild" ] || ! compgen -G "$src/*.c" >/dev/null; then
	give_up "no module source: $src has no Kbuild and .c files"
fi
src=$(cd "$src" && pwd)
# The cache key: the module's source, this script, the headers (below).
src_hash=$({
	(cd "$src" && find . -type f ! -name '*.o' ! -name '*.ko' ! -name '.*' | LC_ALL=C sort | xargs sha256sum)
	sha256sum <"$0"
} | sha256sum | cut -c1-16)

# SUITE PKG...: make the chroot of SUITE (once) and install PKG... in it.
chroot_ready() {
	local suite=$1 c log missing p
	shift
	c=$chroots/$suite
	mkdir -p "$chroots"
	log=$chroots/$suite.log
	(
		exec 6>"$chroots/$suite.lock"
		flock 6
		if [ ! -e "$c/.perfconf-ready" ]; then
			command -v debootstrap >/dev/null || { echo "debootstrap is not installed (runners/vm/deps.sh installs it)"; exit 1; }
			echo "vm: module: making the $suite chroot ($c)" >&2
			rm -rf "$c.tmp"
			# debootstrap mounts /proc and /sys in the target: in a
			# mount namespace of its own, they cannot outlive it.
			if ! unshare --mount --propagation private \
				debootstrap --variant=minbase --include=make,ca-certificates "$suite" "$c.tmp" "$mirror/debian" >"$log" 2>&1; then
				echo "debootstrap $suite failed: $(grep -E '^(E|W):' "$log" | tail -n 1) (log: $log)"
				exit 1
			fi
			{
				echo "deb $mirror/debian $suite main"
				case $suite in sid | unstable) ;; *) echo "deb $mirror/debian-security $suite-security main" ;; esac
			} >"$c.tmp/etc/apt/sources.list"
			# As apt.sh's lists: a mirror's Release may be past its
			# Valid-Until (sid's, seen here 22 days past).
			echo 'Acquire::Check-Valid-Until "false";' >"$c.tmp/etc/apt/apt.conf.d/90perfconf"
			mkdir -p "$c.tmp/pc/headers" "$c.tmp/pc/src"
			rm -rf "$c" && mv "$c.tmp" "$c"
			touch "$c/.perfconf-ready"
		fi
		missing=''
		for p in "$@"; do
			chroot "$c" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
		done
		[ -n "$missing" ] || exit 0
		echo "vm: module: installing$missing in the $suite chroot" >&2
		# shellcheck disable=SC2086 # a list of packages
		if ! unshare --mount --propagation private sh -c '
			mount -t proc proc "$1/proc" && shift && c=$1 && shift &&
			chroot "$c" apt-get -q -o Acquire::Retries=3 update &&
			DEBIAN_FRONTEND=noninteractive chroot "$c" apt-get -q -o Acquire::Retries=3 install -y --no-install-recommends "$@" &&
			chroot "$c" apt-get clean' \
			sh "$c" "$c" $missing >>"$log" 2>&1; then
			echo "apt-get install$missing in the $suite chroot failed: $(grep -E '^E:' "$log" | tail -n 1) (log: $log)"
			exit 1
		fi
	)
}

# WHERE DIR ARGS...: make modules in DIR with ARGS, on the host ("host") or
# in a chroot (its suite), with the copy of the source in $scratch/src.
# The log goes to $scratch/build.log.
run_make() {
	local where=$1 dir=$2
	shift 2
	if [ "$where" = host ]; then
		make -C "$dir" M="$scratch/src" "$@" modules >"$scratch/build.log" 2>&1
	else
		# The headers tree at /pc/headers, the source at /pc/src.
		unshare --mount --propagation private sh -c '
			c=$1 h=$2 s=$3 d=$4 && shift 4 &&
			mount --bind "$h" "$c/pc/headers" && mount --bind "$s" "$c/pc/src" &&
			mount -t proc proc "$c/proc" &&
			exec chroot "$c" make -C "/pc/headers/$d" M=/pc/src "$@" modules' \
			sh "$chroots/$where" "$hroot" "$scratch/src" "${dir#"$hroot"/}" "$@" >"$scratch/build.log" 2>&1
	fi
}

# The first error of a build log, or its last line.
log_why() {
	local l
	l=$(grep -m 1 -E '(error|Error|ERROR)[: ]' "$1" || tail -n 1 "$1")
	l=${l//"$scratch/src/"/}
	l=${l//\/pc\/src\//}
	echo "${l:0:300}"
}

# KO RELEASE: the .ko's vermagic names RELEASE.
vermagic_ok() {
	local vm
	vm=$(tr '\0' '\n' <"$1" | grep -a -m 1 '^vermagic=' | cut -d= -f2 | cut -d' ' -f1)
	[ "$vm" = "$2" ] || { echo "perfconf_pmu.ko's vermagic is \"$vm\", not $2"; return 1; }
}

# The scratch directory: in KERNEL_DIR/module (under its lock), so that
# one left by a killed build is removed by the next.
scratch=$out/.build
rm -rf "$scratch"
mkdir -p "$scratch/src"

# --- a kernel the user built (vm.sh): its own build tree ---
if [ -f "$kdir/tree" ]; then
	tree=$(cat "$kdir/tree")
	release=$(cat "$kdir/release")
	arch=$(cat "$kdir/arch")
	[ -f "$tree/.config" ] || give_up "$tree has no .config"
	grep -q '^CONFIG_MODULES=y' "$tree/.config" || give_up "the kernel has no module support (CONFIG_MODULES is not set in $tree/.config)"
	[ -f "$tree/Module.symvers" ] || give_up "$tree has no Module.symvers (build its modules: make modules)"
	# The .ko's vermagic must name the image's release (a tree rebuilt
	# since the image was made does not); vm.sh could not read it: the
	# tree's own.
	[ "$release" != unknown ] || release=$(cat "$tree/include/config/kernel.release" 2>/dev/null || echo unknown)
	cp -a "$src/." "$scratch/src/"
	args=()
	case $arch in arm64) [ "$(uname -m)" = aarch64 ] || args=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;; esac
	rc=0
	run_make host "$tree" "${args[@]}" || rc=$?
	cp "$scratch/build.log" "$out/build.log"
	[ "$rc" = 0 ] || give_up "the build against $tree failed: $(log_why "$scratch/build.log")"
	why=$(vermagic_ok "$scratch/src/perfconf_pmu.ko" "$release") || give_up "$why (was $tree rebuilt after the image?)"
	cp "$scratch/src/perfconf_pmu.ko" "$out/perfconf_pmu.ko.tmp" && mv "$out/perfconf_pmu.ko.tmp" "$out/perfconf_pmu.ko"
	rm -f "$out/why"
	echo "vm: module: $name: built perfconf_pmu.ko against $tree in $(secs "$t0") s" >&2
	exit 0
fi

# --- a Debian kernel ---
pkg='' ver='' suite='' arch=''
read -r pkg ver suite <"$kdir/package" || true
read -r arch _ <"$kdir/line" || true
release=$(cat "$kdir/release")
[ "$pkg" = custom ] || [ -n "$suite" ] && [ -n "$arch" ] || give_up "$kdir has no package or line file (not a resolve-kernel.sh directory)"
case $pkg in
linux-image-* | linux-binary-*) ;;
custom) give_up "${ver:-the kernel image} is not inside a kernel build tree (no .config and Makefile up to 5 levels above it): nothing to build perfconf_pmu.ko against" ;;
*) give_up "$pkg is not a Debian kernel package: no headers to build against" ;;
esac
hdr=${pkg#linux-image-}
hdr=linux-headers-${hdr#linux-binary-}
hdr=${hdr%-unsigned}
case $arch in
x86_64) darch=amd64 karch=x86 triplet='' ;;
arm64) darch=arm64 karch=arm64 triplet=aarch64-linux-gnu ;;
riscv64) darch=riscv64 karch=riscv triplet=riscv64-linux-gnu ;;
s390x) darch=s390x karch=s390 triplet=s390x-linux-gnu ;;
ppc64el) darch=ppc64el karch=powerpc triplet=powerpc64le-linux-gnu ;;
*) give_up "no module build for arch $arch" ;;
esac
key="$hdr $ver $src_hash"
if [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
	if [ -s "$out/perfconf_pmu.ko" ]; then exit 0; fi
	if [ -s "$out/why" ]; then
		echo "vm: module: $name: $(cat "$out/why") (cached)" >&2
		exit 1
	fi
fi

# The headers: one tree per source version, its flavours added as needed.
hroot=$cache/headers/linux_$ver
mkdir -p "$hroot"
hroot=$(cd "$hroot" && pwd)
fdir=$hroot/usr/src/$hdr
(
	exec 6>"$hroot.lock"
	flock 6
	[ -e "$hroot/.ok-$hdr" ] && exit 0
	debs=$hroot.debs
	rm -rf "$debs" && mkdir -p "$debs"
	log=$debs/apt.log
	dl() { "$here/apt.sh" download "$debs" "$@" </dev/null >>"$log" 2>&1; }
	dl "$hdr:$darch=$ver" || { echo "cannot download $hdr $ver: $(grep -m 1 -E '^E:' "$log")"; exit 1; }
	# Its -common and linux-kbuild-* packages, by its Depends.
	deps=$(VM_APT_ARCH=$darch "$here/apt.sh" cache show "$hdr:$darch=$ver" 2>/dev/null | sed -n 's/^Depends: //p' | head -n 1 | tr ',|' '\n\n' | awk '{ print $1 }')
	common=$(echo "$deps" | grep -m 1 -E '^linux-headers-.*-common(-.*)?$' || true)
	kbuild=$(echo "$deps" | grep -m 1 -E '^linux-kbuild-' || true)
	[ -n "$common" ] && [ -n "$kbuild" ] || { echo "$hdr $ver: no -common or linux-kbuild in its Depends"; exit 1; }
	want=()
	[ -e "$hroot/.ok-$common" ] || want+=("$common:all=$ver")
	[ -e "$hroot/.ok-$kbuild" ] || want+=("$kbuild:amd64=$ver")
	[ ${#want[@]} = 0 ] || dl "${want[@]}" || { echo "cannot download ${want[*]}: $(grep -m 1 -E '^E:' "$log")"; exit 1; }
	for d in "$debs"/*.deb; do
		dpkg-deb -x "$d" "$hroot" || { echo "cannot unpack ${d##*/}"; exit 1; }
	done
	rm -rf "${hroot:?}/lib" "$hroot/usr/lib/modules" "$hroot/usr/share/doc"
	[ -f "$fdir/Makefile" ] || { echo "$hdr has no Makefile"; exit 1; }
	# The flavour's Makefile: "include /usr/src/linux-headers-<abi>-common/Makefile"
	# (and 7.x's KBUILD_OUTPUT=/usr/src/<flavour>): relative to itself.
	sed -i -E '1i perfconf_here := $(realpath $(dir $(lastword $(MAKEFILE_LIST))))
		s|^(include +)/usr/src/|\1$(perfconf_here)/../|
		s|^KBUILD_OUTPUT *= */usr/src/.*|KBUILD_OUTPUT=$(perfconf_here)|' "$fdir/Makefile"
	touch "$hroot/.ok-$common" "$hroot/.ok-$kbuild" "$hroot/.ok-$hdr"
	rm -rf "$debs"
) >"$scratch/headers.why" || give_up "$(cat "$scratch/headers.why")"

# The compiler the kernel was built with, by the headers' own make variables.
n=$(sed -n -E 's/^CC *=.*gcc-([0-9]+).*/\1/p' "$fdir/.kernelvariables" 2>/dev/null | head -n 1)
[ -n "$n" ] || give_up "$fdir/.kernelvariables names no gcc-N"
cc=${triplet:+$triplet-}gcc-$n
# Where: the host when the kernel's suite is the host's; else its chroot.
host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
ksuite=${suite%%-*}
case $ksuite in unstable) ksuite=sid ;; esac
if [ "$ksuite" = "$host_suite" ]; then
	where=host
	command -v "$cc" >/dev/null || sh "$here/../../scripts/apt-install.sh" -p vm "gcc-$n${triplet:+-$triplet}" >&2 ||
		give_up "$cc is not installed (Debian package gcc-$n${triplet:+-$triplet})"
else
	where=$ksuite
	libelf=libelf1
	case $ksuite in bullseye | bookworm) ;; *) libelf=libelf1t64 ;; esac
	pkgs=(make "gcc-$n" "$libelf")
	[ -z "$triplet" ] || pkgs+=("gcc-$n-$triplet")
	why=$(chroot_ready "$ksuite" "${pkgs[@]}") || give_up "${why:-the $ksuite chroot could not be made}"
fi

cp -a "$src/." "$scratch/src/"
rm -rf "$scratch/src/"*.ko "$scratch/src/"*.o
args=(ARCH="$karch" HOSTCC="gcc-$n" CONFIG_DEBUG_INFO_BTF_MODULES=)
[ -z "$triplet" ] || args+=(CROSS_COMPILE="$triplet-")
loc="the host"
[ "$where" = host ] || loc="the $where chroot"
rc=0
run_make "$where" "$fdir" "${args[@]}" || rc=$?
cp "$scratch/build.log" "$out/build.log"
[ "$rc" = 0 ] ||
	give_up "the build against $hdr ($cc, $loc) failed: $(log_why "$scratch/build.log")" cache
why=$(vermagic_ok "$scratch/src/perfconf_pmu.ko" "$release") || give_up "$why" cache
cp "$scratch/src/perfconf_pmu.ko" "$out/perfconf_pmu.ko.tmp" && mv "$out/perfconf_pmu.ko.tmp" "$out/perfconf_pmu.ko"
rm -f "$out/why"
printf '%s\n' "$key" >"$out/key"
echo "$hdr $ver $cc $where" >"$out/built-with"
echo "vm: module: $name: built perfconf_pmu.ko ($cc, $loc) in $(secs "$t0") s" >&2
