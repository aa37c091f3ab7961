// SPDX-License-Identifier: GPL-2.0-or-later
/* json.c - JSON string escaping, one rule for every tool's JSON output. */
#include <string.h>
#include "json.h"

void sup_json_str(FILE *f, const char *s, size_t len, unsigned flags)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || (c >= 0x7f && (flags & SUP_JSON_BYTES)))
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void sup_json_cstr(FILE *f, const char *s)
{
	sup_json_str(f, s ? s : "", s ? strlen(s) : 0, 0);
}
