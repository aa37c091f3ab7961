/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json.h - JSON string output for the tools' --json reports. */
#ifndef SUPPORT_JSON_H
#define SUPPORT_JSON_H
#include <stddef.h>
#include <stdio.h>

/* Also escape 0x7f and up, one \u00XX a byte: lossless for names that are
 * not UTF-8 (dump.f2fs).  Without it UTF-8 passes through. */
#define SUP_JSON_BYTES	1u

/* s[0..len) as a quoted JSON string: '"' and '\\' backslashed, bytes
 * below 0x20 as \u00XX. */
void sup_json_str(FILE *f, const char *s, size_t len, unsigned flags);
/* The same for a C string, no flags; NULL prints "". */
void sup_json_cstr(FILE *f, const char *s);
#endif
