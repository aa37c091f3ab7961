/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.h - on-disk structures described once as field tables; the text
 * and JSON printers both work from them.
 */
#ifndef DUMP_FIELDS_H
#define DUMP_FIELDS_H
#include <stddef.h>
#include <stdint.h>
#include "f2/fs.h"
#include "out.h"

enum field_kind { F_U, F_STR, F_UTF16, F_HEX };

struct field {
	const char *name;
	uint16_t off;
	uint16_t size;		/* bytes of one element (F_U: 1, 2, 4, 8; F_STR up to 256) */
	uint8_t kind;
	uint16_t count;		/* > 1: an array printed as name[i] */
	uint16_t shown;		/* elements printed (0 = count) */
};

/* Print every field of the table from the structure at base. */
void print_fields(struct out *o, const struct field *t, const void *base, size_t limit);
void print_sb(struct out *o, const struct f2_super *sb);
void print_cp(struct out *o, struct f2_fs *fs);
/* Names of the checkpoint flags set in fl, space separated. */
void cp_flags_string(uint32_t fl, char *buf, size_t n);
/* The inode block: fields, extra attributes within i_extra_isize, the
 * non-zero data addresses and the node ids. */
void print_inode(struct out *o, const struct f2_node *n);
void print_footer(struct out *o, const struct f2_node *n);
#endif
