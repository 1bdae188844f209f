#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Give a baseline the facts a run established (its results.txt's
# "# facts:" line), without touching a case line: for when the runner
# learns a new fact, and the kernels the baselines were recorded on are
# the same as the run's.
#
#	scripts/baseline-facts.sh RESULTS.txt [BASELINE.txt]
#
# Without BASELINE: the one its header names (expected/<arch>-<M.m>-<profile>.txt
# beside this script). The facts line goes after "# recorded on:", or
# replaces the one there.
set -eu

usage() {
	echo "usage: $0 RESULTS.txt [BASELINE.txt]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
results=$1
[ -r "$results" ] || { echo "$0: cannot read $results" >&2; exit 2; }
facts=$(grep -m1 '^# facts: ' "$results") || { echo "$0: $results has no '# facts:' line" >&2; exit 2; }
if [ $# = 2 ]; then
	baseline=$2
else
	# "# perfconf results: <arch> <M.m> <profile>"
	set -- $(sed -n '1s/^# perfconf results: //p' "$results")
	[ $# = 3 ] || { echo "$0: $results: no '# perfconf results:' header to name its baseline" >&2; exit 2; }
	baseline="$(dirname "$0")/../expected/$1-$2-$3.txt"
fi
[ -w "$baseline" ] || { echo "$0: cannot write $baseline" >&2; exit 2; }
grep -q '^# recorded on: ' "$baseline" || { echo "$0: $baseline has no '# recorded on:' line" >&2; exit 2; }

tmp=$(mktemp "$baseline.XXXXXX")
trap 'rm -f "$tmp"' EXIT
awk -v facts="$facts" '
	/^# facts: / { next }
	{ print }
	/^# recorded on: / && !done { print facts; done = 1 }
' "$baseline" >"$tmp"
chmod --reference="$baseline" "$tmp"
mv "$tmp" "$baseline"
trap - EXIT
echo "$baseline: $(printf '%s\n' "$facts" | wc -w | awk '{ print $1 - 2 }') facts from $results"
