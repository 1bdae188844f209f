#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A private apt configuration for the VM matrix: Debian suites from bullseye
# to sid, for amd64 and arm64 (and i386, armhf once asked), with its own
# sources, lists, cache and an empty dpkg status. The system's apt sources
# and dpkg architectures are never touched.
#
#   runners/vm/apt.sh update              refresh the lists when missing or stale
#   runners/vm/apt.sh kernels             the kernel index: "arch suite package version size"
#   runners/vm/apt.sh download DIR SPEC…  apt-get download SPEC… into DIR (name:arch/suite, name:arch=ver)
#   runners/vm/apt.sh add-arch i386|armhf  fetch that compat userland's lists too, from now on
#   runners/vm/apt.sh cache               apt-cache with the private configuration (args follow)
#
# Environment: VM_DIR (default build/vm), VM_REFRESH=1 forces an update,
# VM_REFRESH=0 never updates lists that exist; otherwise lists older than
# VM_LISTS_DAYS (default 7) days are refreshed.
set -euo pipefail

vm=${VM_DIR:-build/vm}
dir=$vm/apt
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d"
dir=$(cd "$dir" && pwd)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# The archs: the guests' kernels and userlands (amd64, arm64); and, once
# a compat build asked for them (`apt.sh add-arch`, kept in $dir/compat-archs),
# the userlands of the compat variants, i386 and armhf (libcap, zlib at the
# host's versions, which a release's own suite holds), from the releases'
# own suites only: their -security and -backports add nothing they need,
# and some mirrors serve stale i386 indexes of them. A run that never
# builds one never fetches their lists.
compat=""
[ -r "$dir/compat-archs" ] && compat=$(tr -cd 'a-z0-9,' <"$dir/compat-archs")
archs=amd64,arm64${compat:+,$compat}
suite_archs() { case $1 in *-*) echo amd64,arm64 ;; *) echo "$archs" ;; esac; }

# Where each kernel line comes from: bullseye(-security) 5.10 (and 6.1
# backports), bookworm(-security, -backports) 6.1 and 6.12, trixie 6.12 and
# its backports, sid the newest.
suites="debian:bullseye debian-security:bullseye-security
debian:bookworm debian-security:bookworm-security debian:bookworm-backports
debian:trixie debian-security:trixie-security debian:trixie-backports
debian:sid"

write_sources() {
	local s tmp=$dir/sources.list.tmp
	: >"$tmp"
	for s in $suites; do
		echo "deb [arch=$(suite_archs "${s#*:}") signed-by=$keyring] http://deb.debian.org/${s%%:*} ${s#*:} main" >>"$tmp"
	done
	if cmp -s "$tmp" "$dir/sources.list"; then rm -f "$tmp"; else mv "$tmp" "$dir/sources.list"; fi
	[ -e "$dir/status" ] || : >"$dir/status"
}

opts=(
	-o "Dir::Etc::SourceList=$dir/sources.list"
	-o "Dir::Etc::SourceParts=$dir/sources.list.d"
	-o "Dir::State::Lists=$dir/lists"
	-o "Dir::State::status=$dir/status"
	-o "Dir::Cache=$dir/cache"
	-o "APT::Architecture=amd64"
	-o "APT::Architectures::=amd64" -o "APT::Architectures::=arm64"
	-o "Acquire::Languages=none"
	-o "Acquire::Check-Valid-Until=false"
	-o "Acquire::Retries=3"
	-o "APT::Sandbox::User=root"
	-q
)
for a in ${compat//,/ }; do opts+=(-o "APT::Architectures::=$a"); done

# One apt operation at a time on this configuration (the matrix may run
# several scripts that share it).
lock() { exec 9>"$dir/lock.sh"; flock 9; }

have_lists() {
	local a
	for a in ${archs//,/ }; do
		compgen -G "$dir/lists/*sid_main_binary-${a}_Packages*" >/dev/null || return 1
	done
}

stale() {
	have_lists || return 0
	case ${VM_REFRESH:-} in 1) return 0 ;; 0) return 1 ;; esac
	[ -n "$(find "$dir/lists" -maxdepth 1 -name '*sid_InRelease' -mtime +"${VM_LISTS_DAYS:-7}")" ]
}

do_update() {
	local t0=$SECONDS
	write_sources
	echo "vm: updating the private package lists ($dir)" >&2
	if ! apt-get "${opts[@]}" update >"$dir/update.log" 2>&1; then
		echo "vm: apt-get update failed:" >&2
		tail -n 5 "$dir/update.log" >&2
		return 2
	fi
	build_index
	: >"$dir/unavailable"
	echo "vm: package lists updated in $((SECONDS - t0)) s" >&2
}

# The kernel index: one line per kernel image or binary package.
build_index() {
	local f r a
	apt-get "${opts[@]}" indextargets --format '$(FILENAME) $(RELEASE) $(ARCHITECTURE)' 'Identifier: Packages' |
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
	if stale; then do_update; elif [ ! -s "$dir/kernels.idx" ]; then build_index; fi
	;;
force-update)
	lock
	do_update
	;;
add-arch)
	# A compat userland's arch (i386, armhf): its lists from now on.
	a=${1:?usage: apt.sh add-arch ARCH}
	case $a in i386 | armhf) ;; *) echo "vm: add-arch: i386 or armhf, not $a" >&2; exit 2 ;; esac
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
	# apt-get download writes into the current directory.
	(cd "$dest" && apt-get "${opts[@]}" download "$@")
	;;
cache)
	apt-cache "${opts[@]}" "$@"
	;;
*)
	sed -n '3,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
	;;
esac
