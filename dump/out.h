/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out.h - dump.f2fs output: one set of calls writes either the text form
 * ("name   [0xhex : decimal]" lines, as f2fs-tools prints them) or JSON,
 * so both always carry the same numbers.
 */
#ifndef DUMP_OUT_H
#define DUMP_OUT_H
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#define OUT_MAX_DEPTH 16

struct out {
	FILE *f;
	int json;
	int human;			/* -h: sizes as 1.5M in --ls */
	int depth;
	int need_comma[OUT_MAX_DEPTH];
	int is_array[OUT_MAX_DEPTH];
};

void out_init(struct out *o, FILE *f, int json);
/* Containers; key is NULL inside arrays.  title is the text-mode banner
 * (NULL for none). */
void out_obj_begin(struct out *o, const char *key, const char *title);
void out_obj_end(struct out *o);
void out_arr_begin(struct out *o, const char *key);
void out_arr_end(struct out *o);
void out_u64(struct out *o, const char *key, uint64_t v);
void out_i64(struct out *o, const char *key, int64_t v);
void out_str(struct out *o, const char *key, const char *s, size_t len);
/* Bytes as a hex string */
void out_hex(struct out *o, const char *key, const uint8_t *b, size_t len);
/* Text-mode only line (ignored in JSON). */
void out_text(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Finish the document (JSON: newline). */
void out_finish(struct out *o);
#endif
