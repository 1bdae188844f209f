// SPDX-License-Identifier: GPL-2.0
/* The GNU build id of an ELF file, from its PT_NOTE segments. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "work/elfnote.h"

#define NOTE_ALIGN(n) (((n) + 3u) & ~3u)

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

/* Search one note segment of `size` bytes at `off`. */
static int build_id_in_notes(int fd, uint64_t off, uint64_t size, uint8_t *id, size_t len)
{
	unsigned char *notes;
	int found = -ENOENT;

	if (size > (1u << 20))
		return -ENOEXEC;
	notes = malloc(size ? size : 1);
	if (!notes)
		return -ENOMEM;
	int err = read_at(fd, notes, size, off);
	if (err) {
		free(notes);
		return err;
	}
	/* Elf32_Nhdr and Elf64_Nhdr are the same three words. */
	for (uint64_t pos = 0; pos + sizeof(Elf64_Nhdr) <= size;) {
		Elf64_Nhdr nh;

		memcpy(&nh, notes + pos, sizeof(nh));
		uint64_t name = pos + sizeof(nh);
		uint64_t desc = name + NOTE_ALIGN(nh.n_namesz);
		if (desc + nh.n_descsz > size)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(notes + name, "GNU", 4)) {
			memcpy(id, notes + desc, nh.n_descsz < len ? nh.n_descsz : len);
			found = (int)nh.n_descsz;
			break;
		}
		pos = desc + NOTE_ALIGN(nh.n_descsz);
	}
	free(notes);
	return found;
}

int pc_elf_build_id(const char *path, uint8_t *id, size_t len)
{
	unsigned char ident[EI_NIDENT];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = read_at(fd, ident, sizeof(ident), 0);
	if (!err && (memcmp(ident, ELFMAG, SELFMAG) ||
		     ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB)))
		err = -ENOEXEC;
	if (err)
		goto out;
	err = -ENOENT;
	if (ident[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;

		if ((err = read_at(fd, &eh, sizeof(eh), 0)))
			goto out;
		err = -ENOENT;
		for (unsigned int i = 0; i < eh.e_phnum && err == -ENOENT; i++) {
			int r = read_at(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t)i * eh.e_phentsize);
			if (r)
				err = r;
			else if (ph.p_type == PT_NOTE)
				err = build_id_in_notes(fd, ph.p_offset, ph.p_filesz, id, len);
		}
	} else if (ident[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;
		Elf32_Phdr ph;

		if ((err = read_at(fd, &eh, sizeof(eh), 0)))
			goto out;
		err = -ENOENT;
		for (unsigned int i = 0; i < eh.e_phnum && err == -ENOENT; i++) {
			int r = read_at(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t)i * eh.e_phentsize);
			if (r)
				err = r;
			else if (ph.p_type == PT_NOTE)
				err = build_id_in_notes(fd, ph.p_offset, ph.p_filesz, id, len);
		}
	} else {
		err = -ENOEXEC;
	}
out:
	close(fd);
	return err;
}
