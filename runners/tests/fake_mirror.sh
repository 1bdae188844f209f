#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A Debian mirror in a directory, for the tests of runners/vm/apt.sh: every
# suite apt.sh reads, each with one kernel package per arch (amd64, arm64,
# riscv64, s390x, ppc64el), "linux-image-<N>-<flavour>" at version N, N the
# suite's number in the list below; the flavour is the arch's name, but
# powerpc64le for ppc64el, as Debian names them. An unsigned Release
# (apt.sh trusts a file: mirror).
#
#   runners/tests/fake_mirror.sh DIR [SUITE:ARCH...]
#
# SUITE:ARCH: that index no longer matches its Release, as a mirror
# caught mid-sync serves it (apt: "Hash Sum mismatch").
set -eu

top=${1:?usage: fake_mirror.sh DIR [SUITE:ARCH...]}
shift
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
