#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Check a dist tarball (make dist) on "a machine with no build tools": a
# throwaway root holding busybox-static and the unpacked tarball only (no
# libc, no compiler, no source), /proc, /sys (with the cgroup, tracefs and
# debugfs mounts the host has under it) and /dev bind-mounted, in a mount and
# network namespace of its own (unshare), so that no mount can outlive the
# check and no network is there. Makes it the root (pivot_root; the old
# root is unmounted), runs the tree's run_perfconf.sh there with an empty
# environment, and checks that it exits 0 and wrote results.txt.
#
#   scripts/check-dist.sh TARBALL [RUNNER_ARGS...]   (default: -t abi)
#
# The runner runs with --gate suite before RUNNER_ARGS, as make test runs
# the host build: only the suite's own faults (a binary that does not run,
# a crash, a timeout) fail the check; differences between this host's
# kernel and its baseline are shown, not counted (--gate baseline undoes
# it). The kernel config (/proc/config.gz, else /boot/config-<release>) is
# the machine's, not a build tool: /boot/config-<release> is copied in.
# /run/perfconf is the host's (bind-mounted): the run lock and the record
# of changed sysctls are the machine's, whatever root a run sees.
# ktap.txt, results.txt and the output go to CHECK_DIST_OUT (default
# build/check-dist). Needs root; installs busybox-static when missing.
# Exit: 0 passed; 1 the check failed; 2 bad argument or missing dependency.
set -euo pipefail

prog=check-dist
src=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "$prog: $*" >&2; exit 2; }

[ $# -ge 1 ] || die "usage: scripts/check-dist.sh TARBALL [RUNNER_ARGS...]"
tarball=$1
shift
[ $# -gt 0 ] || set -- -t abi
[ -r "$tarball" ] || die "cannot read $tarball"
[ "$(id -u)" = 0 ] || die "needs root (chroot, mounts)"
sh "$src/scripts/apt-install.sh" -p "$prog" busybox-static util-linux || exit 2
for c in unshare pivot_root chroot mount tar; do
	command -v "$c" >/dev/null || die "$c missing"
done
out=${CHECK_DIST_OUT:-build/check-dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/perfconf-check-dist.XXXXXX")
pid=""
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	# The mounts lived in the namespace, which is gone with its processes;
	# a mount still seen under $tmp would be a bug: never delete through it.
	if grep -q " ${tmp}/" /proc/self/mountinfo; then
		echo "$prog: mounts left under $tmp; not removing it" >&2
	else
		rm -rf --one-file-system "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

root=$tmp/root
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,boot,opt}
chmod 1777 "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
chroot "$root" /bin/busybox --install -s /bin
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
cfg=/boot/config-$(uname -r)
[ -r "$cfg" ] && cp "$cfg" "$root/boot/"

top=$(tar -tzf "$tarball" | sed -n '1{s,^\./,,;s,/.*,,;p;}')
[ -n "$top" ] || die "$tarball is empty"
tar -xzf "$tarball" -C "$root/opt" || die "cannot unpack $tarball"
[ -x "$root/opt/$top/run_perfconf.sh" ] || die "$tarball has no $top/run_perfconf.sh"
echo "$prog: $top ($(cat "$root/opt/$top/VERSION")) in a root of busybox and the tarball only: $(du -sh "$root" | cut -f1)"
if find "$root" -name 'ld-linux*' -o -name 'libc.so*' | grep -q .; then
	echo "$prog: FAIL: the root holds a dynamic loader or libc" >&2
	exit 1
fi

# Inside a private mount namespace and an empty network namespace: mount,
# make the root the namespace's root (pivot_root, as a booted machine's /:
# a chroot would leave the test processes' /proc/self/maps paths outside
# their root once the lib unshares a namespace to mount tracefs, and uprobes
# would fail on them), drop the old one, then become the runner (exec), so
# that killing $pid stops the run.
start=$(date +%s.%N)
set +e
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --net --propagation private /bin/sh -c '
	set -e
	root=$1 top=$2
	shift 2
	mount --bind "$root" "$root"
	for m in proc sys dev; do mount --rbind "/$m" "$root/$m"; done
	# The machine'"'"'s run lock and sysctl record: one run at a time, and
	# what this run changes is restored by the next if it dies.
	mkdir -p /run/perfconf "$root/run/perfconf"
	mount --bind /run/perfconf "$root/run/perfconf"
	mkdir "$root/.oldroot"
	cd "$root"
	pivot_root . .oldroot
	exec /bin/busybox env -i PATH=/bin:/sbin HOME=/ TMPDIR=/tmp /bin/sh -c "
		umount -l /.oldroot && rmdir /.oldroot && cd / &&
		exec /opt/$top/run_perfconf.sh --results /results --gate suite \"\$@\"" sh "$@"
' check-dist "$root" "$top" "$@" >"$out/output.txt" 2>"$out/stderr.txt" &
pid=$!
wait "$pid"
rc=$?
pid=""
set -e
secs=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')

tail -n 3 "$out/output.txt"
[ -s "$out/stderr.txt" ] && sed 's/^/stderr: /' "$out/stderr.txt" | tail -n 5
for f in results.txt ktap.txt; do
	[ -f "$root/results/$f" ] && cp "$root/results/$f" "$out/$f"
done
fail=""
[ "$rc" = 0 ] || fail="the runner exited $rc"
[ -s "$out/results.txt" ] || fail="${fail:+$fail; }no results.txt"
if [ -n "$fail" ]; then
	echo "$prog: FAIL: $fail (output in $out)" >&2
	exit 1
fi
echo "$prog: ok: $top ran in ${secs} s with no libc, compiler or source ($(grep -c '^[a-z]' "$out/results.txt") cases in $out/results.txt)"
