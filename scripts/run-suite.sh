#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the suite on this kernel with the runner and compare with its baseline.
#   scripts/run-suite.sh BUILD_DIR [perfconf options...]
# The runner's exit code is passed on: 0 no regression, 1 a regression or
# failure, 2 a usage or setup error (through make, any failure is make's 2).
set -u
build=${1:?usage: scripts/run-suite.sh BUILD_DIR [perfconf options...]}
shift
src=$(cd "$(dirname "$0")/.." && pwd)
exec "$build/perfconf" --dir "$build" --expected "$src/expected" \
	--timeouts "$src/runners/timeouts.conf" "$@"
