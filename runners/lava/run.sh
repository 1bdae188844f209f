#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The LAVA side of perfconf (runners/lava/perfconf.yaml calls it on the
# device under test): put the dist tarball's tree in place, run the suite,
# report every case with lava-test-case (parse.sh), one test case for the
# run's exit code, and print results.txt. POSIX sh and busybox are enough:
# no bash, python, compiler or network (unless -u fetches the tarball).
#
#   runners/lava/run.sh [-u URL] [-f TARBALL] [-d DIR] [-s true|false]
#                       [-a RUNNER_ARGS] [-x pass|skip] [-o OUTPUT_DIR]
#
#   -u URL      fetch the tarball (make dist) with wget or curl
#   -f TARBALL  a tarball already on the device (default: the only
#               perfconf-*.tar.gz in DIR)
#   -d DIR      where the tree is unpacked (default /opt/perfconf); with
#               -s true, DIR holds the tree already (DIR/run_perfconf.sh or
#               DIR/perfconf-*/run_perfconf.sh)
#   -s          skip the install step (default false)
#   -a          more runner options, one string split on blanks (-t abi -j 2)
#   -x          the LAVA result of a failure the baseline expects (XFAIL):
#               pass (default) or skip; see runners/lava/README.md
#   -o          output directory (default ./output): the run's stdout
#               (output.txt), ktap.txt, results.txt, rc
#
# Outside LAVA (no lava-test-case on PATH), the results are printed as
# "NAME RESULT" lines. Exit: 0 the run was reported (whatever its verdicts:
# LAVA judges the test cases); 2 bad argument, or no tree to run.
set -eu

prog=lava/run.sh
here=$(cd "$(dirname "$0")" && pwd)
url="" tarball="" dir=/opt/perfconf skip=false args="" xfail=pass out=./output
while getopts u:f:d:s:a:x:o: o; do
	case $o in
	u) url=$OPTARG ;;
	f) tarball=$OPTARG ;;
	d) dir=$OPTARG ;;
	s) skip=$OPTARG ;;
	a) args=$OPTARG ;;
	x) xfail=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $prog [-u URL] [-f TARBALL] [-d DIR] [-s true|false] [-a RUNNER_ARGS] [-x pass|skip] [-o OUTPUT_DIR]" >&2; exit 2 ;;
	esac
done
die() { echo "$prog: $*" >&2; exit 2; }
case $skip in true | false) ;; *) die "-s: expected true or false, got '$skip'" ;; esac
case $xfail in pass | skip) ;; *) die "-x: expected pass or skip, got '$xfail'" ;; esac

mkdir -p "$out"
out=$(cd "$out" && pwd)
if command -v lava-test-case >/dev/null 2>&1; then
	report() { lava-test-case "$1" --result "$2"; }
	parse_opt=""
else
	report() { echo "$1 $2"; }
	parse_opt=-p
fi

# Install: the tarball's single top directory under DIR.
if [ "$skip" = false ]; then
	mkdir -p "$dir"
	if [ -n "$url" ]; then
		tarball=$out/${url##*/}
		case $tarball in *.tar.gz) ;; *) tarball=$out/perfconf.tar.gz ;; esac
		if command -v wget >/dev/null 2>&1; then
			wget -q -O "$tarball" "$url" || die "cannot fetch $url"
		elif command -v curl >/dev/null 2>&1; then
			curl -fsSL -o "$tarball" "$url" || die "cannot fetch $url"
		else
			die "neither wget nor curl to fetch $url"
		fi
	fi
	if [ -z "$tarball" ]; then
		set -- "$dir"/perfconf-*.tar.gz
		[ $# -eq 1 ] && [ -f "$1" ] || die "no -u or -f, and not exactly one perfconf-*.tar.gz in $dir"
		tarball=$1
	fi
	[ -r "$tarball" ] || die "cannot read $tarball"
	top=$(tar -tzf "$tarball" | sed -n '1{s,^\./,,;s,/.*,,;p;}')
	[ -n "$top" ] || die "$tarball is not a perfconf dist tarball"
	rm -rf "${dir:?}/$top"
	tar -xzf "$tarball" -C "$dir" || die "cannot unpack $tarball into $dir"
	tree=$dir/$top
elif [ -x "$dir/run_perfconf.sh" ]; then
	tree=$dir
else
	set -- "$dir"/perfconf-*/run_perfconf.sh
	[ $# -eq 1 ] && [ -x "$1" ] || die "-s true: no installed tree in $dir (DIR/run_perfconf.sh or one DIR/perfconf-*/)"
	tree=${1%/run_perfconf.sh}
fi
[ -x "$tree/run_perfconf.sh" ] || die "no run_perfconf.sh in $tree"
echo "$prog: perfconf $(cat "$tree/VERSION" 2>/dev/null || echo '(no VERSION)') from $tree"

# Run: stdout to the log and output.txt; the exit code kept apart.
rm -rf "$out/results"
set -f
# shellcheck disable=SC2086
{
	rc=0
	"$tree/run_perfconf.sh" --results "$out/results" $args || rc=$?
	echo $rc >"$out/rc"
} | tee "$out/output.txt"
set +f
rc=$(cat "$out/rc")
[ "$rc" = 0 ] && r=pass || r=fail
report perfconf-exit-code "$r"
echo "$prog: the runner exited $rc (0 no regression, 1 a regression or new failure, 2 setup error)"

# Every case and binary, with the runner's verdict.
sh "$here/parse.sh" $parse_opt -x "$xfail" "$out/output.txt" || report perfconf-parse fail

for f in results.txt ktap.txt; do
	[ -f "$out/results/$f" ] && cp "$out/results/$f" "$out/$f"
done
if [ -f "$out/results.txt" ]; then
	echo "=== perfconf: begin results.txt"
	cat "$out/results.txt"
	echo "=== perfconf: end results.txt $(wc -l <"$out/results.txt" | tr -d ' ') lines"
else
	echo "$prog: the runner wrote no results.txt"
	report perfconf-results-file fail
fi
exit 0
