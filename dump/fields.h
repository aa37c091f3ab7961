/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.h - dump.f2fs's printers of on-disk structures; the text and JSON
 * forms both work from the library's field tables (f2/fields.h).
 */
#ifndef DUMP_FIELDS_H
#define DUMP_FIELDS_H
#include <stddef.h>
#include <stdint.h>
#include "f2/fields.h"
#include "f2/fs.h"
#include "out.h"

/* One row of a field table (f2/fields.h) of the structure at base: a
 * number, each element in use of an array (label[i]), a string or hex;
 * the label prefixed with prefix. */
void print_row(struct out *o, const struct f2_field *f, const void *base, const char *prefix);
void print_sb(struct out *o, const struct f2_super *sb);
void print_cp(struct out *o, struct f2_fs *fs);
/* Names of the checkpoint flags set in fl, space separated. */
void cp_flags_string(uint32_t fl, char *buf, size_t n);
/* The inode block: fields, extra attributes within i_extra_isize, the
 * non-zero data addresses and the node ids. */
void print_inode(struct out *o, const struct f2_node *n);
void print_footer(struct out *o, const struct f2_node *n);
#endif
