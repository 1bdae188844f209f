#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The README's commands on a fresh Debian 12 machine, proved in a clean root
# (`make check-fresh`; opt-in, not part of `make test`): that the project's
# own files install everything they use, with nothing installed by hand.
#
#   scripts/check-fresh.sh [TARGET...]
#
# 1. A Debian 12 root made with debootstrap (Debian's package; its default
#    set, plus git and make: what it takes to clone and to type make), kept
#    as build/fresh/bookworm.tar and unpacked afresh for every check
#    (delete the tarball to make it again). Its apt sources are a Debian 12
#    machine's: bookworm, bookworm-updates and bookworm-security.
# 2. Each step in a mount namespace of its own whose root is that root
#    (pivot_root, not chroot: the kernel refuses user namespaces to a
#    chrooted process, and the suite builds identities in them), with
#    /proc, /sys, /dev and /run bound in as a machine has them (recursive
#    binds: cgroups, /dev/shm come along), and the host's resolv.conf. The
#    binds end with the namespace: nothing to undo on the host.
# 3. A fresh clone of this repository's HEAD (committed work only) in
#    /root/perfconf, and there, as root:
#      make run                       the suite against its baseline
#      build/perfconf matrix TARGET…  one default target and one opt-in
#                                     target of each kind (default:
#                                     x86_64-6.1 riscv64-6.12 s390x-6.12
#                                     x86_64-6.12-i386)
# 4. No process of a step may outlive it (each is named, then killed).
#
# Each step prints its time; its output goes to build/fresh/<step>.log, and
# a failed step's tail is shown. Exit: 0 every step passed; 1 a step failed
# (or left a process); 2 a setup error here (not root, no debootstrap, no
# network).
# Environment: FRESH_MIRROR (http://deb.debian.org), FRESH_DIR (build/fresh).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
dir=${FRESH_DIR:-$src/build/fresh}
mirror=${FRESH_MIRROR:-http://deb.debian.org}
targets=${*:-x86_64-6.1 riscv64-6.12 s390x-6.12 x86_64-6.12-i386}
die() { echo "check-fresh: $*" >&2; exit 2; }
say() { echo "check-fresh: $*" >&2; }
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }'; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, mount namespaces and the suite itself)"
sh "$src/scripts/apt-install.sh" -p check-fresh debootstrap debian-archive-keyring git ||
	die "cannot install debootstrap"
git -C "$src" rev-parse --verify -q HEAD >/dev/null || die "$src: not a git checkout with a commit"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
root=$dir/root
t_all=$(date +%s.%N)

# --- the root ---------------------------------------------------------------

# The process of the running step's namespace ("" between steps), and its
# namespace: INT or TERM ends all of it (bash would run a trap only after a
# foreground step ended).
step_pid="" step_ns=""
# NSFILE: KILL every process of the mount namespace named in NSFILE; prints them.
ns_kill() {
	local p ns
	ns=$(cat "$1" 2>/dev/null) || return 0
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] || continue
		printf ' %s(%s)' "${p#/proc/}" "$(cat "$p/comm" 2>/dev/null)"
		kill -KILL "${p#/proc/}" 2>/dev/null || true
	done
}
stop() {
	[ -z "$step_ns" ] || ns_kill "$step_ns" >/dev/null
	if [ -n "$step_pid" ]; then
		kill -KILL "$step_pid" 2>/dev/null || true
		wait "$step_pid" 2>/dev/null || true
	fi
	say "stopped"
	exit "$1"
}
trap 'stop 130' INT
trap 'stop 143' TERM

# The binds live in the steps' namespaces only: the host sees none under the root.
[ ! -d "$root" ] || rm -rf --one-file-system "$root"
if [ ! -s "$dir/bookworm.tar" ]; then
	t0=$(date +%s.%N)
	say "debootstrap bookworm (once; kept as $dir/bookworm.tar)"
	rm -rf "$dir/base"
	debootstrap --include=git,make bookworm "$dir/base" "$mirror/debian" >"$dir/debootstrap.log" 2>&1 ||
		{ tail -n 5 "$dir/debootstrap.log" >&2; die "debootstrap failed (log: $dir/debootstrap.log)"; }
	tar -C "$dir/base" -cf "$dir/bookworm.tar.tmp" . && mv "$dir/bookworm.tar.tmp" "$dir/bookworm.tar"
	rm -rf --one-file-system "$dir/base"
	say "debootstrap: $(secs "$t0") s"
fi
mkdir -p "$root"
tar -C "$root" -xf "$dir/bookworm.tar"
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror/debian bookworm main
deb $mirror/debian bookworm-updates main
deb $mirror/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
git clone -q --no-local "$src" "$root/root/perfconf" || die "cannot clone $src"
say "a fresh clone of $(git -C "$src" log -1 --format='%h %s' | cut -c1-60) in $root/root/perfconf"

# --- the README's commands --------------------------------------------------

failed=0
# NAME COMMAND: COMMAND in the root's clone, as root, with a login's
# environment, in a mount namespace whose root is the root (item 2 above).
# No process of that namespace may outlive the step.
step() {
	local name=$1 t0 rc=0 left
	t0=$(date +%s.%N)
	rm -f "$dir/$name.mntns"
	step_ns=$dir/$name.mntns
	# shellcheck disable=SC2016 # the inner shell's variables
	unshare --mount --propagation private -- /bin/bash -c '
		set -e
		root=$1 ns=$2
		readlink /proc/self/ns/mnt >"$ns"
		mount --rbind "$root" "$root"
		for m in proc sys dev run; do mount --rbind "/$m" "$root/$m"; done
		cd "$root"
		mkdir -p .host
		pivot_root . .host
		umount -l /.host
		rmdir /.host
		exec /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/bin/bash -c "cd /root/perfconf && $3"' step "$root" "$step_ns" "$2" >"$dir/$name.log" 2>&1 &
	step_pid=$!
	wait "$step_pid" || rc=$?
	step_pid=""
	if [ "$rc" = 0 ]; then
		say "$name: passed in $(secs "$t0") s ($(grep -E '^[0-9]+ passed|^matrix: [0-9]+ targets' "$dir/$name.log" | tail -n 1))"
	else
		say "$name: FAILED (exit $rc) in $(secs "$t0") s; its last lines ($dir/$name.log):"
		tail -n 25 "$dir/$name.log" | sed 's/^/    /' >&2
		failed=1
	fi
	left=$(ns_kill "$step_ns")
	step_ns=""
	if [ -n "$left" ]; then
		say "$name: processes left behind, killed:$left"
		failed=1
	fi
}
step make-run "make run"
step matrix "build/perfconf matrix $targets"

say "$([ "$failed" = 0 ] && echo passed || echo FAILED) in $(secs "$t_all") s"
exit "$failed"
