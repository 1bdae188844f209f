/* SPDX-License-Identifier: GPL-2.0 */
/* Reading ELF files: the GNU build id note. */
#ifndef PERFCONF_ELFNOTE_H
#define PERFCONF_ELFNOTE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The NT_GNU_BUILD_ID note of an ELF file (found through its PT_NOTE
 * program headers, as the kernel finds it): copies up to len bytes into
 * id and returns the note's size, or -ENOENT when the file has no build
 * id, -ENOEXEC when it is not an ELF file of this machine's byte order,
 * -errno when it cannot be read.
 */
int pc_elf_build_id(const char *path, uint8_t *id, size_t len);

#endif
