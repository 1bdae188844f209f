#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How well a SIGKILLed run is cleaned up: N times (default 20), start a full
# run, let it go for a random time within one run's length, freeze every
# process of the run (runner, binaries, their forks: the run has a cgroup
# of its own) and SIGKILL them all, then start the runner again. Each line
# says whether the kill left perf_event_paranoid changed and whether the
# restart put it back; the last line sums it up. With --lowered, each kill
# waits (from its random point) for a moment when a privilege cell has the
# level changed: the worst case, every time. Needs root and a cgroup2 mount.
# Usage: scripts/measure-sigkill.sh [--lowered] [N] [BUILD]
set -u
lowered=no
[ "${1:-}" = --lowered ] && { lowered=yes; shift; }
n=${1:-20}
build=${2:-build}
runner=$build/perfconf
paranoid=/proc/sys/kernel/perf_event_paranoid
state_dir=${PERFCONF_STATE_DIR:-/run/perfconf}
[ "$(id -u)" = 0 ] || { echo "measure-sigkill: needs root" >&2; exit 2; }
[ -x "$runner" ] || { echo "measure-sigkill: no runner at $runner (make first)" >&2; exit 2; }
log=$(mktemp -d /tmp/perfconf-sigkill.XXXXXX) || exit 2
orig=$(cat $paranoid)

# The run lives in a cgroup of its own, so that it can be frozen at once
# (cgroup.freeze: runner, binaries and cases stand still together) and
# killed whole (SIGKILL to every process in it).
cg_root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$cg_root" ] || { echo "measure-sigkill: needs a cgroup2 mount to freeze a run" >&2; rm -rf "$log"; exit 2; }
cg=$cg_root/perfconf-sigkill.$$
mkdir "$cg" && [ -e "$cg/cgroup.freeze" ] ||
	{ echo "measure-sigkill: cannot make a freezable cgroup under $cg_root" >&2; rmdir "$cg"; rm -rf "$log"; exit 2; }
trap 'rmdir "$cg" 2>/dev/null; rm -rf "$log"' EXIT

# Start a full run in the cgroup; its pid in $pid.
start_run() {
	bash -c 'echo $$ > "$1/cgroup.procs" && exec "$2" --gate suite --results "$3" >/dev/null 2>&1' \
		_ "$cg" "$runner" "$log/run" &
	pid=$!
}

freeze() {
	echo "$1" > "$cg/cgroup.freeze"
	while ! grep -qx "frozen $1" "$cg/cgroup.events"; do sleep 0.001; done
}

# Freeze the run (with --lowered: at a moment when a cell has the level changed), then kill it all.
kill_run() {
	local v
	freeze 1
	while [ $lowered = yes ] && read -r v < $paranoid && [ "$v" = "$orig" ] && kill -0 "$pid" 2>/dev/null; do
		freeze 0
		while read -r v < $paranoid && [ "$v" = "$orig" ] && kill -0 "$pid" 2>/dev/null; do :; done
		freeze 1
	done
	while read -r v < "$cg/cgroup.procs"; do
		xargs -r kill -KILL < "$cg/cgroup.procs" 2>/dev/null
		sleep 0.01
	done
	freeze 0
	wait "$pid" 2>/dev/null
}

start=$(date +%s%N)
"$runner" --gate suite --results "$log/full" >/dev/null 2>&1
len_ms=$((($(date +%s%N) - start) / 1000000))
echo "# perf_event_paranoid $orig; a full run takes ${len_ms} ms; $n kills at random points of one" \
	"$([ $lowered = yes ] && echo '(each at the next moment a cell has the level changed)')"

changed=0 restored=0 ok=0
for i in $(seq 1 "$n"); do
	span=$len_ms
	[ $lowered = yes ] && span=$((len_ms / 2))	# so that cells are still to come
	at=$(( (RANDOM * 32768 + RANDOM) % span ))
	start_run
	sleep "$(printf '%d.%03d' $((at / 1000)) $((at % 1000)))"
	kill_run "$pid" 2>/dev/null	# not the shell's note that the run was "Killed"
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
