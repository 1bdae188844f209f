#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A private apt configuration for the VM matrix: Debian suites from bullseye
# to sid, for amd64 and arm64 (and riscv64, s390x, ppc64el, i386, armhf once asked), with its own
# sources, lists, cache and an empty dpkg status. The system's apt sources
# and dpkg architectures are never touched.
#
#   runners/vm/apt.sh update              refresh the lists when missing or stale
#   runners/vm/apt.sh kernels             the kernel index: "arch suite package version size"
#   runners/vm/apt.sh download DIR SPEC…  apt-get download SPEC… into DIR (name:arch/suite, name:arch=ver)
#   runners/vm/apt.sh add-arch ARCH       fetch that arch's lists too, from now on:
#                                         riscv64, s390x, ppc64el (guests), i386, armhf (compat userlands)
#   runners/vm/apt.sh userland DIR PKG ARCH VERSION
#                                         PKG:ARCH at VERSION (the host's) into DIR, or, where
#                                         the archive has no such version for ARCH (riscv64 is
#                                         not in bookworm), the version of the oldest release
#                                         suite that has it; prints the .deb's path
#   runners/vm/apt.sh cache               apt-cache with the private configuration (args follow;
#                                         VM_APT_ARCH=riscv64 and the like: that arch's lists)
#
# Environment: VM_DIR (default build/vm), VM_REFRESH=1 forces an update,
# VM_REFRESH=0 never updates lists that exist; otherwise lists older than
# VM_LISTS_DAYS (default 7) days are refreshed. VM_MIRROR: the Debian
# mirror (default http://deb.debian.org, holding debian/ and
# debian-security/); a file: mirror is trusted as it is (a local copy).
set -eEuo pipefail
# Every exit says why: a command that fails where nothing handles it is named.
trap 'echo "vm: ${0##*/}: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

vm=${VM_DIR:-build/vm}
dir=$vm/apt
mkdir -p "$dir/cache/archives/partial" "$dir/sources.list.d"
dir=$(cd "$dir" && pwd)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# The archs: the default guests' kernels and userlands (amd64, arm64); and,
# once a target or build asked for them (`apt.sh add-arch`, kept in
# $dir/compat-archs), the opt-in guests' (riscv64, s390x, ppc64el: kernels in every
# suite) and the compat variants' userlands (i386, armhf: libcap, zlib at
# the host's versions, which a release's own suite holds), the latter from
# the releases' own suites only: their -security and -backports add
# nothing they need, and some mirrors serve stale i386 indexes of them. A
# run that never asks for one never fetches its lists.
#
# Each opt-in arch has lists of its own (lists-<arch>, sources-<arch>.list),
# apart from amd64 and arm64's (lists, sources.list): apt updates a suite as
# one transaction, so one index that does not match its Release (a mirror
# mid-sync; seen for riscv64's and s390x's trixie-security and
# trixie-backports) keeps the whole suite out of the lists it shares. Apart,
# such an index leaves out only its own arch's packages of that suite (a
# warning); a default arch's fails the update.
compat=""
[ -r "$dir/compat-archs" ] && compat=$(tr -cd 'a-z0-9,' <"$dir/compat-archs")
sets="base${compat:+ ${compat//,/ }}"
# SET: its archs, lists directory and sources file.
set_archs() { if [ "$1" = base ]; then echo amd64,arm64; else echo "$1"; fi; }
set_lists() { if [ "$1" = base ]; then echo "$dir/lists"; else echo "$dir/lists-$1"; fi; }
set_sources() { if [ "$1" = base ]; then echo "$dir/sources.list"; else echo "$dir/sources-$1.list"; fi; }
# ARCH: the set whose lists hold it.
arch_set() { case $1 in amd64 | arm64 | all) echo base ;; *) echo "$1" ;; esac; }
# SUITE ARCHS: the archs of ARCHS whose lists that suite gives.
suite_archs() {
	local a out=""
	for a in ${2//,/ }; do
		case $1,$a in *-*,i386 | *-*,armhf) ;; *) out=$out,$a ;; esac
	done
	echo "${out#,}"
}
mirror=${VM_MIRROR:-http://deb.debian.org}
case $mirror in file:*) trust="trusted=yes" ;; *) trust="signed-by=$keyring" ;; esac

# Where each kernel line comes from: bullseye(-security) 5.10 (and 6.1
# backports), bookworm(-security, -backports) 6.1 and 6.12, trixie 6.12 and
# its backports, sid the newest.
suites="debian:bullseye debian-security:bullseye-security
debian:bookworm debian-security:bookworm-security debian:bookworm-backports
debian:trixie debian-security:trixie-security debian:trixie-backports
debian:sid"

write_sources() { # SET
	local s a tmp out
	out=$(set_sources "$1") tmp=$(set_sources "$1").tmp
	: >"$tmp"
	for s in $suites; do
		a=$(suite_archs "${s#*:}" "$(set_archs "$1")")
		[ -n "$a" ] || continue
		echo "deb [arch=$a $trust] $mirror/${s%%:*} ${s#*:} main" >>"$tmp"
	done
	if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
	[ -e "$dir/status" ] || : >"$dir/status"
}

# SET: the options of apt-get and apt-cache on that set's lists (into opts).
use_set() {
	local a
	mkdir -p "$(set_lists "$1")/partial"
	opts=(
		-o "Dir::Etc::SourceList=$(set_sources "$1")"
		-o "Dir::Etc::SourceParts=$dir/sources.list.d"
		-o "Dir::State::Lists=$(set_lists "$1")"
		-o "Dir::State::status=$dir/status"
		-o "Dir::Cache=$dir/cache"
		-o "Dir::Cache::pkgcache=pkgcache-$1.bin"
		-o "Dir::Cache::srcpkgcache=srcpkgcache-$1.bin"
		-o "APT::Architecture=amd64"
		-o "APT::Architectures::=amd64"
		-o "Acquire::Languages=none"
		-o "Acquire::Check-Valid-Until=false"
		-o "Acquire::Retries=3"
		-o "APT::Sandbox::User=root"
		-q
	)
	for a in $(set_archs "$1" | tr , ' '); do opts+=(-o "APT::Architectures::=$a"); done
}

# One apt operation at a time on this configuration (the matrix may run
# several scripts that share it).
lock() { exec 9>"$dir/lock.sh"; flock 9; }

have_lists() { # SET
	local a
	for a in $(set_archs "$1" | tr , ' '); do
		compgen -G "$(set_lists "$1")/*sid_main_binary-${a}_Packages*" >/dev/null || return 1
	done
}

stale() { # SET
	have_lists "$1" || return 0
	case ${VM_REFRESH:-} in 1) return 0 ;; 0) return 1 ;; esac
	[ -n "$(find "$(set_lists "$1")" -maxdepth 1 -name '*sid_InRelease' -mtime +"${VM_LISTS_DAYS:-7}")" ]
}

# apt-get update of one set's lists (use_set). An opt-in arch's index of a
# -security or -backports suite that does not match its Release leaves
# that suite's packages of that arch out, with a warning; anything else
# fails.
update_set() { # SET
	local bad log
	log=$dir/update-$1.log
	write_sources "$1"
	use_set "$1"
	apt-get "${opts[@]}" update >"$log" 2>&1 && return 0
	bad=$(grep '^E: Failed to fetch' "$log" |
		grep -vE "/dists/[a-z]+-(security|backports)/main/binary-$1/" || true)
	if [ -n "$bad" ] || [ "$1" = base ] || ! grep -q '^E: Failed to fetch' "$log" || ! have_lists "$1"; then
		echo "vm: apt-get update failed (log: $log):" >&2
		tail -n 5 "$log" >&2
		return 2
	fi
	grep '^E: Failed to fetch' "$log" | sed -E 's|.*/dists/([^/]+)/main/binary-([^/]+)/.*|vm: warning: the mirror'"'"'s \1 index for \2 does not match its Release (being synced?): its \2 packages of \1 are left out|' >&2
}

# Update the sets that need it (all with FORCE), then the kernel index.
do_update() { # [force]
	local t0=$SECONDS s any=0
	for s in $sets; do
		[ -n "${1:-}" ] || stale "$s" || continue
		[ "$any" = 1 ] || echo "vm: updating the private package lists ($dir)" >&2
		any=1
		update_set "$s" || return 2
	done
	if [ "$any" = 1 ] || [ ! -s "$dir/kernels.idx" ]; then build_index; fi
	if [ "$any" = 1 ]; then
		: >"$dir/unavailable"
		echo "vm: package lists updated in $((SECONDS - t0)) s" >&2
	fi
}

# The kernel index: one line per kernel image or binary package.
build_index() {
	local f r a s
	for s in $sets; do
		use_set "$s"
		apt-get "${opts[@]}" indextargets --format '$(FILENAME) $(RELEASE) $(ARCHITECTURE)' 'Identifier: Packages'
	done |
	while read -r f r a; do
		[ -e "$f" ] || continue
		/usr/lib/apt/apt-helper cat-file "$f" | awk -v r="$r" -v a="$a" '
			BEGIN { RS = ""; FS = "\n" }
			/^Package: linux-(image|binary)-[0-9]/ {
				p = v = s = ""
				for (i = 1; i <= NF; i++) {
					k = $i; sub(/:.*/, "", k); val = $i; sub(/^[^:]*: */, "", val)
					if (k == "Package") p = val; else if (k == "Version") v = val; else if (k == "Size") s = val
				}
				print a, r, p, v, s
			}'
	done >"$dir/kernels.idx.tmp"
	mv "$dir/kernels.idx.tmp" "$dir/kernels.idx"
}

cmd=${1:-}
shift || true
case $cmd in
update)
	lock
	do_update
	;;
force-update)
	lock
	do_update force
	;;
add-arch)
	# An opt-in guest's or a compat userland's arch: its lists from now on
	# (the next update fetches them: the lists count as missing until then).
	a=${1:?usage: apt.sh add-arch ARCH}
	case $a in riscv64 | s390x | ppc64el | i386 | armhf) ;; *) echo "vm: add-arch: riscv64, s390x, ppc64el, i386 or armhf, not $a" >&2; exit 2 ;; esac
	lock
	case ",$compat," in *",$a,"*) ;; *) echo "${compat:+$compat,}$a" >"$dir/compat-archs" ;; esac
	;;
kernels)
	[ -s "$dir/kernels.idx" ] || { echo "vm: no kernel index: run $0 update" >&2; exit 2; }
	cat "$dir/kernels.idx"
	;;
download)
	dest=${1:?usage: apt.sh download DIR SPEC...}
	shift
	mkdir -p "$dest"
	lock
	# The lists of the first SPEC's arch (name:arch...).
	a=${1#*:}
	use_set "$(arch_set "${a%%[/=]*}")"
	# apt-get download writes into the current directory.
	(cd "$dest" && apt-get "${opts[@]}" download "$@")
	;;
userland)
	[ $# = 4 ] || { echo "usage: apt.sh userland DIR PKG ARCH VERSION" >&2; exit 2; }
	dest=$1 p=$2 a=$3 v=$4
	mkdir -p "$dest"
	deb() { echo "$dest/${p}_${1//:/%3a}_$a.deb"; }
	if [ -s "$(deb "$v")" ]; then deb "$v"; exit 0; fi
	lock
	use_set "$(arch_set "$a")"
	if (cd "$dest" && apt-get "${opts[@]}" download "$p:$a=$v") >/dev/null 2>&1; then deb "$v"; exit 0; fi
	for s in $suites; do
		case $s in *-*) continue ;; esac
		s=${s#*:}
		v=$(apt-cache "${opts[@]}" showpkg "$p:$a" 2>/dev/null |
			awk -v s="_dists_${s}_main_binary-${a}_" '/^Versions:/ { on = 1; next } /^[A-Z][a-z]*:/ { on = 0 } on && /^[^ ]/ && index($0, s) && !v { v = $1 } END { if (v) print v }')
		[ -n "$v" ] || continue
		[ -s "$(deb "$v")" ] || (cd "$dest" && apt-get "${opts[@]}" download "$p:$a=$v") >/dev/null 2>&1 || continue
		echo "vm: $p:$a: the host's version is not in the archive; using $s's $v" >&2
		deb "$v"
		exit 0
	done
	echo "vm: cannot download $p:$a (neither the host's $4 nor a release suite's)" >&2
	exit 2
	;;
cache)
	use_set "$(arch_set "${VM_APT_ARCH:-amd64}")"
	apt-cache "${opts[@]}" "$@"
	;;
*)
	sed -n '3,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
	;;
esac
