#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages that are missing, once: the shared part of
# scripts/deps.sh (the build) and runners/vm/deps.sh (the VM matrix).
#
#   scripts/apt-install.sh [-p PREFIX] PACKAGE...
#
# Quiet when every package is installed (dpkg-query says "ok installed").
# Otherwise, as root: apt-get update, then apt-get install of the missing
# ones (no recommends, 3 retries per download, up to 120 s waiting for
# another apt to release its lock), "PREFIX: installing ..." on stderr.
# Not root: one message naming the packages and the command to run.
# PREFIX (default "perfconf") starts each message.
#
# Exit: 0 everything is installed; 2 something is missing and could not be
# installed (one message on stderr says what and why).
set -eu

prefix=perfconf
if [ "${1:-}" = -p ]; then
	prefix=${2:?usage: scripts/apt-install.sh [-p PREFIX] PACKAGE...}
	shift 2
fi
[ $# -gt 0 ] || { echo "usage: scripts/apt-install.sh [-p PREFIX] PACKAGE..." >&2; exit 2; }

missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "$prefix: missing Debian packages:$missing (run as root, or: apt-get install$missing)" >&2
	exit 2
fi

echo "$prefix: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp "${TMPDIR:-/tmp}/apt-install.XXXXXX")
trap 'rm -f "$log"' EXIT
trap 'exit 130' INT TERM

# apt-get, its output kept for the failure message.
run_apt() { apt-get -q -o Acquire::Retries=3 -o DPkg::Lock::Timeout=120 "$@" >"$log" 2>&1; }

# One message: what failed, then apt's own reason (its first error lines).
fail() {
	why=$(grep -E '^(E|Err):' "$log" | head -n 2 | tr '\n' ' ' | sed 's/ *$//')
	echo "$prefix: $1 failed${why:+: $why}" >&2
	exit 2
}

run_apt update || fail "apt-get update"
# shellcheck disable=SC2086
run_apt install -y --no-install-recommends $missing || fail "apt-get install$missing"
