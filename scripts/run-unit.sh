#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the project's own unit-test binaries (lib/ and runner tests) and
# summarise. Usage: scripts/run-unit.sh BUILD_DIR BINARY...
set -u
build=$1; shift
pass=0; fail=0
for bin in "$@"; do
	name=${bin#"$build"/}
	if out=$("$bin" 2>&1); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf '%s\n' "$out" | sed "s|^|$name: |"
		echo "FAILED: $name" >&2
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
