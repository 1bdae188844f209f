#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How well a SIGKILLed run is cleaned up: N times (default 20), start a full
# run, let it go for a random time within one run's length, stop every
# process of the run (runner, binaries, their forks) and SIGKILL them all,
# then start the runner again. Each line says whether the kill left
# perf_event_paranoid changed and whether the restart put it back; the last
# line sums it up. Needs root. Usage: scripts/measure-sigkill.sh [N] [BUILD]
set -u
n=${1:-20}
build=${2:-build}
runner=$build/perfconf
paranoid=/proc/sys/kernel/perf_event_paranoid
state_dir=${PERFCONF_STATE_DIR:-/run/perfconf}
[ "$(id -u)" = 0 ] || { echo "measure-sigkill: needs root" >&2; exit 2; }
[ -x "$runner" ] || { echo "measure-sigkill: no runner at $runner (make first)" >&2; exit 2; }
log=$(mktemp -d /tmp/perfconf-sigkill.XXXXXX) || exit 2
trap 'rm -rf "$log"' EXIT
orig=$(cat $paranoid)

# The pids of a run: every process whose environment names the runner.
members() {
	local e
	for e in /proc/[0-9]*/environ; do
		grep -qzx "PERFCONF_RUNNER_PID=$1" "$e" 2>/dev/null && { e=${e#/proc/}; echo "${e%/environ}"; }
	done
}

# Stop the runner and every member until none is left running, then kill them all.
kill_run() {
	local pid=$1 more=1 p
	kill -STOP "$pid" 2>/dev/null
	while [ $more = 1 ]; do
		more=0
		for p in $(members "$pid"); do
			grep -q ') T ' /proc/$p/stat 2>/dev/null && continue
			kill -STOP "$p" 2>/dev/null && more=1
		done
	done
	for p in $(members "$pid"); do kill -KILL "$p" 2>/dev/null; done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

start=$(date +%s%N)
"$runner" --gate suite --results "$log/full" >/dev/null 2>&1
len_ms=$((($(date +%s%N) - start) / 1000000))
echo "# perf_event_paranoid $orig; a full run takes ${len_ms} ms; $n kills at random points of one"

changed=0 restored=0 ok=0
for i in $(seq 1 "$n"); do
	at=$(( (RANDOM * 32768 + RANDOM) % len_ms ))
	"$runner" --gate suite --results "$log/run" >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((at / 1000)) $((at % 1000)))"
	kill_run "$pid"
	after_kill=$(cat $paranoid)
	saved=no; [ -e "$state_dir/sysctl.state" ] && saved=yes
	"$runner" -t abi --results "$log/restart" >"$log/restart.out" 2>&1
	after_restart=$(cat $paranoid)
	said=$(grep -o 'restored [0-9]* sysctl[s]* an earlier run left changed' "$log/restart.out" || true)
	[ "$after_kill" != "$orig" ] && changed=$((changed + 1)) && [ "$after_restart" = "$orig" ] &&
		restored=$((restored + 1))
	[ "$after_restart" = "$orig" ] && ok=$((ok + 1))
	printf 'kill %2d at %5d ms: paranoid %2s after the kill (state file: %s), %2s after the restart%s\n' \
		"$i" "$at" "$after_kill" "$saved" "$after_restart" "${said:+ ($said)}"
done
echo "# $n kills: $changed left perf_event_paranoid changed, the restart restored $restored of them;" \
	"$ok of $n ended at the original value ($orig)"
[ "$ok" = "$n" ]
