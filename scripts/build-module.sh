#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perfconf_pmu.ko (module/) for the kernel this machine runs, against its
# build directory, for `make`: OUT_DIR/perfconf_pmu.ko, or OUT_DIR/why (one
# line) when it cannot be built (no headers, a build error). Never fails
# the build: exit 0 either way, 2 on a usage error only.
#
#   scripts/build-module.sh OUT_DIR [KERNEL_BUILD_DIR]
#
# KERNEL_BUILD_DIR defaults to /lib/modules/$(uname -r)/build (Debian:
# linux-headers-$(uname -r)). The source is copied to a scratch directory
# and built there (make -C KERNEL_BUILD_DIR M=SCRATCH modules).
set -eEuo pipefail
trap 'echo "perfconf: ${0##*/}: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

out=${1:?usage: scripts/build-module.sh OUT_DIR [KERNEL_BUILD_DIR]}
release=$(uname -r)
kb=${2:-/lib/modules/$release/build}
src=$(cd "$(dirname "$0")/../module" 2>/dev/null && pwd) || src=''
mkdir -p "$out"
scratch=''
trap '[ -z "$scratch" ] || rm -rf "$scratch"' EXIT

# WHY: no module here; say so once, in OUT_DIR/why and on stderr.
none() {
	rm -f "$out/perfconf_pmu.ko"
	printf '%s\n' "$1" | head -n 1 >"$out/why"
	echo "perfconf: no perfconf_pmu.ko: $1" >&2
	exit 0
}

[ -n "$src" ] && [ -f "$src/Kbuild" ] || none "no module source (module/Kbuild)"
[ -e "$kb" ] || none "no kernel headers for $release: $kb is absent"
[ -f "$kb/Makefile" ] || none "no kernel headers for $release: $kb has no Makefile"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/perfconf-module.XXXXXX")
cp -a "$src/." "$scratch/"
rm -f "$scratch/"*.ko "$scratch/"*.o
if ! make -C "$kb" M="$scratch" modules >"$scratch/.log" 2>&1; then
	e=$(grep -m 1 -E '(error|Error|ERROR)[: ]' "$scratch/.log" || tail -n 1 "$scratch/.log")
	none "the build against $kb failed: $(echo "$e" | sed "s|$scratch/||g" | cut -c1-300)"
fi
vm=$(tr '\0' '\n' <"$scratch/perfconf_pmu.ko" | grep -a -m 1 '^vermagic=' | cut -d= -f2 | cut -d' ' -f1)
[ "$vm" = "$release" ] || none "perfconf_pmu.ko built against $kb is for $vm, not the running $release"
cp "$scratch/perfconf_pmu.ko" "$out/perfconf_pmu.ko.tmp"
mv "$out/perfconf_pmu.ko.tmp" "$out/perfconf_pmu.ko"
rm -f "$out/why"
echo "perfconf: built $out/perfconf_pmu.ko for $release" >&2
