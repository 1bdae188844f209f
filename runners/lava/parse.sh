#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Turn a perfconf run's output into LAVA test cases, one per case and one per
# binary, with the runner's verdict against the baseline (not the raw status).
# POSIX sh and awk only (busybox is enough): it runs on the device under test.
#
#   runners/lava/parse.sh [-p] [-x pass|skip] [FILE]    (FILE: stdin when absent)
#
# Reads both layouts the runner prints:
#   KTAP (default)      "  # Subtest: area/binary", "  ok N case", "ok N area/binary"
#   kselftest (TAP 13)  "# selftests: perfconf: area/binary", "# ok N case",
#                       "ok N selftests: perfconf: area/binary"
# Lines nested deeper (a binary's own output, diagnostics) are ignored.
# Verdicts: "ok" pass; "not ok" fail (a regression or a new failure);
# "# SKIP" skip (blocked, not testable); "# XFAIL" or "# TODO" (a failure the
# baseline expects) -x's value, default pass; "# ERROR"/"# TIMEOUT" fail.
# Names: <area>/<binary> and <area>/<binary>:<case>, made LAVA-safe: "/" -> "-",
# ":" -> ".", anything but letters, digits and "._-" -> "_"
# (attr/size:global.size_zero -> attr-size.global.size_zero).
#
# Calls `lava-test-case NAME --result RESULT` for each; -p prints
# "NAME RESULT" lines instead. A summary goes to stderr.
# Exit: 0 results found; 1 a lava-test-case call failed; 2 bad usage, an
# unreadable file, or no results in the input.
set -eu

prog=parse.sh
usage="usage: $prog [-p] [-x pass|skip] [FILE]"
print=0 xfail=pass
while getopts px: o; do
	case $o in
	p) print=1 ;;
	x) xfail=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $xfail in pass | skip) ;; *) echo "$prog: -x: expected pass or skip, got '$xfail'" >&2; exit 2 ;; esac
[ $# -le 1 ] || { echo "$usage" >&2; exit 2; }
in=${1:--}
if [ "$in" != - ] && [ ! -r "$in" ]; then
	echo "$prog: cannot read $in" >&2
	exit 2
fi
if [ $print = 0 ] && ! command -v lava-test-case >/dev/null 2>&1; then
	echo "$prog: lava-test-case is not on PATH (outside LAVA, use -p)" >&2
	exit 2
fi

tmp=$(mktemp "${TMPDIR:-/tmp}/perfconf-parse.XXXXXX")
trap 'rm -f "$tmp"' EXIT
trap 'exit 130' INT TERM

awk -v xfail="$xfail" '
function safe(s) {
	gsub(/\//, "-", s)
	gsub(/:/, ".", s)
	gsub(/[^A-Za-z0-9._-]/, "_", s)
	return s
}
# One result line without its prefix: "[not ]ok N [name][ # DIRECTIVE...]".
# prefix: the binary for a case ("area/binary:"), "" for a binary.
function result(s, prefix,   ok, i, dir, name, r) {
	ok = (s !~ /^not /)
	sub(/^(not )?ok [0-9]+ ?/, "", s)
	dir = ""
	if (s ~ /^# /) {
		dir = substr(s, 3)
		s = ""
	} else if ((i = index(s, " # ")) > 0) {
		dir = substr(s, i + 3)
		s = substr(s, 1, i - 1)
	}
	name = s
	sub(/^selftests: [^:]*: /, "", name)
	if (name == "")
		return
	dir = toupper(dir)
	if (dir ~ /^SKIP/)
		r = "skip"
	else if (dir ~ /^(XFAIL|TODO)/)
		r = xfail
	else if (dir ~ /^(ERROR|TIMEOUT)/)
		r = "fail"
	else
		r = ok ? "pass" : "fail"
	print safe(prefix name), r
}
{ sub(/\r$/, "") }
# kselftest layout
/^# selftests: / { bin = $0; sub(/^# selftests: [^:]*: /, "", bin); next }
/^# (not )?ok [0-9]+/ { result(substr($0, 3), bin ":"); next }
# KTAP layout
/^  # Subtest: / { bin = substr($0, 14); next }
/^  (not )?ok [0-9]+/ { result(substr($0, 3), bin ":"); next }
# A binary, either layout
/^(not )?ok [0-9]+/ { result($0, ""); bin = ""; next }
' "$in" >"$tmp"

n=$(wc -l <"$tmp" | tr -d ' ')
if [ "$n" -eq 0 ]; then
	echo "$prog: no TAP or KTAP results in ${1:-stdin}" >&2
	exit 2
fi
echo "$prog: $n results: $(awk '{ c[$2]++ } END { printf "%d pass, %d fail, %d skip", c["pass"], c["fail"], c["skip"] }' "$tmp")" >&2

if [ $print = 1 ]; then
	cat "$tmp"
	exit 0
fi
rc=0
while read -r name res; do
	lava-test-case "$name" --result "$res" || rc=1
done <"$tmp"
exit $rc
