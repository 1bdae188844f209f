#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The shape of lib/ that lib/README.md promises, checked:
#   - every include of a lib header names its layer, and points down
#     (abi <- host <- event <- work <- ring), never up;
#   - one function prefix is declared in one header. A function's prefix is
#     the struct it works on when it is named after one (pc_read_values_size
#     and struct pc_read_values), otherwise its first word (pc_capture_open:
#     pc_capture); the pc_work_fn adapters of work/workload.h
#     (pc_kernel_faults_work) count as pc_work.
# Prints each breach and exits 1; silent and 0 when lib/ keeps its shape.
set -euo pipefail
cd "$(dirname "$0")/.."

rank() {
	case $1 in
	abi) echo 0 ;; host) echo 1 ;; event) echo 2 ;; work) echo 3 ;; ring) echo 4 ;;
	*) echo -1 ;;
	esac
}

bad=0
for f in lib/*/*.[ch]; do
	layer=${f#lib/}
	layer=${layer%%/*}
	[ "$layer" = tests ] && continue
	r=$(rank "$layer")
	while read -r inc; do
		to=${inc%%/*}
		if [ "$to" = "$inc" ]; then
			echo "$f: #include \"$inc\" names no layer"
			bad=1
		elif [ "$(rank "$to")" -lt 0 ]; then
			echo "$f: #include \"$inc\": no layer $to in lib/"
			bad=1
		elif [ "$(rank "$to")" -gt "$r" ]; then
			echo "$f: #include \"$inc\" reaches up from $layer/ to $to/"
			bad=1
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done

# "<prefix> <header>" for each function declared in a lib header.
prefixes=$(for h in lib/*/*.h lib/perfconf.h; do
	awk -v h="$h" '
		/^struct pc_[a-z0-9_]+ \{/ { s = $2; structs[s] = 1 }
		/^[a-z][a-z0-9_ ]*[ *]pc_[a-z0-9_]+\(/ {
			name = $0
			sub(/\(.*/, "", name)
			sub(/.*[ *]/, "", name)
			p = ""
			for (s in structs)
				if (index(name, s "_") == 1 && length(s) > length(p))
					p = s
			if (p == "") {
				if (h == "lib/work/workload.h" && name ~ /_work$/)
					p = "pc_work"
				else {
					split(name, w, "_")
					p = "pc_" w[2]
				}
			}
			print p, h
		}' "$h"
done | sort -u)
dups=$(awk '{ n[$1]++; hs[$1] = hs[$1] " " $2 } END { for (p in n) if (n[p] > 1) print p ":" hs[p] }' <<<"$prefixes" | sort)
if [ -n "$dups" ]; then
	while read -r line; do
		echo "lib: ${line%%:*}_* is declared in more than one header:${line#*:}"
	done <<<"$dups"
	bad=1
fi
exit $bad
