#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unpack the ELF kernel from an x86 bzImage (vmlinuz), for qemu's PVH boot
# (-kernel vmlinux with its XEN_ELFNOTE_PHYS32_ENTRY note): qboot then jumps
# straight into the kernel, without the real-mode setup and the
# decompressor, which halves the boot time under TCG.
#
#   runners/vm/extract-vmlinux.sh VMLINUZ VMLINUX
#
# The same idea as the kernel's scripts/extract-vmlinux: find the magic of
# the compressed payload, decompress from there, keep the first result that
# is an ELF file.
set -eEuo pipefail
# Every exit says why: a command that fails where nothing handles it is named.
trap 'echo "vm: ${0##*/}: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

in=${1:?usage: extract-vmlinux.sh VMLINUZ VMLINUX}
out=${2:?usage: extract-vmlinux.sh VMLINUZ VMLINUX}
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT

is_elf() { [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }

try() { # MAGIC(grep -P) DECOMPRESSOR...
	local magic=$1 off
	shift
	# No match is no candidate (and no failure for the ERR trap to name).
	for off in $({ LC_ALL=C grep -obUaP "$magic" "$in" || true; } | cut -d: -f1 | head -n 8); do
		tail -c +"$((off + 1))" "$in" | "$@" >"$tmp" 2>/dev/null || true
		if [ -s "$tmp" ] && is_elf "$tmp"; then
			mv "$tmp" "$out"
			return 0
		fi
	done
	return 1
}

try '\xfd7zXZ\x00' xz -dc --single-stream ||
	try '\x28\xb5\x2f\xfd' zstd -dcq ||
	try '\x1f\x8b\x08' gzip -dc ||
	{ echo "vm: no xz, zstd or gzip ELF payload found in $in" >&2; exit 1; }

# PVH needs the Xen PVH entry note; without it qemu refuses the ELF.
if ! LC_ALL=C grep -qa 'Xen' "$out"; then
	echo "vm: warning: $out may lack the PVH entry note (CONFIG_PVH)" >&2
fi
