#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A Debian mirror in a directory, for the tests of runners/vm/apt.sh: every
# suite apt.sh reads, each with one kernel package per arch (amd64, arm64,
# riscv64, s390x, ppc64el), "linux-image-<N>-<flavour>" at version N, N the
# suite's number in the list below; the flavour is the arch's name, but
# powerpc64le for ppc64el, as Debian names them. An unsigned Release
# (apt.sh trusts a file: mirror).
#
#   runners/tests/fake_mirror.sh DIR [--ppc64el-debs] [SUITE:ARCH...]
#
# SUITE:ARCH: that index no longer matches its Release, as a mirror
# caught mid-sync serves it (apt: "Hash Sum mismatch").
# --ppc64el-debs: trixie also lists two ppc64el kernels of line 6.12 whose
# .debs are in the pool (/boot/vmlinux-<release>, /boot/config-<release>,
# 1.2 MB: the resolver wants more than 1 MB): the plain flavour,
# linux-image-6.12.1+fake-powerpc64le 6.12.1-1, and the 64k one at a
# higher version, linux-image-6.12.2+fake-powerpc64le-64k 6.12.2-1.
set -eu

top=${1:?usage: fake_mirror.sh DIR [--ppc64el-debs] [SUITE:ARCH...]}
shift
debs=0
if [ "${1:-}" = --ppc64el-debs ]; then
	debs=1
	shift
fi

# POOL_DIR PACKAGE VERSION RELEASE: a kernel .deb for ppc64el; its Packages stanza on stdout.
kernel_deb() {
	kd="$1/pool/main/l/linux" kp="$2" kv="$3" kr="$4"
	kw=$(mktemp -d)
	mkdir -p "$kd" "$kw/DEBIAN" "$kw/boot"
	printf 'Package: %s\nVersion: %s\nArchitecture: ppc64el\nMaintainer: none <none@example.org>\nDescription: a kernel\n' \
		"$kp" "$kv" >"$kw/DEBIAN/control"
	head -c 1200000 /dev/urandom >"$kw/boot/vmlinux-$kr"
	echo "CONFIG_PERF_EVENTS=y" >"$kw/boot/config-$kr"
	dpkg-deb -Zgzip --build "$kw" "$kd/${kp}_${kv}_ppc64el.deb" >/dev/null
	rm -rf "$kw"
	printf 'Package: %s\nVersion: %s\nArchitecture: ppc64el\nSize: %s\nSHA256: %s\nFilename: pool/main/l/linux/%s_%s_ppc64el.deb\nDescription: a kernel\n\n' \
		"$kp" "$kv" "$(wc -c <"$kd/${kp}_${kv}_ppc64el.deb")" "$(sha256sum <"$kd/${kp}_${kv}_ppc64el.deb" | cut -d' ' -f1)" "$kp" "$kv"
}
n=0
for s in debian:bullseye debian-security:bullseye-security debian:bookworm \
	debian-security:bookworm-security debian:bookworm-backports debian:trixie \
	debian-security:trixie-security debian:trixie-backports debian:sid; do
	n=$((n + 1))
	d=$top/${s%%:*}/dists/${s#*:}
	for a in amd64 arm64 riscv64 s390x ppc64el; do
		f=$a
		[ "$a" = ppc64el ] && f=powerpc64le
		mkdir -p "$d/main/binary-$a"
		printf 'Package: linux-image-%s-%s\nVersion: %s\nArchitecture: %s\nSize: 2000000\nFilename: pool/main/l/linux/linux-image-%s-%s_%s_%s.deb\nDescription: a kernel\n\n' \
			"$n" "$f" "$n" "$a" "$n" "$f" "$n" "$a" >"$d/main/binary-$a/Packages"
		if [ "$debs" = 1 ] && [ "$a" = ppc64el ] && [ "$s" = debian:trixie ]; then
			kernel_deb "$top/debian" linux-image-6.12.1+fake-powerpc64le 6.12.1-1 6.12.1+fake-powerpc64le
			kernel_deb "$top/debian" linux-image-6.12.2+fake-powerpc64le-64k 6.12.2-1 6.12.2+fake-powerpc64le-64k
		fi >>"$d/main/binary-$a/Packages"
	done
	{
		printf 'Origin: Debian\nSuite: %s\nCodename: %s\nDate: Sat, 01 Jan 2000 00:00:00 UTC\nArchitectures: amd64 arm64 riscv64 s390x ppc64el\nComponents: main\nSHA256:\n' \
			"${s#*:}" "${s#*:}"
		for a in amd64 arm64 riscv64 s390x ppc64el; do
			f=$d/main/binary-$a/Packages
			printf ' %s %s main/binary-%s/Packages\n' "$(sha256sum <"$f" | cut -d' ' -f1)" "$(wc -c <"$f")" "$a"
		done
	} >"$d/Release"
done
for sa in "$@"; do
	s=${sa%%:*} a=${sa#*:}
	for d in "$top"/*/dists/"$s"; do echo "Description: changed after the Release" >>"$d/main/binary-$a/Packages"; done
done
