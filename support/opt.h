/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opt.h - numbers on the tools' command lines. */
#ifndef SUPPORT_OPT_H
#define SUPPORT_OPT_H
#include <stdint.h>

/* Decimal, or hexadecimal after 0x/0X; no sign, no spaces, nothing after,
 * no overflow.  0 or -1. */
int sup_parse_u64(const char *s, uint64_t *out);

/* The same within [min, max]; 0, or -1 after "PROG: invalid WHAT 'S'"
 * (out of range: " (MIN to MAX)" added) on stderr. */
int sup_opt_u64(const char *prog, const char *s, const char *what, uint64_t min,
		uint64_t max, uint64_t *out);
int sup_opt_u32(const char *prog, const char *s, const char *what, uint32_t min,
		uint32_t *out);

/* After getopt_long (opterr = 0, optstring starting with ':') returned ch,
 * ':' or '?': "PROG: option '-x' needs an argument" or "PROG: unknown
 * option '-x'" (or '--name') on stderr. */
void sup_opt_bad(const char *prog, int ch, char *const argv[]);
#endif
