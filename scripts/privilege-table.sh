#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The privilege matrix of one kernel as a Markdown table, from its
# baseline or a run's results.txt: a row per operation, a column per
# perf_event_paranoid level, and in each cell the identities that may,
# then what the others get ("else EACCES"; BLOCKED or SKIP where a cell
# gave no verdict). "all": every identity may; "none: E": none may.
# Usage: scripts/privilege-table.sh expected/x86_64-6.18-nohw.txt
set -u
[ $# -eq 1 ] && [ -r "$1" ] || { echo "usage: $0 BASELINE_OR_RESULTS" >&2; exit 2; }
LC_ALL=C awk '
$1 ~ /^privilege\// {
	split($1, a, ":"); bin = a[1]; sub(/^privilege\//, "", bin)
	n = split(a[2], c, ".")
	if (n != 3) next
	who = c[1]; lvl = c[2]; sub(/^paranoid_/, "", lvl); sub(/^m/, "-", lvl); op = bin "/" c[3]
	out = $2
	for (i = 3; i <= NF; i++) if ($i ~ /^errno=/) { out = substr($i, 7) }
	if ($2 != "PASS" && $2 != "FAIL") out = $2
	if (out == "OK") out = "ok"
	key = op SUBSEP lvl
	if (!(key in seen)) { seen[key] = 1 }
	res[key, out] = res[key, out] (res[key, out] == "" ? "" : ", ") who
	outs[key] = outs[key] (index(" " outs[key] " ", " " out " ") ? "" : " " out)
	if (!(op in ops)) { ops[op] = 1; order[++nops] = op }
	if ($2 == "FAIL") fail[key] = 1
}
END {
	print "| operation | -1 | 0 | 1 | 2 | 3 |"
	print "|---|---|---|---|---|---|"
	for (o = 1; o <= nops; o++) {
		op = order[o]; line = "| " op
		for (l = -1; l <= 3; l++) {
			key = op SUBSEP l; cell = ""
			m = split(substr(outs[key], 2), list, " ")
			if (m == 1) cell = list[1] == "ok" ? "all" : "none: " list[1]
			else {
				cell = res[key, "ok"]
				not = 0
				for (j = 1; j <= m; j++) if (list[j] != "ok") not++
				for (j = 1; j <= m; j++) {
					if (list[j] == "ok") continue
					cell = cell (cell == "" ? "" : "; ") (not == 1 ? "else " list[j] : list[j] ": " res[key, list[j]])
				}
			}
			if (key in fail) cell = cell " FAIL"
			line = line " | " cell
		}
		print line " |"
	}
}' "$1"
