#!/bin/sh
# Install what perfconf needs to build and run, from Debian packages, once.
# Used by `make run`, `make test` and .ci/run. Idempotent and quiet when all is there.
#   scripts/deps.sh BUILD_DIR
set -eu

build=${1:?usage: scripts/deps.sh BUILD_DIR}
packages="build-essential libcap-dev zlib1g-dev linux-source-6.12 xz-utils python3"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "perfconf: missing Debian packages:$missing (run as root, or: apt-get install$missing)" >&2
		exit 2
	fi
	echo "perfconf: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || { echo "perfconf: apt-get update failed" >&2; exit 2; }
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null ||
		{ echo "perfconf: apt-get install$missing failed" >&2; exit 2; }
fi

# The kselftest harness headers come from Debian's kernel source tarball.
# Extract the two headers once into the build directory and reuse them.
hdr="$build/include"
if [ ! -s "$hdr/kselftest_harness.h" ] || [ ! -s "$hdr/kselftest.h" ]; then
	tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || { echo "perfconf: /usr/src/linux-source-6.12.tar.* not found" >&2; exit 2; }
	top=$(basename "$tarball" | sed 's/\.tar\..*//')
	tmp="$build/.harness.tmp"
	rm -rf "$tmp" && mkdir -p "$tmp" "$hdr"
	tar -xJf "$tarball" -C "$tmp" \
		"$top/tools/testing/selftests/kselftest_harness.h" \
		"$top/tools/testing/selftests/kselftest.h" ||
		{ echo "perfconf: cannot extract the kselftest headers from $tarball" >&2; exit 2; }
	mv "$tmp/$top/tools/testing/selftests/kselftest_harness.h" "$tmp/$top/tools/testing/selftests/kselftest.h" "$hdr/"
	rm -rf "$tmp"
fi
