#!/bin/sh
# Run every suite binary (until the runner lands). Usage: scripts/run-suite.sh BUILD_DIR
set -u
build=$1
pass=0; fail=0
for bin in $(find "$build/tests" -type f -perm -u+x | sort); do
	if "$bin" </dev/null; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
