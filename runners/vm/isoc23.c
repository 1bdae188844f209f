// SPDX-License-Identifier: GPL-2.0
/*
 * C23's strtol family for a static cross build whose libcap comes from a
 * newer release than the cross compiler's glibc (riscv64: bookworm's
 * glibc 2.36, trixie's libcap). glibc 2.38 made the strto* calls of code
 * built with _GNU_SOURCE go to __isoc23_strto*, which 2.36 lacks. C23
 * adds one thing: the 0b/0B prefix when the base is 0 or 2.
 * build-static.sh links this object only where the link needs it.
 */
#include <ctype.h>
#include <stdlib.h>

/* Where a C23 binary number starts in S for BASE, or NULL when none does. */
static const char *binary_digits(const char *s, int base)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		s++;
	if ((base == 0 || base == 2) && s[0] == '0' && (s[1] == 'b' || s[1] == 'B') &&
	    (s[2] == '0' || s[2] == '1'))
		return s + 2;
	return NULL;
}

#define ISOC23(type, name, plain)                                                  \
	type name(const char *s, char **end, int base);                            \
	type name(const char *s, char **end, int base)                             \
	{                                                                          \
		const char *digits = binary_digits(s, base);                       \
		if (!digits)                                                       \
			return plain(s, end, base);                                \
		/* the sign applies as for any other base */                       \
		const char *p = s;                                                 \
		while (isspace((unsigned char)*p))                                 \
			p++;                                                       \
		type v = plain(digits, end, 2);                                    \
		return *p == '-' ? -v : v;                                         \
	}

ISOC23(long, __isoc23_strtol, strtol)
ISOC23(unsigned long, __isoc23_strtoul, strtoul)
ISOC23(long long, __isoc23_strtoll, strtoll)
ISOC23(unsigned long long, __isoc23_strtoull, strtoull)
