// SPDX-License-Identifier: GPL-2.0-or-later
/* out.c - text and JSON writers behind the same calls (see out.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include "support/json.h"
#include "out.h"

void out_init(struct out *o, FILE *f, int json)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->json = json;
}

static void key(struct out *o, const char *k)
{
	if (o->need_comma[o->depth])
		fputc(',', o->f);
	o->need_comma[o->depth] = 1;
	if (k && !o->is_array[o->depth]) {
		sup_json_str(o->f, k, strlen(k), SUP_JSON_BYTES);
		fputc(':', o->f);
	}
}

static void push(struct out *o, int arr)
{
	if (o->depth + 1 < OUT_MAX_DEPTH)
		o->depth++;
	o->need_comma[o->depth] = 0;
	o->is_array[o->depth] = arr;
}

void out_obj_begin(struct out *o, const char *k, const char *title)
{
	if (o->json) {
		if (o->depth || o->need_comma[0] || k)
			key(o, k);
		else
			o->need_comma[0] = 1;
		fputc('{', o->f);
		push(o, 0);
	} else if (title) {
		fprintf(o->f, "\n+--------------------------------------------------------+\n");
		fprintf(o->f, "| %-54s |\n", title);
		fprintf(o->f, "+--------------------------------------------------------+\n");
	}
}

void out_obj_end(struct out *o)
{
	if (!o->json)
		return;
	fputc('}', o->f);
	if (o->depth)
		o->depth--;
}

void out_arr_begin(struct out *o, const char *k)
{
	if (!o->json)
		return;
	key(o, k);
	fputc('[', o->f);
	push(o, 1);
}

void out_arr_end(struct out *o)
{
	if (!o->json)
		return;
	fputc(']', o->f);
	if (o->depth)
		o->depth--;
}

void out_u64(struct out *o, const char *k, uint64_t v)
{
	if (o->json) {
		key(o, k);
		fprintf(o->f, "%" PRIu64, v);
	} else {
		fprintf(o->f, "%-30s\t\t[0x%8" PRIx64 " : %" PRIu64 "]\n", k, v, v);
	}
}

void out_i64(struct out *o, const char *k, int64_t v)
{
	if (o->json) {
		key(o, k);
		fprintf(o->f, "%" PRId64, v);
	} else {
		fprintf(o->f, "%-30s\t\t[%" PRId64 "]\n", k, v);
	}
}

void out_str(struct out *o, const char *k, const char *s, size_t len)
{
	if (o->json) {
		key(o, k);
		sup_json_str(o->f, s, len, SUP_JSON_BYTES);
		return;
	}
	fprintf(o->f, "%-30s\t\t[", k);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == '\\')
			fprintf(o->f, "\\x%02x", c);
		else
			fputc(c, o->f);
	}
	fprintf(o->f, "]\n");
}

void out_hex(struct out *o, const char *k, const uint8_t *b, size_t len)
{
	if (o->json) {
		key(o, k);
		fputc('"', o->f);
		for (size_t i = 0; i < len; i++)
			fprintf(o->f, "%02x", b[i]);
		fputc('"', o->f);
		return;
	}
	fprintf(o->f, "%-30s\t\t[", k);
	for (size_t i = 0; i < len; i++)
		fprintf(o->f, "%02x", b[i]);
	fprintf(o->f, "]\n");
}

void out_text(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

void out_finish(struct out *o)
{
	if (o->json)
		fputc('\n', o->f);
	fflush(o->f);
}
