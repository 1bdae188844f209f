#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install what the VM matrix needs, from Debian packages, once: `make
# matrix` and `make test` (through runners/vm/matrix.sh) call it.
# Idempotent and quiet when all is there; scripts/apt-install.sh (shared
# with scripts/deps.sh) checks and installs. Exit 2 when a package is
# missing and cannot be installed.
#   runners/vm/deps.sh [GUEST-ARCH...]
#
# The default guests' qemu (x86_64, arm64) always; an opt-in guest arch
# (riscv64, s390x) adds its qemu, qemu-system-misc (its firmware, OpenSBI
# and s390-ccw.img, is in qemu-system-data); ppc64el adds qemu-system-ppc
# (qemu-system-ppc64; its firmware, SLOF and VOF, is in qemu-system-data).
# Their cross compilers are build-static.sh's, on first use.
#
# perfconf_pmu.ko (module.sh): bookworm's kernels build on the host with
# the gcc-12 their headers name (gcc-12, gcc-12-aarch64-linux-gnu; libelf1
# for the kbuild's objtool); other suites' kernels in a chroot of their
# suite, made with debootstrap. The other arches' gcc-12 cross compilers,
# and the chroots' packages, are installed on first use.
#
# The arm64 pieces that have no cross package (busybox, libcap, zlib) are not
# installed: build-static.sh and initramfs.sh fetch their arm64 .debs at the
# host's versions through the private apt configuration (apt.sh), and unpack
# them with dpkg -x.
set -eu

packages="qemu-system-x86 qemu-system-arm qemu-system-data busybox-static
gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio xz-utils gzip zstd
build-essential libcap-dev zlib1g-dev ca-certificates
gcc-12 gcc-12-aarch64-linux-gnu make libelf1 debootstrap"
for a in "$@"; do
	case $a in
	x86_64 | arm64 | i386 | armhf) ;;
	riscv64 | s390x) case $packages in *qemu-system-misc*) ;; *) packages="$packages qemu-system-misc" ;; esac ;;
	ppc64el) case $packages in *qemu-system-ppc*) ;; *) packages="$packages qemu-system-ppc" ;; esac ;;
	*) echo "vm: deps.sh: unknown guest arch $a (x86_64, arm64, i386, armhf, riscv64, s390x, ppc64el)" >&2; exit 2 ;;
	esac
done

# shellcheck disable=SC2086
exec sh "$(dirname "$0")/../../scripts/apt-install.sh" -p matrix $packages
