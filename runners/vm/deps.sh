#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install what the VM matrix needs, from Debian packages, once: `make
# matrix` and `make test` (through runners/vm/matrix.sh) call it.
# Idempotent and quiet when all is there; scripts/apt-install.sh (shared
# with scripts/deps.sh) checks and installs. Exit 2 when a package is
# missing and cannot be installed.
#   runners/vm/deps.sh
#
# The arm64 pieces that have no cross package (busybox, libcap, zlib) are not
# installed: build-static.sh and initramfs.sh fetch their arm64 .debs at the
# host's versions through the private apt configuration (apt.sh), and unpack
# them with dpkg -x.
set -eu

packages="qemu-system-x86 qemu-system-arm qemu-system-data busybox-static
gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio xz-utils gzip zstd
build-essential libcap-dev zlib1g-dev ca-certificates"

# shellcheck disable=SC2086
exec sh "$(dirname "$0")/../../scripts/apt-install.sh" -p matrix $packages
