#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-lava: run runners/lava/perfconf.yaml as a real LAVA job through
# Debian's own dispatcher (lava-run, package lava-dispatcher), offline, and
# check that what LAVA recorded is what the runner said.
#
#   runners/lava/check.sh [-k M.m] [-a RUNNER_ARGS] [-o DIR]
#
#   -k M.m   the Debian x86_64 kernel line to boot (default 6.1, as make
#            test's x86_64 target); its baseline must be in expected/
#   -a       more runner options in the job (perfconf.yaml's RUNNER_ARGS)
#   -o DIR   where everything goes (default build/lava)
#
# The job (runners/lava/job.yaml, on the device qemu-perfconf.jinja2):
#   deploy  Debian's kernel (the matrix's cache, runners/vm/resolve-kernel.sh);
#           the matrix's busybox root filesystem with no suite
#           (runners/vm/initramfs.sh x86_64 -), to which LAVA appends its own
#           overlay, the kernel's config (/boot, where the lib reads it) and
#           the static dist tarball (/opt/perfconf)
#   boot    qemu (TCG), a root shell on the console
#   test    perfconf.yaml from this repository at the commit under test
#           (HEAD, or a commit of the working tree's changes to tracked files)
#
# The tarball carries one planted regression: the first PASS line of the
# kernel's baseline gets an observation the kernel never reports, so the
# runner must call that case a regression and LAVA must record it as fail.
#
# The check (compare.py): every case of the runner's results.txt (printed
# in the job's log) has exactly one LAVA result and no other case has one;
# each result is what runners/lava/README.md's table says for the case's
# status against the baseline; the planted case is fail; a known failure of
# the baseline (where it has one) is pass; perfconf-exit-code is fail (the
# planted regression). The device dictionary is rendered with the
# device-type templates of Debian's lava-server package at the dispatcher's
# version (fetched once, only its templates unpacked).
#
# Exit: 0 LAVA's results match; 1 they do not, or the job failed; 2 a setup
# error (a missing package, kernel or baseline; not root).
set -euo pipefail

prog=check-lava
src=$(cd "$(dirname "$0")/../.." && pwd)
here=$src/runners/lava
line=6.1 args="" out=build/lava
usage="usage: runners/lava/check.sh [-k M.m] [-a RUNNER_ARGS] [-o DIR]"
while getopts k:a:o: o; do
	case $o in
	k) line=$OPTARG ;;
	a) args=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { echo "$usage" >&2; exit 2; }
die() { echo "$prog: $*" >&2; exit 2; }
[[ $line =~ ^[0-9]+\.[0-9]+$ ]] || die "-k: expected a kernel line like 6.1, got '$line'"
[[ $args != *[\"\\]* ]] || die "-a: no quotes or backslashes (the job passes it as one YAML string)"
[ "$(id -u)" = 0 ] || die "lava-run boots qemu and writes /var/lib/lava: run as root"
cd "$src"
baseline=expected/x86_64-$line-nohw.txt
[ -f "$baseline" ] || die "no baseline $baseline for the x86_64 $line kernel (-k)"

"$src/scripts/apt-install.sh" -p "$prog" lava-dispatcher git cpio python3-yaml python3-jinja2
"$src/runners/vm/deps.sh"

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/job" "$out/run"
mkdir -p "$out/job"
started=$(date +%s)

# The device-type templates, from lava-server at the dispatcher's version.
ver=$(dpkg-query -W -f='${Version}' lava-dispatcher)
types=$out/device-types/$ver
if [ ! -f "$types/qemu.jinja2" ]; then
	echo "$prog: fetching lava-server $ver for its device-type templates" >&2
	rm -rf "$out/device-types" && mkdir -p "$types"
	(cd "$out/device-types" && apt-get -q -o APT::Sandbox::User=root download "lava-server=$ver" >/dev/null) ||
		die "cannot download lava-server $ver (its device-type templates render the device dictionary)"
	dpkg-deb --fsys-tarfile "$out"/device-types/lava-server_*.deb |
		tar -x -C "$types" --strip-components=5 ./usr/share/lava-server/device-types
	rm -f "$out"/device-types/lava-server_*.deb
	[ -f "$types/qemu.jinja2" ] || die "lava-server $ver has no device-types/qemu.jinja2"
fi

# The kernel, the root filesystem and the dist tarball.
kdir=$("$src/runners/vm/resolve-kernel.sh" x86_64 "$line") || die "cannot resolve Debian's x86_64 $line kernel"
kdir=$(cd "$kdir" && pwd)
release=$(cat "$kdir/release")
[ -f "$kdir/config" ] || die "Debian's $release package shipped no config"
ramdisk=$("$src/runners/vm/initramfs.sh" x86_64 -) || die "cannot pack the root filesystem"
cp "$ramdisk" "$out/job/rootfs.cpio"
cp "$kdir/config" "$out/job/config-$release"
dist=$("$src/scripts/install.sh" dist x86_64 "$src/build") || die "make dist failed"

# The planted regression, in a copy of the tarball.
rm -rf "$out/dist" && mkdir -p "$out/dist"
tar -xzf "$dist" -C "$out/dist"
top=$(cd "$out/dist" && echo perfconf-*)
planted_base=$out/dist/$top/$baseline
[ -f "$planted_base" ] || die "$dist has no $baseline"
planted=$(awk '$2 == "PASS" && $1 !~ /^#/ { print $1; exit }' "$planted_base")
[ -n "$planted" ] || die "$baseline has no PASS line to plant a regression in"
awk -v id="$planted" '$1 == id && $2 == "PASS" && !done { $0 = $0 " perfconf_planted=1"; done = 1 } 1' \
	"$planted_base" >"$planted_base.new" && mv "$planted_base.new" "$planted_base"
cp "$planted_base" "$out/job/baseline.txt"
tar -czf "$out/job/$top.tar.gz" -C "$out/dist" "$top"
rm -rf "$out/dist"

# The commit under test: the working tree's tracked files.
rev=$(git stash create 2>/dev/null || true)
rev=${rev:-$(git rev-parse HEAD)}
if [ -n "$(git ls-files --others --exclude-standard -- runners/lava)" ]; then
	echo "$prog: note: untracked files under runners/lava are not in the job (it tests commit $rev)" >&2
fi

# The job and the device, filled in and rendered.
sed -e "s|@KERNEL_RELEASE@|$release|" \
	-e "s|@KERNEL_URL@|file://$kdir/vmlinux|" \
	-e "s|@RAMDISK_URL@|file://$out/job/rootfs.cpio|" \
	-e "s|@CONFIG_URL@|file://$out/job/config-$release|" \
	-e "s|@CONFIG_PATH@|/boot/config-$release|" \
	-e "s|@DIST_URL@|file://$out/job/$top.tar.gz|" \
	-e "s|@REPOSITORY@|$src|" \
	-e "s|@REVISION@|$rev|" \
	-e "s|@RUNNER_ARGS@|$args|" \
	"$here/job.yaml" >"$out/job/job.yaml"
python3 - "$out/job/job.yaml" "$here" "$types" >"$out/job/device.yaml" <<'EOF' || die "cannot render the device dictionary"
# As lava-server does: the dictionary extends a device-type template, and
# the job's context is the template's variables.
import sys, yaml, jinja2
job, dicts, types = sys.argv[1:]
context = yaml.safe_load(open(job)).get("context", {})
env = jinja2.Environment(loader=jinja2.FileSystemLoader([dicts, types]), autoescape=False, trim_blocks=True)
print(env.get_template("qemu-perfconf.jinja2").render(**context))
EOF

echo "$prog: lava-run: Debian's $release kernel, perfconf $top, commit $rev" >&2
lava_rc=0
lava-run --job-id "perfconf-$$" --output-dir "$out/run" --device "$out/job/device.yaml" \
	"$out/job/job.yaml" 2>"$out/lava.log" >/dev/null || lava_rc=$?
echo "$prog: lava-run exited $lava_rc after $(($(date +%s) - started)) s; its log: $out/lava.log" >&2

rc=0
python3 "$here/compare.py" --planted "$planted" "$out/lava.log" "$out/job/baseline.txt" || rc=$?
[ $rc = 0 ] || exit $rc
[ $lava_rc = 0 ] || { echo "$prog: the LAVA job failed (lava-run exited $lava_rc): see $out/lava.log" >&2; exit 1; }

# The check's control: the same log with the planted case's result turned
# to pass and another case's result dropped must fail, naming both.
name=$(printf '%s' "$planted" | sed 's,/,-,g; s,:,.,g; s,[^A-Za-z0-9._-],_,g')
awk -v planted="\"case\": \"$name\"," '
	/"lvl": "results"/ && /_perfconf"/ && index($0, planted) { sub(/"result": "fail"/, "\"result\": \"pass\"") }
	/"lvl": "results"/ && /_perfconf"/ && !index($0, planted) && /"case": "[^"]*\.[^"]*"/ && !dropped { dropped = 1; next }
	{ print }' "$out/lava.log" >"$out/lava-control.log"
ctl=$(python3 "$here/compare.py" --planted "$planted" "$out/lava-control.log" "$out/job/baseline.txt") && ctl_rc=0 || ctl_rc=$?
if [ $ctl_rc != 1 ] || ! grep -q "LAVA recorded pass, expected fail" <<<"$ctl" || ! grep -q ": no LAVA result" <<<"$ctl"; then
	echo "$prog: the control (a changed and a dropped LAVA result) was not caught (exit $ctl_rc):" >&2
	echo "$ctl" >&2
	exit 1
fi
echo "$prog: control: a LAVA result changed and one dropped in a copy of the log are both caught"
rm -f "$out/lava-control.log"
