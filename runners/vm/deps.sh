#!/bin/sh
# Install what the VM matrix needs, from Debian packages, once: `make
# matrix` and `make test` (through runners/vm/matrix.sh) call it.
# Idempotent and quiet when all is there.
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

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "matrix: missing Debian packages:$missing (run as root, or: apt-get install$missing)" >&2
		exit 2
	fi
	echo "matrix: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o Acquire::Retries=3 update -q >/dev/null || { echo "matrix: apt-get update failed" >&2; exit 2; }
	# shellcheck disable=SC2086
	apt-get -o Acquire::Retries=3 install -y -q --no-install-recommends $missing >/dev/null ||
		{ echo "matrix: apt-get install$missing failed" >&2; exit 2; }
fi
