#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install what perfconf needs to build and run, from Debian packages, once.
# Used by `make run`, `make test` and .ci/run. Idempotent and quiet when all is there.
# The packages go through scripts/apt-install.sh (shared with runners/vm/deps.sh).
#   scripts/deps.sh BUILD_DIR
set -eu

build=${1:?usage: scripts/deps.sh BUILD_DIR}
packages="build-essential libcap-dev zlib1g-dev linux-source-6.12 xz-utils python3
	python3-tap python3-more-itertools python3-yaml stress-ng"

# shellcheck disable=SC2086
sh "$(dirname "$0")/apt-install.sh" -p perfconf $packages || exit 2

# The kselftest harness headers and the kernel's KTAP parser (kunit.py, used
# by the runner's tests to check its output) come from Debian's kernel source
# tarball. Extract them once into the build directory, in one pass (reading
# the tarball takes about 15 s), and reuse them. kunit.py insists on living
# under .../tools/testing/kunit: it goes to $build/kunit/tools/testing/kunit.
hdr="$build/include"
kunit="$build/kunit/tools/testing/kunit"
sel="tools/testing/selftests"
need=""
if [ ! -s "$hdr/kselftest_harness.h" ] || [ ! -s "$hdr/kselftest.h" ]; then
	need="$need $sel/kselftest_harness.h $sel/kselftest.h"
fi
[ -s "$kunit/kunit.py" ] || need="$need tools/testing/kunit"
if [ -n "$need" ]; then
	tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || { echo "perfconf: /usr/src/linux-source-6.12.tar.* not found" >&2; exit 2; }
	top=$(basename "$tarball" | sed 's/\.tar\..*//')
	tmp="$build/.harness.tmp"
	rm -rf "$tmp" && mkdir -p "$tmp" "$hdr"
	members=""
	for m in $need; do members="$members $top/$m"; done
	# shellcheck disable=SC2086
	tar -xJf "$tarball" -C "$tmp" $members ||
		{ echo "perfconf: cannot extract$need from $tarball" >&2; exit 2; }
	for h in kselftest_harness.h kselftest.h; do
		if [ -f "$tmp/$top/$sel/$h" ]; then mv "$tmp/$top/$sel/$h" "$hdr/"; fi
	done
	# The 6.12 harness reads a non-volatile local after longjmp() from a
	# failed ASSERT in a fixture test, so at -O2 FIXTURE_TEARDOWN may not
	# run after a failure. Make that local volatile (a one-word fix).
	sed -i 's/^\(\t\t\)pid_t child = 1; \\$/\1volatile pid_t child = 1; \\/' "$hdr/kselftest_harness.h"
	if [ -d "$tmp/$top/tools/testing/kunit" ]; then
		rm -rf "$build/kunit" && mkdir -p "$kunit" && rmdir "$kunit" &&
			mv "$tmp/$top/tools/testing/kunit" "$kunit"
	fi
	rm -rf "$tmp"
fi
