#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run an installed perfconf tree (make install / make dist) from wherever it
# lies: no source tree, compiler or network needed. Installed as
# <tree>/run_perfconf.sh beside perfconf, tests/, expected/, timeouts.conf
# and VERSION.
#
#   ./run_perfconf.sh [perfconf options...]   the suite, compared with the
#                                             baseline for this kernel
#   ./run_perfconf.sh info|diff|abi|restore   the runner's subcommands
#   ./run_perfconf.sh --version               the tree's version
#
# Every option passes through to the runner and beats the tree's defaults
# (e.g. --results DIR; the default is <tree>/results/<release>-<arch>-<profile>).
# Exit: the runner's (0 no regression, 1 a regression or new failure,
# 2 usage or setup error; --bisect: 0/1/125).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
pc=$here/perfconf
[ -x "$pc" ] || { echo "run_perfconf.sh: no runner at $pc (is this an installed tree?)" >&2; exit 2; }

case ${1:-} in
--version)
	cat "$here/VERSION"
	exit 0
	;;
diff | abi | restore)
	exec "$pc" "$@"
	;;
info)
	shift
	exec "$pc" info --dir "$here" --expected "$here/expected" "$@"
	;;
matrix | vm | coverage)
	echo "run_perfconf.sh: '$1' needs the perfconf source tree; this is an installed tree" >&2
	exit 2
	;;
run)
	shift
	;;
esac
exec "$pc" --dir "$here" --expected "$here/expected" --timeouts "$here/timeouts.conf" "$@"
