// SPDX-License-Identifier: GPL-2.0-or-later
/* opt.c - one grammar for numbers given as options, one error message. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "opt.h"

int sup_parse_u64(const char *s, uint64_t *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	unsigned long long v;
	char *end;

	if (!*digits || !strchr(hex ? "0123456789abcdefABCDEF" : "0123456789", *digits))
		return -1;
	errno = 0;
	v = strtoull(digits, &end, hex ? 16 : 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int sup_opt_u64(const char *prog, const char *s, const char *what, uint64_t min,
		uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (sup_parse_u64(s, &v)) {
		fprintf(stderr, "%s: invalid %s '%s'\n", prog, what, s);
		return -1;
	}
	if (v < min || v > max) {
		fprintf(stderr, "%s: invalid %s '%s' (%" PRIu64 " to %" PRIu64 ")\n", prog, what,
			s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int sup_opt_u32(const char *prog, const char *s, const char *what, uint32_t min,
		uint32_t *out)
{
	uint64_t v;

	if (sup_opt_u64(prog, s, what, min, UINT32_MAX, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

void sup_opt_bad(const char *prog, int ch, char *const argv[])
{
	if (ch == ':')
		fprintf(stderr, "%s: option '%s' needs an argument\n", prog, argv[optind - 1]);
	else if (optopt && optopt != '?')
		fprintf(stderr, "%s: unknown option '-%c'\n", prog, optopt);
	else
		fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[optind - 1]);
}
