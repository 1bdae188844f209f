#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite as a self-contained tree that runs without the source tree, a
# compiler or network (make install, make dist):
#
#   scripts/install.sh install BUILD_DIR DEST   the tree from BUILD_DIR into DEST
#   scripts/install.sh dist ARCH OUT_DIR        a static, stripped tarball:
#                                               OUT_DIR/perfconf-<version>-<ARCH>.tar.gz
#
# The tree: perfconf (the runner), tests/<area>/<binary> (one per
# tests/<area>/<binary>.c of the source), expected/*.txt, timeouts.conf
# (runners/timeouts.conf), run_perfconf.sh (scripts/run_perfconf.sh) and
# VERSION (git describe --always --dirty in a git tree, else the source's
# VERSION file, else "unknown").
# install copies the binaries as built (the host build links libc6, libcap2
# and zlib1g dynamically); dist builds ARCH (x86_64 or arm64) statically with
# runners/vm/build-static.sh, as the VM matrix does, strips with that arch's
# strip (PERFCONF_META is in .rodata.perfconf, or .rodata once statically
# linked: allocated data, which strip keeps; the runner reads both) and
# refuses a binary that is not static. It holds the matrix's lock
# (build/vm/matrix.lock) meanwhile, as the matrix builds in the same place.
# Exit: 0 done; 1 the static build failed; 2 bad argument or missing piece.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: scripts/install.sh install BUILD_DIR DEST | dist x86_64|arm64 OUT_DIR"
die() { echo "install: $*" >&2; exit 2; }

version() {
	local v=""
	if [ -e "$src/.git" ] && command -v git >/dev/null; then
		v=$(git -C "$src" describe --always --dirty 2>/dev/null || true)
	fi
	if [ -z "$v" ] && [ -s "$src/VERSION" ]; then
		v=$(head -n 1 "$src/VERSION")
	fi
	# A file name part: letters, digits and ._+- only.
	printf '%s\n' "${v:-unknown}" | tr -c 'A-Za-z0-9._+\n-' '_'
}

# install_tree BUILD DEST STRIP VERSION: STRIP empty copies as built.
install_tree() {
	local b=$1 dest=$2 strip=$3 v=$4 s rel n=0
	[ -x "$b/perfconf" ] && [ ! -e "$b/.runner-failed" ] || die "no runner at $b/perfconf (build it first)"
	[ "$(cd "$dest" 2>/dev/null && pwd)" != / ] || die "refusing to install into /"
	mkdir -p "$dest"
	# Only the paths the tree owns are replaced; results/ stays.
	rm -rf "$dest/tests" "$dest/expected"
	mkdir -p "$dest/tests" "$dest/expected"
	put "$strip" "$b/perfconf" "$dest/perfconf"
	for s in "$src"/tests/*/*.c; do
		[ -e "$s" ] || continue
		rel=${s#"$src"/}
		rel=${rel%.c}
		[ -x "$b/$rel" ] || die "$b/$rel is not built (make suite)"
		mkdir -p "$dest/${rel%/*}"
		put "$strip" "$b/$rel" "$dest/$rel"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || die "no tests/*/*.c in $src"
	cp "$src"/expected/*.txt "$dest/expected/"
	install -m 0644 "$src/runners/timeouts.conf" "$dest/timeouts.conf"
	install -m 0755 "$src/scripts/run_perfconf.sh" "$dest/run_perfconf.sh"
	echo "$v" >"$dest/VERSION"
	echo "$n"
}

# put STRIP FROM TO
put() {
	if [ -n "$1" ]; then "$1" -o "$3" "$2"; else cp "$2" "$3"; fi
	chmod 0755 "$3"
}

# Whether an ELF file asks for a program interpreter (is dynamically linked).
dynamic() { readelf -lW "$1" 2>/dev/null | grep -q 'program interpreter'; }

[ $# -eq 3 ] || die "$usage"
case $1 in
install)
	b=$2 dest=$3
	[ -d "$b" ] || die "no build directory $b"
	command -v readelf >/dev/null || die "readelf missing (binutils: scripts/deps.sh)"
	n=$(install_tree "$b" "$dest" "" "$(version)")
	link=static
	dynamic "$dest/perfconf" && link="dynamically linked: the target needs libc6, libcap2 and zlib1g"
	echo "install: $n test binaries, the runner and baselines in $dest ($link)"
	;;
dist)
	arch=$2 out=$3
	case $arch in
	x86_64) strip="strip" ;;
	arm64)
		strip=aarch64-linux-gnu-strip
		# The cross compiler and binutils come with the matrix's packages.
		sh "$src/runners/vm/deps.sh" || exit 2
		;;
	*) die "unknown arch '$arch' (x86_64 or arm64)" ;;
	esac
	command -v "$strip" >/dev/null || die "$strip missing (runners/vm/deps.sh)"
	command -v readelf >/dev/null || die "readelf missing (binutils: scripts/deps.sh)"
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	# build-static.sh works relative to the source tree (build/vm/<arch>/build).
	cd "$src"
	# The matrix builds in the same directory: hold its lock while building
	# and copying (it holds it for a whole run), waiting up to 30 minutes.
	vm=${VM_DIR:-build/vm}
	mkdir -p "$vm"
	exec 8>"$vm/matrix.lock"
	if ! flock -n 8; then
		echo "install: waiting for the matrix run that is using $vm" >&2
		flock -w 1800 8 || die "the matrix run still holds $vm/matrix.lock after 30 minutes"
	fi
	b=$(runners/vm/build-static.sh "$arch" | tail -n 1) || exit 1
	[ ! -e "$b/.runner-failed" ] || { echo "install: the runner does not build statically for $arch (log: build/vm/$arch/build.log)" >&2; exit 1; }
	v=$(version)
	name=perfconf-$v-$arch
	stage=$(mktemp -d "$out/.dist.XXXXXX")
	trap 'rm -rf "$stage"' EXIT
	trap 'exit 130' INT TERM
	n=$(install_tree "$b" "$stage/$name" "$strip" "$v")
	while IFS= read -r f; do
		! dynamic "$f" || die "$f is dynamically linked; a dist must be static"
	done < <(find "$stage/$name" -type f -perm -u+x ! -name '*.sh')
	# A reproducible archive: sorted names, root-owned, fixed times.
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
		-C "$stage" -cf - "$name" | gzip -n >"$stage/$name.tar.gz"
	mv "$stage/$name.tar.gz" "$out/$name.tar.gz"
	echo "install: $n test binaries, static, stripped for $arch: $out/$name.tar.gz ($(du -h "$out/$name.tar.gz" | cut -f1))" >&2
	echo "$out/$name.tar.gz"
	;;
*)
	die "$usage"
	;;
esac
