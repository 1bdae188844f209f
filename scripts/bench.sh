#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# How the suite's time grows with the machine: the suite at several -j, and
# where the slowest binaries spend their time.
#
#   scripts/bench.sh [--jobs "1 2 N"] [--top K] [--sample-ms MS] [--] [RUNNER OPTION...]
#
#   --jobs LIST     the -j values, one run each (default "1 2 N"; N is
#                   nproc; duplicates count once, runs go in ascending order)
#   --top K         the slowest binaries whose time is broken down (default 10)
#   --sample-ms MS  the sampler's period in milliseconds (default 50)
#   RUNNER OPTION   given to every run (-t attr -x 'attr/inherit*' ...);
#                   -j, --results, --list, --record and --bisect are the
#                   bench's own or make no timing
#
# Each run writes into build/bench/<timestamp>/j<N>/ (the runner's
# --results: results.txt, durations.txt; output.log is what it printed).
# The first run starts in an empty directory; each later one gets the
# previous run's durations.txt, so it starts the longest binaries first, as
# a second `make run` does.
#
# The report (stdout and report.txt in the bench directory):
#   1. per -j: the wall time (the runner's summary line), the sum of the
#      binaries' durations (durations.txt), that sum over the sum at -j2
#      (above 1: the binaries themselves got slower from running side by
#      side) and the speed-up over -j1; then each run's critical path;
#   2. during the run at the highest -j, a sampler reads /proc every MS ms
#      for every thread whose process carries PERFCONF_RUNNER_PID=<the
#      runner's pid> (or belongs to a binary's session): its state (R: on a
#      CPU or waiting for one; anything else is off CPU) and, off CPU, its
#      kernel wait point (the top frame of /proc/PID/task/TID/stack, else
#      wchan; "(D)" marks an uninterruptible sleep). A sample belongs to
#      the binary whose pid is its session id. For the K slowest binaries:
#      samples, % R, % off CPU and the 3 commonest wait points. The harness
#      parent waiting for its case's child (do_wait in the binary's main
#      thread) is counted and labelled "[harness parent]";
#   3. the 10 commonest wait points over all the sleeping samples, with
#      the binaries they came from.
# The sampler is one awk process (two short-lived children per tick, a
# shell for the directory listing and sleep): it takes a little CPU from
# the run it watches.
#
# The sampler's own CPU time is reported with its samples.
#
# The runner: $BENCH_RUNNER, else <this script's dir>/../run_perfconf.sh or
# ../perfconf where that exists (a make install / make dist tree with this
# script copied into <tree>/scripts/; the runs then go to
# <tree>/results/bench/), else ../build/perfconf. For a tree elsewhere
# (a static `make dist` unpacked on a bigger machine):
#   BENCH_RUNNER=<tree>/run_perfconf.sh scripts/bench.sh
# or this build's runner on the tree's binaries:
#   scripts/bench.sh -- --dir <tree> --expected <tree>/expected \
#       --timeouts <tree>/timeouts.conf
# A runner wrapper must exec the runner (run_perfconf.sh does): the
# sampler knows the runner by the pid it started.
#
# Exit: 0 done; 1 a run did not finish (no summary or durations.txt);
# 2 bad arguments, no runner, or a run's setup error (the runner's exit 2).
# The runner's own 0 or 1 (differences from the baseline) is shown, not
# judged.
set -eu

usage='usage: scripts/bench.sh [--jobs "1 2 N"] [--top K] [--sample-ms MS] [--] [RUNNER OPTION...]'
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

die() { # CODE MESSAGE
	echo "bench: $2" >&2
	exit "$1"
}
bad_usage() { die 2 "$1 ($usage)"; }
say() { echo "bench: $*" >&2; }
now() { date +%s.%N; }
is_count() { case $1 in '' | *[!0-9]* | 0*) return 1 ;; esac; }

# --- arguments ---------------------------------------------------------------

ncpu=$(nproc)
jobs_arg="1 2 N"
top=10
sample_ms=50
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) echo "$usage"; exit 0 ;;
	--jobs | --top | --sample-ms)
		[ $# -ge 2 ] || bad_usage "$1 needs a value"
		opt=$1 val=$2
		shift
		;;
	--jobs=* | --top=* | --sample-ms=*) opt=${1%%=*} val=${1#*=} ;;
	--) shift; break ;;
	*) break ;;	# the runner's options begin
	esac
	shift
	case $opt in
	--jobs) jobs_arg=$val ;;
	--top) is_count "$val" || bad_usage "--top needs a number of binaries, not \"$val\""; top=$val ;;
	--sample-ms) is_count "$val" || bad_usage "--sample-ms needs milliseconds, not \"$val\""; sample_ms=$val ;;
	esac
done

# The -j values: numbers or N (nproc), ascending, each once.
jobs=
for j in $jobs_arg; do
	case $j in N | nproc) j=$ncpu ;; esac
	is_count "$j" || bad_usage "--jobs takes -j values (numbers, or N for nproc), not \"$j\""
	jobs="$jobs $j"
done
# shellcheck disable=SC2086 # a list of numbers
jobs=$(printf '%s\n' $jobs | sort -nu | tr '\n' ' ')
jobs=${jobs% }
[ -n "$jobs" ] || bad_usage "--jobs needs at least one -j value"
jmax=${jobs##* }

first=1
for a in "$@"; do
	case $a in
	-j* | --jobs | --jobs=*) bad_usage "-j is the bench's own: give --jobs \"1 2 N\" before the runner options" ;;
	--results | --results=*) bad_usage "--results is the bench's own (each run gets j<N>/)" ;;
	-l | --list | --record | --record=* | --bisect | -h | --help)
		bad_usage "$a makes no timed run" ;;
	esac
	if [ "$first" = 1 ]; then
		case $a in
		diff | restore | info | abi | coverage | matrix | vm | run)
			bad_usage "\"$a\" is a runner subcommand; the bench runs the suite itself" ;;
		esac
	fi
	first=0
done

# The runner: BENCH_RUNNER, an installed tree around this script, or the build.
if [ -n "${BENCH_RUNNER:-}" ]; then
	runner=$BENCH_RUNNER
elif [ -x "$root/perfconf" ] && [ -d "$root/tests" ]; then
	runner=$root/perfconf
	if [ -x "$root/run_perfconf.sh" ]; then runner=$root/run_perfconf.sh; fi
else
	runner=$root/build/perfconf
fi
if [ ! -f "$runner" ] || [ ! -x "$runner" ]; then die 2 "no runner at $runner (build it with make, or set BENCH_RUNNER)"; fi

# --- the bench's directory -----------------------------------------------------

base=$root/results/bench
if [ -d "$root/build" ]; then base=$root/build/bench; fi
mkdir -p "$base"
dir=$base/$(date +%Y%m%d-%H%M%S)
mkdir "$dir" 2>/dev/null || { dir=$dir-$$ && mkdir "$dir"; }

# --- cleanup: the run in flight and the sampler, whatever ends the bench -------

child=
sampler=

# The runner gets TERM (it restores the sysctls and stops its binaries);
# the sampler ends by itself once the runner is gone, within one period.
# shellcheck disable=SC2317 # run from the traps
cleanup() {
	trap - EXIT INT TERM
	if [ -n "$child" ]; then
		kill -TERM "$child" 2>/dev/null || true
		wait "$child" 2>/dev/null || true
	fi
	if [ -n "$sampler" ]; then
		wait "$sampler" 2>/dev/null || true
	fi
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# --- the sampler -----------------------------------------------------------------

# awk -v runner=PID -v period=SECONDS, until the runner is gone: one line
# per tick, "T<TAB>tick", and one per thread of ours,
# "tick<TAB>binary<TAB>main|other<TAB>state<TAB>wait point".
# A process is ours when its environment has PERFCONF_RUNNER_PID=<runner>
# (cached per pid while the pid exists), or when its session is a
# binary's (a child that cleared its environment). A child of the runner
# that is not ours yet may be between fork and exec: asked again next tick.
# shellcheck disable=SC2016 # awk's own $ fields
sampler_awk='
function slurp(f,   l, s) {
	s = ""
	while ((getline l < f) > 0)
		s = s l "\n"
	close(f)
	return s
}
# The fields of /proc/.../stat after "(comm)": s[1] state, s[2] ppid, s[4] session.
function stat(f, s,   l) {
	l = ""
	getline l < f
	close(f)
	if (!match(l, /\)[^)]*$/))
		return 0
	return split(substr(l, RSTART + 2), s, " ")
}
# tests/<area>/<binary> of the session leader, or its command.
function binname(sid,   a, n) {
	if (sid in name)
		return name[sid]
	split(slurp("/proc/" sid "/cmdline"), a, /\000/)
	n = a[1]
	if (n == "")
		return "?"
	if (match(n, /tests\/[^\/]+\/[^\/]+$/))
		n = substr(n, RSTART + 6)
	else
		n = "(" n ")"
	return name[sid] = n
}
function classify(pid,   s, env) {
	if (!stat("/proc/" pid "/stat", s))
		return
	env = slurp("/proc/" pid "/environ")
	if (env ~ envre || s[4] in binsid) {
		ours[pid] = 1
		if (s[4] == pid)
			binsid[pid] = 1
	} else if (s[2] != runner)
		ours[pid] = 0
}
function waitpoint(task, state,   l, w) {
	if (state == "Z" || state == "X")
		return "(exiting)"
	l = ""
	getline l < (task "/stack")
	close(task "/stack")
	sub(/^\[<[^>]*>\] */, "", l)
	sub(/[+ ].*/, "", l)
	w = l
	if (w == "") {
		getline w < (task "/wchan")
		close(task "/wchan")
	}
	if (w == "" || w == "0")
		w = "?"
	return state == "D" ? w " (D)" : w
}
BEGIN {
	envre = "(^|[^A-Za-z0-9_])PERFCONF_RUNNER_PID=" runner "([^0-9]|$)"
	list = "echo /proc/[0-9]*/task/[0-9]*"
	for (tick = 1; ; tick++) {
		if (!stat("/proc/" runner "/stat", r) || r[1] == "Z")
			break
		print "T\t" tick
		line = ""
		list | getline line
		close(list)
		n = split(line, paths, " ")
		split("", seen)
		split("", seensid)
		for (i = 1; i <= n; i++) {
			split(paths[i], a, "/")
			pid = a[3]
			tid = a[5]
			seen[pid] = 1
			if (!(pid in ours))
				classify(pid)
			if (!(pid in ours) || !ours[pid])
				continue
			task = "/proc/" pid "/task/" tid
			if (!stat(task "/stat", s))
				continue
			sid = s[4]
			seensid[sid] = 1
			printf "%d\t%s\t%s\t%s\t%s\n", tick, binname(sid), tid == sid ? "main" : "other", \
				s[1], s[1] == "R" ? "-" : waitpoint(task, s[1])
		}
		for (p in ours)
			if (!(p in seen)) {
				delete ours[p]
				delete binsid[p]
			}
		for (p in name)
			if (!(p in seensid))
				delete name[p]
		fflush()
		system("sleep " period)
	}
	# Its own CPU time, its children (the listing shell, sleep) included.
	if (stat("/proc/self/stat", s) >= 15)
		print "C\t" s[12] + s[13] + s[14] + s[15]
}'

# The runner's last line on FILE, without its "perfconf: " or "# ".
last_words() {
	awk 'NF { l = $0 } END { sub(/^(perfconf: |# )/, "", l); print l == "" ? "(no output)" : l }' "$1"
}

# --- one run ---------------------------------------------------------------------

# J RUNNER-OPTIONS...: the suite at -j J into j<J>/, sampled when J is the
# highest. Sets rc (the runner's exit), wall (its summary's, else measured),
# measured, and checks that the run finished.
run_one() {
	j=$1
	shift
	rd=$dir/j$j
	mkdir "$rd"
	if [ -n "$prev" ]; then cp "$prev/durations.txt" "$rd/durations.txt"; fi
	t0=$(now)
	"$runner" -j "$j" --results "$rd" "$@" >"$rd/output.log" 2>&1 &
	child=$!
	if [ "$j" = "$jmax" ]; then
		ts0=$(now)
		awk -v runner="$child" -v period="$(awk -v ms="$sample_ms" 'BEGIN { printf "%.3f", ms / 1000 }')" \
			"$sampler_awk" >"$rd/samples.tsv" </dev/null &
		sampler=$!
	fi
	rc=0
	wait "$child" || rc=$?
	child=
	measured=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
	if [ -n "$sampler" ]; then
		wait "$sampler" || true
		sampler=
		sampled_s=$(awk -v a="$ts0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
	fi
	if [ "$rc" = 2 ]; then
		die 2 "-j $j: setup error: $(last_words "$rd/output.log") (the runner's exit 2; $rd/output.log)"
	fi
	summary=$(grep -E '^# [0-9]+ binar(y|ies), ' "$rd/output.log" | tail -n 1 || true)
	crit=$(sed -n 's/^# critical path: /critical path: /p' "$rd/output.log" | tail -n 1)
	# results.txt is this run's own (durations.txt may be the seed).
	if [ -z "$summary" ] || [ ! -s "$rd/results.txt" ] || [ ! -s "$rd/durations.txt" ]; then
		die 1 "-j $j: the run did not finish: $(last_words "$rd/output.log") (exit $rc; $rd/output.log)"
	fi
	wall=$(printf '%s\n' "$summary" | sed -n 's/.* cases, \([0-9.]*\) s, -j .*/\1/p')
	[ -n "$wall" ] || wall=$measured
	sum=$(awk '!/^#/ && NF >= 2 { s += $2 } END { printf "%.2f", s }' "$rd/durations.txt")
	nbin=$(grep -vc '^#' "$rd/durations.txt" || true)
	printf '%s %s %s %s %s %s\n' "$j" "$wall" "$sum" "$rc" "$measured" "$nbin" >>"$dir/runs"
	printf '%s\t%s\n' "$j" "${crit:-critical path: (not in the output)}" >>"$dir/crit"
	prev=$rd
	say "-j $j: $wall s, binaries $sum s in all, exit $rc"
}

# --- the report ------------------------------------------------------------------

# Table 1 from $dir/runs: "j wall sum rc measured nbin" lines.
table_runs() {
	awk '
	{ j[NR] = $1; wall[NR] = $2; sum[NR] = $3; rc[NR] = $4; meas[NR] = $5; nbin[NR] = $6
	  if ($1 == 1) w1 = $2; if ($1 == 2) s2 = $3 }
	END {
		printf "%-4s %8s %10s %8s %13s %14s %11s %5s\n", "-j", "wall s", "measured s", "binaries", "sum binary s", "sum / sum -j2", "speed-up -j1", "exit"
		for (i = 1; i <= NR; i++)
			printf "%-4s %8.2f %10.2f %8d %13.2f %14s %11s %5s\n", j[i], wall[i], meas[i], nbin[i], sum[i],
				(s2 > 0) ? sprintf("%.2f", sum[i] / s2) : "-",
				(w1 > 0 && wall[i] > 0) ? sprintf("%.2f", w1 / wall[i]) : "-", rc[i]
	}' "$dir/runs"
}

# Tables 2 and 3 from DURATIONS and SAMPLES.
table_samples() {
	awk -v top="$top" -v period="$sample_ms" -v secs="$sampled_s" -v hz="$(getconf CLK_TCK)" '
	function pct(a, b) { return b > 0 ? 100 * a / b : 0 }
	# The wait point as reported: the harness parent waiting for its case labelled.
	function label(role, wp) { return role == "main" && wp ~ /^do_wait/ ? wp " [harness parent]" : wp }
	FNR == 1 { file++ }
	file == 1 && !/^#/ && NF >= 2 { dur[$1] = $2; order[++nb] = $1; next }
	file == 2 && $1 == "T" { ticks++; next }
	file == 2 && $1 == "C" { cpu = $2 / hz; next }
	file == 2 {
		b = $2
		tot[b]++
		all++
		if ($4 == "R") { run[b]++; allrun++; next }
		w = label($3, $5)
		if (!(w in wcount)) wps[++nw] = w
		wcount[w]++
		wb[b, w]++
		if (!((w, b) in wbseen)) { wbseen[w, b]; wbins[w] = wbins[w] SUBSEP b }
		asleep++
	}
	END {
		printf "samples: %d ticks over %.1f s (one per %.0f ms, asked %d ms), %d thread samples, %.1f%% R, %.1f%% off CPU\n",
			ticks, secs, ticks ? 1000 * secs / ticks : 0, period, all, pct(allrun, all), pct(all - allrun, all)
		if (cpu != "")
			printf "the sampler'"'"'s own CPU time: %.2f s (%.1f%% of one CPU during the run)\n", cpu, pct(cpu, secs)
		print ""
		# Table 2: the slowest binaries (durations.txt, longest first).
		for (i = 1; i <= nb; i++)
			for (k = i + 1; k <= nb; k++)
				if (dur[order[k]] + 0 > dur[order[i]] + 0) { t = order[i]; order[i] = order[k]; order[k] = t }
		if (nb > top) nb = top
		wid = 6
		for (i = 1; i <= nb; i++) if (length(order[i]) > wid) wid = length(order[i])
		printf "%-" wid "s %7s %7s %6s %6s  %s\n", "binary", "dur s", "samples", "% R", "% off", "top wait points (% of the binary'"'"'s samples)"
		for (i = 1; i <= nb; i++) {
			b = order[i]
			n = tot[b] + 0
			tops = ""
			split("", used)
			for (r = 1; r <= 3; r++) {
				best = ""
				for (q = 1; q <= nw; q++) {
					w = wps[q]
					if (!((b, w) in wb) || (w in used)) continue
					if (best == "" || wb[b, w] > wb[b, best]) best = w
				}
				if (best == "") break
				used[best]
				tops = tops (tops == "" ? "" : ", ") sprintf("%s %.0f%%", best, pct(wb[b, best], n))
			}
			if (n == 0) tops = "(no samples: shorter than the period, or gone between ticks)"
			printf "%-" wid "s %7.2f %7d %6s %6s  %s\n", b, dur[b], n,
				n ? sprintf("%.1f", pct(run[b], n)) : "-", n ? sprintf("%.1f", pct(n - run[b], n)) : "-", tops
		}
		# Table 3: the commonest wait points over all the binaries.
		printf "\nthe 10 commonest kernel wait points (%% off: of the %d off-CPU samples)\n", asleep
		printf "%-36s %7s %6s  %s\n", "wait point", "samples", "% off", "binaries (samples)"
		split("", used)
		for (r = 1; r <= 10 && r <= nw; r++) {
			best = ""
			for (q = 1; q <= nw; q++)
				if (!(wps[q] in used) && (best == "" || wcount[wps[q]] > wcount[best])) best = wps[q]
			used[best]
			nbw = split(substr(wbins[best], 2), bl, SUBSEP)
			for (x = 1; x <= nbw; x++)
				for (y = x + 1; y <= nbw; y++)
					if (wb[bl[y], best] > wb[bl[x], best]) { t = bl[x]; bl[x] = bl[y]; bl[y] = t }
			who = ""
			for (x = 1; x <= nbw && x <= 3; x++)
				who = who (x > 1 ? ", " : "") bl[x] " " wb[bl[x], best]
			if (nbw > 3) who = who ", +" (nbw - 3) " more"
			printf "%-36s %7d %6.1f  %s\n", best, wcount[best], pct(wcount[best], asleep), who
		}
		if (nw == 0) print "(no sleeping samples)"
	}' "$1" FS='\t' "$2"
}

# --- the bench -------------------------------------------------------------------

say "-j $jobs with $runner${*:+ $*}, in $dir"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$dir/runs"
: >"$dir/crit"
prev=
sampled_s=0
for j in $jobs; do
	run_one "$j" "$@"
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

{
	echo "bench: $(uname -r) $(uname -m), $ncpu CPUs, $runner${*:+ $*}: $dir"
	echo "load average (1, 5, 15 min): $load0 before, $load1 after"
	echo
	table_runs
	echo
	while IFS="$(printf '\t')" read -r j line; do
		printf '%s\n' "-j $j: $line"
	done <"$dir/crit"
	echo
	echo "where the time goes at -j $jmax, the $top slowest binaries (R: on a CPU or runnable;"
	echo "off: sleeping, (D) uninterruptibly; a sample is one thread at one tick)"
	table_samples "$dir/j$jmax/durations.txt" "$dir/j$jmax/samples.tsv"
} >"$dir/report.txt"
cat "$dir/report.txt"
