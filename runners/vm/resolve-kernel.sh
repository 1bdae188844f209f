#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Resolve the newest Debian kernel of a line (5.10, 6.1, 6.12, 7.2, …) for an
# arch from the private package lists, download it once into the cache, and
# print the directory that holds it:
#   vmlinuz   the kernel as Debian ships it
#   vmlinux   (x86_64) the ELF kernel unpacked from it, for a PVH boot
#   release   its uname -r
#   package   "<package> <version> <suite>"
#   config    its .config, when the package ships one
#
#   runners/vm/resolve-kernel.sh x86_64|arm64|riscv64|s390x|ppc64el MAJOR.MINOR [FLAVOUR]
#
# The newest version wins, whatever the suite; for the same version a
# linux-binary-* package (sid's split: vmlinuz without modules) is preferred
# to the larger linux-image-*. Without FLAVOUR only the plain amd64/arm64
# flavour is picked; FLAVOUR names another of Debian's: rt and cloud
# (linux-image-<abi>-rt-amd64, -cloud-arm64) or 16k (arm64 only:
# linux-image-<abi>-arm64-16k). Debug packages are never picked. A candidate
# whose download fails (some listed bullseye-security arm64 files answer
# 404) is skipped for the next one. Older kernels of the same line are
# removed from the cache once a newer one is in.
#
# Environment: VM_DIR (build/vm), VM_CACHE (VM_DIR/cache); see apt.sh for
# the list refresh policy.
set -eEuo pipefail
# Every exit says why: a command that fails where nothing handles it is named.
trap 'echo "vm: ${0##*/}: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

arch=${1:?usage: resolve-kernel.sh x86_64|arm64|riscv64|s390x|ppc64el MAJOR.MINOR [FLAVOUR]}
line=${2:?usage: resolve-kernel.sh x86_64|arm64|riscv64|s390x|ppc64el MAJOR.MINOR [FLAVOUR]}
flavour=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
vm=${VM_DIR:-build/vm}
cache=${VM_CACHE:-$vm/cache}

# darch: Debian's name of the arch (the lists' and the .debs'); flav: the
# plain flavour, the kernel package's last word (linux-image-<abi>-<flav>).
case $arch in
x86_64 | amd64) arch=x86_64 flav=amd64 ;;
arm64 | aarch64) arch=arm64 flav=arm64 ;;
riscv64 | s390x) flav=$arch ;;	# opt-in guests: their lists once asked for
ppc64el | ppc64le) arch=ppc64el flav=powerpc64le ;;	# never -powerpc64le-64k
*) echo "vm: unknown arch $arch (x86_64, arm64, riscv64, s390x or ppc64el)" >&2; exit 2 ;;
esac
darch=$flav
[ "$arch" = ppc64el ] && darch=ppc64el
case $line in
[0-9]*.[0-9]*) ;;
*) echo "vm: kernel line must be MAJOR.MINOR, got \"$line\"" >&2; exit 2 ;;
esac
case $flavour in
'' | rt | cloud) ;;
16k) [ "$arch" = arm64 ] || { echo "vm: the 16k flavour is arm64's only" >&2; exit 2; } ;;
*) echo "vm: unknown flavour \"$flavour\" (rt, cloud, 16k)" >&2; exit 2 ;;
esac

case $arch in riscv64 | s390x | ppc64el) "$here/apt.sh" add-arch "$darch" ;; esac
"$here/apt.sh" update

# Candidates, best first: "suite package version size".
re_line=${line//./[.]}	# awk -v would take "\." as an escape, and "." alone matches anything
candidates() {
	"$here/apt.sh" kernels | awk -v darch="$darch" -v flav="$flav" -v fl="$flavour" -v re="^linux-(image|binary)-$re_line[.]" -v vre="^$re_line[.-]" '
		function named(n) {
			if (fl == "")
				return (n ~ "-" flav "(-unsigned)?$") && n !~ /-(rt|cloud)-/ && n !~ /-16k/
			return n ~ "-" fl "-" flav "(-unsigned)?$" || n ~ "-" flav "-" fl "(-unsigned)?$"
		}
		$1 == darch && $3 ~ re && $4 ~ vre && $5 > 1000000 && named($3) && $3 !~ /-dbg/ {
			kind = $3 ~ /^linux-binary-/ ? 0 : 1
			print $4, kind, $5, $2, $3
		}' | sort -k1,1Vr -k2,2n -k3,3n | awk '{ print $4, $5, $1, $3 }'
}

# Downloads that answered 404 ("flav suite"): a suite's pool that misses one
# kernel misses them all (bullseye-security arm64), so the suite is skipped
# until the lists are refreshed (apt.sh empties the file then).
unavail=$vm/apt/unavailable
touch "$unavail"

mkdir -p "$cache/kernels" "$cache/debs"
tried=0
while read -r suite pkg ver size; do
	grep -qxF "$flav $suite" "$unavail" && continue
	tried=$((tried + 1))
	key="${pkg}_${ver}"
	kdir="$cache/kernels/$key"
	if [ -s "$kdir/vmlinuz" ] && [ -s "$kdir/release" ] && { [ "$arch" != x86_64 ] || [ -s "$kdir/vmlinux" ]; }; then
		echo "$kdir"
		exit 0
	fi
	debs=("$pkg")
	# sid's split: the config and System.map are in the small linux-base-*.
	case $pkg in linux-binary-*) debs+=("linux-base-${pkg#linux-binary-}") ;; esac
	dl=cached
	for p in "${debs[@]}"; do
		deb="$cache/debs/${p}_${ver//:/%3a}_$darch.deb"
		[ -s "$deb" ] && continue
		t0=$(date +%s.%N)
		echo "vm: downloading $p $ver ($suite)" >&2
		if ! "$here/apt.sh" download "$cache/debs" "$p:$darch/$suite" </dev/null >"$cache/debs/download.log" 2>&1; then
			grep -E '^E:' "$cache/debs/download.log" | head -n 2 >&2 || true
			rm -f "$cache/debs/"*.deb.partial
			[ "$p" = "$pkg" ] || { echo "vm: going on without $p" >&2; continue; }
			echo "vm: $pkg $ver from $suite did not download; trying the next candidate" >&2
			if grep -q ' 404 ' "$cache/debs/download.log"; then
				echo "vm: skipping $suite for $flav until the package lists are refreshed" >&2
				echo "$flav $suite" >>"$unavail"
			fi
			continue 2
		fi
		dl=$(awk -v a="$t0" -v b="$(date +%s.%N)" -v d="${dl/cached/0}" 'BEGIN { printf "%.1f", d + b - a }')
	done
	[ "$dl" = cached ] || echo "vm: downloaded $pkg $ver in $dl s" >&2

	tmp="$cache/kernels/.tmp.$$"
	rm -rf "$tmp" && mkdir -p "$tmp/x"
	trap 'rm -rf "$tmp"' EXIT
	for p in "${debs[@]}"; do
		deb="$cache/debs/${p}_${ver//:/%3a}_$darch.deb"
		[ -s "$deb" ] || continue
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$tmp/x" --wildcards --no-wildcards-match-slash \
				'./boot/vmlinuz-*' './boot/vmlinux-*' './boot/config-*' \
				'./usr/lib/modules/*/vmlinuz' './usr/lib/modules/*/config' 2>/dev/null || true
	done
	# Before sid's split: /boot/vmlinuz-<release> (riscv64: vmlinux-<release>,
	# a flat Image); after: /usr/lib/modules/<release>/vmlinuz.
	vmlinuz=$(ls "$tmp"/x/boot/vmlinu[zx]-* "$tmp"/x/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n 1 || true)
	[ -n "$vmlinuz" ] || { echo "vm: no vmlinuz in ${debs[*]}" >&2; exit 2; }
	case $vmlinuz in
	*/boot/vmlinu[zx]-*) release=${vmlinuz##*/vmlinu[zx]-} ;;
	*) release=${vmlinuz%/vmlinuz}; release=${release##*/} ;;
	esac
	mv "$vmlinuz" "$tmp/vmlinuz"
	for c in "$tmp/x/boot/config-$release" "$tmp/x/usr/lib/modules/$release/config"; do
		[ -e "$c" ] && mv "$c" "$tmp/config"
	done
	rm -rf "$tmp/x"
	echo "$release" >"$tmp/release"
	echo "$pkg $ver $suite" >"$tmp/package"
	echo "$dl" >"$tmp/download-seconds"
	echo "$arch $line${flavour:+ $flavour}" >"$tmp/line"
	if [ "$arch" = x86_64 ]; then
		"$here/extract-vmlinux.sh" "$tmp/vmlinuz" "$tmp/vmlinux" </dev/null
	fi
	# Drop older kernels of this line, then publish this one.
	for old in "$cache/kernels"/*/line; do
		[ -e "$old" ] && [ "$(cat "$old")" = "$arch $line${flavour:+ $flavour}" ] || continue
		echo "vm: removing the older $(cat "${old%/line}/package" 2>/dev/null || echo "${old%/line}")" >&2
		rm -rf "${old%/line}"
	done
	rm -rf "$kdir"
	mv "$tmp" "$kdir"
	trap - EXIT
	for p in "${debs[@]}"; do rm -f "$cache/debs/${p}_${ver//:/%3a}_$darch.deb"; done
	rm -f "$cache/debs/download.log"
	echo "$kdir"
	exit 0
done < <(candidates)

if [ "$tried" = 0 ]; then
	echo "vm: no Debian kernel $line${flavour:+ $flavour} for $flav in the package lists (runners/vm/apt.sh kernels)" >&2
else
	echo "vm: none of the $tried Debian $line${flavour:+ $flavour} kernels for $flav could be downloaded" >&2
fi
exit 1
