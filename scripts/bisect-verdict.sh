#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What one step of a bisection says (scripts/bisect-kernel.sh), read from
# the report the guest's runner wrote at the end of its ktap.txt: sections
# "# <name> (N):" followed by "#   <case>: <why>" lines (runners/report.c).
#
#   bisect-verdict.sh verdict KTAP RC
#       RC is perfconf vm's exit. Prints "good", "bad: <case>: <why>" (the
#       first regression, new failure or kernel complaint a binary made)
#       or "cannot test: <why>"; exits 0, 1 or 125 as git bisect run
#       reads them. A kernel complaint (WARN, BUG) that no binary of ours
#       made, nor brought back when run alone, is not the commit's perf
#       code's doing: 125.
#   bisect-verdict.sh binaries KTAP
#       the binaries with a regression or a new failure, one a line (for
#       --cases-from); exit 1 when there is none.
set -eu

complaints="KERNEL COMPLAINTS: the kernel warned or oopsed while the suite ran"

# KTAP NAME: the entries of section NAME, one a line.
section() {
	[ -f "$1" ] || return 0
	awk -v h="# $2 (" 'index($0, h) == 1 { on = 1; next }
		on && /^#   / { sub(/^#   /, ""); print; next }
		{ on = 0 }' "$1"
}

case ${1:-} in
verdict)
	[ $# -eq 3 ] || { echo "usage: bisect-verdict.sh verdict KTAP RC" >&2; exit 2; }
	ktap=$2
	case $3 in
	0) echo good; exit 0 ;;
	1) ;;
	*) echo "cannot test: perfconf vm exit $3"; exit 125 ;;
	esac
	# A binary's own complaint reads "<area>/<binary>: ..."; one that no binary made
	# reads "<what>, while <binaries> ran; ...", "it came back running X alone" when X did.
	why=$(section "$ktap" "$complaints" | grep -Ev '^[a-z0-9_]+/[A-Za-z0-9_]+: |it came back running' | head -n 1)
	if [ -n "$why" ]; then
		echo "cannot test: the kernel complained with no case of ours to blame: $why"
		exit 125
	fi
	for s in regressions "new failures" "$complaints"; do
		why=$(section "$ktap" "$s" | head -n 1)
		[ -z "$why" ] || break
	done
	echo "bad: ${why:-no regression listed in $ktap}"
	exit 1
	;;
binaries)
	[ $# -eq 2 ] || { echo "usage: bisect-verdict.sh binaries KTAP" >&2; exit 2; }
	{ section "$2" regressions; section "$2" "new failures"; } |
		sed -n 's|^\([a-z0-9_]*/[A-Za-z0-9_]*\):.*|\1|p' | sort -u | grep . || exit 1
	;;
*)
	echo "usage: bisect-verdict.sh verdict KTAP RC | binaries KTAP" >&2
	exit 2
	;;
esac
