#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A flake detector: run the suite N times, on this host or on a matrix
# target, optionally under load, and print every case whose result changed.
#
#   scripts/soak.sh N [--stress] [--target TARGET] [--] [RUNNER OPTION...]
#
#   N              runs, at least 2
#   --stress       stress-ng (CPU, memory and I/O hogs) for the whole soak
#   --target T     each run is `build/perfconf matrix T` (a Debian kernel
#                  under qemu) instead of the runner on this host
#   RUNNER OPTION  given to every run's runner (-t attr/foo -j 2 ...);
#                  --results belongs to the soak. With --target they reach
#                  the guest's runner through VM_ARGS, split at spaces.
#
# Each run keeps its files in build/soak/<timestamp>/run-<i>/: results.txt
# and output.log (what the runner printed); on the host the runner writes
# there itself (--results), for a target vm/ holds the target's directory
# (VM_RESULTS) and its results.txt is copied up.
#
# A case changed when its record (the results.txt line after the case id:
# status and observations) differs between runs, or is missing from one.
# Each changed case is printed with every run's record, identical runs
# grouped:
#
#   events/sw_page_faults:global.counts
#       runs 1-2,4-20: PASS faults=64
#       run 3: FAIL faults=65
#
# then a table: runs, cases, cases changed, the runner's exit per run, wall
# time per run. Progress goes to stderr; the report to stdout and report.txt.
#
# Exit: 0 no case changed; 1 a case changed, or a run did not finish (no
# results.txt: a killed runner, a target that timed out); 2 bad arguments,
# no runner, no stress-ng, or a run's setup error (the runner's exit 2).
# The runner's own 0 or 1 is reported, not judged: a case that fails in
# every run is a regression, not a flake.
#
# SOAK_RUNNER: the runner (default build/perfconf), so that a test can put
# a fake one in its place; SOAK_DIR: where the soaks' directories go
# (default build/soak).
set -eu

usage="usage: scripts/soak.sh N [--stress] [--target TARGET] [--] [RUNNER OPTION...]"
root=$(cd "$(dirname "$0")/.." && pwd)
runner=${SOAK_RUNNER:-$root/build/perfconf}

die() { # CODE MESSAGE
	echo "soak: $2" >&2
	exit "$1"
}
bad_usage() { die 2 "$1 ($usage)"; }
say() { echo "soak: $*" >&2; }
now() { date +%s.%N; }

# --- arguments ---------------------------------------------------------------

[ $# -gt 0 ] || bad_usage "missing N, the number of runs"
case $1 in -h | --help) echo "$usage"; exit 0 ;; esac
case $1 in '' | *[!0-9]*) bad_usage "N must be a number of runs, not \"$1\"" ;; esac
[ "$1" -ge 2 ] || bad_usage "N must be at least 2 to compare runs"
n=$1
shift
stress=0
target=
while [ $# -gt 0 ]; do
	case $1 in
	--stress) stress=1 ;;
	--target)
		if [ $# -lt 2 ] || [ -z "$2" ]; then
			bad_usage "--target needs a target (x86_64-6.1, arm64-6.1...)"
		fi
		target=$2
		shift
		;;
	--target=?*) target=${1#--target=} ;;
	--) shift; break ;;
	*) break ;;	# the runner's options begin
	esac
	shift
done
for a in "$@"; do
	case $a in
	--results | --results=*) bad_usage "--results is the soak's own (each run gets run-<i>/)" ;;
	esac
	if [ -n "$target" ]; then
		case $a in
		*[[:space:]\'\"\\]*) bad_usage "with --target, runner options reach the guest through VM_ARGS: no spaces or quotes in \"$a\"" ;;
		esac
	fi
done
[ -x "$runner" ] || die 2 "no runner at $runner (build it with make)"
if [ "$stress" = 1 ] && ! command -v stress-ng >/dev/null; then
	die 2 "--stress needs stress-ng (scripts/deps.sh build, or apt-get install stress-ng)"
fi

# --- the soak's directory ----------------------------------------------------

top=${SOAK_DIR:-$root/build/soak}
dir=$top/$(date +%Y%m%d-%H%M%S)
mkdir -p "$top"
mkdir "$dir" 2>/dev/null || { dir=$dir-$$ && mkdir "$dir"; }

# --- cleanup: the run in flight and stress-ng, whatever ends the soak --------

child=
stress_pid=

# A run is a process group of its own (run_one): TERM goes to all of it,
# the runner or matrix.sh, which handle it (sysctls restored, qemu stopped),
# and whatever they had in the foreground (a build, whose end a shell's trap
# would wait for). What is left 10 s after the run's leader ended gets KILL.
# shellcheck disable=SC2317 # run from the traps
stop_child() {
	[ -n "$child" ] || return 0
	kill -TERM "-$child" 2>/dev/null || kill -TERM "$child" 2>/dev/null || true
	wait "$child" 2>/dev/null || true
	t=0
	while kill -0 "-$child" 2>/dev/null && [ "$t" -lt 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	kill -KILL "-$child" 2>/dev/null || true
	child=
}

# The commands of the live (not zombie) processes of stress-ng's session
# (its id is stress_pid; see start_stress).
stress_procs() {
	ps -o stat=,comm= -s "$stress_pid" 2>/dev/null | awk '$1 !~ /^Z/ { print $2 }'
}
stress_alive() { [ -n "$(stress_procs)" ]; }

# TERM to stress-ng's process group, KILL to what is left after 10 s.
stop_stress() {
	[ -n "$stress_pid" ] || return 0
	kill -TERM "-$stress_pid" 2>/dev/null || true
	t=0
	while stress_alive && [ "$t" -lt 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	kill -KILL "-$stress_pid" 2>/dev/null || true
	wait "$stress_pid" 2>/dev/null || true
	stress_pid=
	rm -rf "$dir/stress-tmp"
}

# shellcheck disable=SC2317 # run from the traps
cleanup() {
	trap - EXIT INT TERM
	stop_child
	stop_stress
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# --- load --------------------------------------------------------------------

# What a busy CI machine carries besides the suite, not a saturated one
# (hogs at 100 % turn cases into timeouts, a question of timeout sizes,
# not of flakes):
#   --cpu NCPU --cpu-load 50  other jobs keep every CPU about half busy:
#                             the tests are preempted and migrate at
#                             arbitrary points, and their wakeups wait;
#   --vm 1 --vm-bytes 10%     a neighbour churning anonymous memory (page
#                             faults, allocation, some reclaim), far from
#                             the OOM killer;
#   --iomix 1 --iomix-bytes 64M  a neighbour doing file I/O (reads,
#                             writes, fsync: block and writeback work in
#                             the kernel), on a bounded file in the soak's
#                             directory.
# stress-ng runs in a session and process group of its own (setsid), so
# stop_stress reaches every hog and the terminal's ^C none. Its leader is a
# watchdog shell: on TERM it waits for stress-ng to finish (so nothing is
# left a zombie), and if this script dies without running its traps
# (SIGKILL) it stops the group itself, so no hog outlives the soak.
start_stress() {
	mkdir "$dir/stress-tmp"
	# shellcheck disable=SC2016 # $1 and $@ are the inner shell's
	setsid sh -c '
		parent=$1
		shift
		"$@" &
		trap "wait $!; exit" TERM
		while kill -0 "$parent" 2>/dev/null; do sleep 1; done
		trap "" TERM
		kill -TERM 0
		sleep 10
		kill -KILL 0' soak-stress "$$" \
		stress-ng --cpu "$(nproc)" --cpu-load 50 --vm 1 --vm-bytes 10% \
		--iomix 1 --iomix-bytes 64M --temp-path "$dir/stress-tmp" \
		>"$dir/stress.log" 2>&1 &
	stress_pid=$!
	sleep 2
	check_stress
	say "stress-ng: $(sed -n 's/.*dispatching hogs: //p' "$dir/stress.log")"
}

# stress-ng itself (not only the watchdog) is still running.
check_stress() {
	stress_procs | grep -qx stress-ng && return 0
	tail -n 5 "$dir/stress.log" >&2
	die 2 "stress-ng stopped (see $dir/stress.log)"
}

# --- one run -----------------------------------------------------------------

# RUN RUNNER-OPTIONS...: the runner, or the target's matrix run, in the
# background (so that a signal reaches the trap at once) and in a process
# group of its own (setsid: a background child of this shell leads none,
# so setsid runs it in place and its pid is the group's), into run-RUN/.
# Sets rc to the runner's exit code.
run_one() {
	rd=$dir/run-$1
	shift
	mkdir "$rd"
	if [ -z "$target" ]; then
		setsid "$runner" --results "$rd" "$@" >"$rd/output.log" 2>&1 &
	else
		VM_RESULTS=$rd/vm VM_ARGS="${VM_ARGS:+$VM_ARGS }$*" \
			setsid "$runner" matrix "$target" >"$rd/output.log" 2>&1 &
	fi
	child=$!
	rc=0
	wait "$child" || rc=$?
	child=
	if [ -n "$target" ]; then
		# One target, so one directory under vm/.
		for f in "$rd"/vm/*/results.txt; do
			if [ -f "$f" ]; then cp "$f" "$rd/results.txt"; fi
		done
	fi
}

# --- comparison --------------------------------------------------------------

# awk: "runs 1-2,4-20" for the ascending run numbers in a string.
awk_ranges='
function ranges(list,   a, n, i, out, first, last) {
	n = split(list, a, " ")
	first = last = a[1]
	out = ""
	for (i = 2; i <= n + 1; i++) {
		if (i <= n && a[i] == last + 1) { last = a[i]; continue }
		out = out (out == "" ? "" : ",") (first == last ? first : first "-" last)
		if (i <= n) first = last = a[i]
	}
	return (n > 1 ? "runs " : "run ") out
}'

# RUN...: the finished runs, whose run-<i>/results.txt are compared. Prints
# each changed case as "id<TAB>runs ...: record<TAB>run ...: record", and
# the number of case ids seen into $dir/cases.
changed_cases() {
	for r in "$@"; do
		shift
		set -- "$@" "$dir/run-$r/results.txt"
	done
	awk -v cases="$dir/cases" "$awk_ranges"'
	{
		r = FILENAME
		sub(/.*run-/, "", r)
		sub(/\/.*/, "", r)
		if (!(r in isrun)) { isrun[r]; runs[++nr] = r }
	}
	/^[ \t]*(#|$)/ { next }
	{
		id = $1
		v = $0
		sub(/^[ \t]*[^ \t]+[ \t]*/, "", v)
		sub(/[ \t\r]+$/, "", v)
		if (!(id in seen)) { seen[id]; ids[++nid] = id }
		rec[id, r] = v == "" ? "(empty)" : v
	}
	END {
		for (k = 1; k <= nid; k++) {
			id = ids[k]
			nv = 0
			split("", who)
			for (i = 1; i <= nr; i++) {
				v = ((id, runs[i]) in rec) ? rec[id, runs[i]] : "(no result)"
				if (v in who)
					who[v] = who[v] " " runs[i]
				else {
					vals[++nv] = v
					who[v] = runs[i]
				}
			}
			if (nv < 2)
				continue
			line = id
			for (j = 1; j <= nv; j++)
				line = line "\t" ranges(who[vals[j]]) ": " vals[j]
			print line
		}
		print nid + 0 > cases
	}' "$@" | LC_ALL=C sort
}

# --- the soak ----------------------------------------------------------------

where=${target:-host $(uname -r)}
if [ "$stress" = 1 ]; then where="$where, under stress-ng"; fi
say "$n runs on $where, in $dir"
if [ "$stress" = 1 ]; then start_stress; fi

: >"$dir/rcs"
: >"$dir/walls"
finished=""
incomplete=""
i=1
while [ "$i" -le "$n" ]; do
	if [ "$stress" = 1 ]; then check_stress; fi
	t0=$(now)
	run_one "$i" "$@"
	wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
	res=$dir/run-$i/results.txt
	if [ "$rc" = 2 ]; then
		tail -n 5 "$dir/run-$i/output.log" >&2
		die 2 "run $i: setup error (the runner's exit 2; see $dir/run-$i/output.log)"
	fi
	echo "$i $rc" >>"$dir/rcs"
	echo "$wall" >>"$dir/walls"
	if [ -s "$res" ] && { [ "$rc" = 0 ] || [ "$rc" = 1 ]; }; then
		finished="$finished $i"
		say "run $i/$n: exit $rc, $wall s, $(grep -vc '^#' "$res") cases"
	else
		incomplete="$incomplete $i"
		why="exit $rc"
		[ -s "$res" ] || why="$why, no results.txt"
		say "run $i/$n: did not finish ($why; see $dir/run-$i/output.log), left out"
	fi
	i=$((i + 1))
done
stop_stress

# shellcheck disable=SC2086 # a list of numbers
changed_cases $finished >"$dir/changed" </dev/null
nchanged=$(wc -l <"$dir/changed")
{
	awk -F '\t' '{ print $1; for (i = 2; i <= NF; i++) print "    " $i }' "$dir/changed"
	[ "$nchanged" = 0 ] || echo
	echo "soak: $n runs on $where: $dir"
	printf '%-20s %s\n' runs "$n${incomplete:+ (did not finish:$incomplete, left out)}"
	printf '%-20s %s\n' cases "$(cat "$dir/cases")"
	printf '%-20s %s\n' "cases changed" "$nchanged"
	printf '%-20s %s\n' "runner exit" "$(sort -k2,2n -k1,1n "$dir/rcs" | awk "$awk_ranges"'
		NR == 1 || $2 != rc { if (NR > 1) out = out "; " rc ": " ranges(l); rc = $2; l = "" }
		{ l = l " " $1 }
		END { print substr(out "; " rc ": " ranges(l), 3) }')"
	printf '%-20s %s\n' "wall s per run" "$(sort -n "$dir/walls" | awk '
		{ w[NR] = $1 }
		END {
			m = NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
			printf "min %.2f, median %.2f, max %.2f\n", w[1], m, w[NR]
		}')"
} | tee "$dir/report.txt"

if [ "$nchanged" = 0 ] && [ -z "$incomplete" ]; then exit 0; fi
exit 1
