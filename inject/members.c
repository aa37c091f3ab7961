// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * members.c - what inject.f2fs can change in each area: the rows of the
 * library's field tables (f2/fields.h) by their kernel names, plus the few
 * members that are not a plain row (the checkpoint crc, a dentry's bitmap
 * bit and name).  f2fs-tools' spellings are accepted where they differ.
 */
#include <string.h>
#include "inject.h"

const char *const area_names[AREA_NR] = { "sb", "cp", "nat", "sit", "ssa", "node", "dent" };

/* The structures an area's rows come from, in lookup order (the node
 * footer first: its nid and ino are f2fs-tools' "nid" and "ino"). */
static const int area_structs[AREA_NR][4] = {
	[AREA_SB] = { F2_ST_SUPER, -1 },
	[AREA_CP] = { F2_ST_CHECKPOINT, -1 },
	[AREA_NAT] = { F2_ST_NAT_ENTRY, -1 },
	[AREA_SIT] = { F2_ST_SIT_ENTRY, -1 },
	[AREA_SSA] = { F2_ST_SUMMARY, F2_ST_SUM_FOOTER, -1 },
	[AREA_NODE] = { F2_ST_NODE_FOOTER, F2_ST_INODE, F2_ST_DIRECT_NODE, -1 },
	[AREA_DENT] = { -1 },
};

/* f2fs-tools' names for rows named otherwise in the tables. */
static const struct {
	enum area a;
	const char *name, *row;
} renames[] = {
	{ AREA_NODE, "i_ext.blk_addr", "i_ext.blk" },
	{ AREA_DENT, "d_hash", "hash_code" },
	{ AREA_DENT, "d_ino", "ino" },
	{ AREA_DENT, "d_ftype", "file_type" },
	{ AREA_DENT, "d_namelen", "name_len" },
};

/* Rows inject can write: numbers, and strings through --str. */
static int settable(const struct f2_field *f)
{
	return (f->fmt == F2_FMT_UINT && f->width <= 8) || f->fmt == F2_FMT_STR ||
	       f->fmt == F2_FMT_UTF16;
}

static int row_find(enum f2_struct_id st, const char *name, struct member *m)
{
	const struct f2_struct_desc *d = f2_struct_get(st);

	for (uint32_t i = 0; d && i < d->n; i++) {
		const struct f2_field *f = &d->fields[i];

		if (strcmp(f->name, name) || !settable(f))
			continue;
		m->name = f->name;
		m->kind = MK_ROW;
		m->f = f;
		m->st = st;
		m->meaning = f->meaning;
		return 1;
	}
	return 0;
}

int member_find(enum area a, const char *name, struct member *m)
{
	memset(m, 0, sizeof(*m));
	if (a < 0 || a >= AREA_NR || !name)
		return 0;
	if (a == AREA_CP && !strcmp(name, "crc")) {
		m->name = name;
		m->kind = MK_CP_CRC;
		m->meaning = "crc32 of the head block before checksum_offset";
		return 1;
	}
	if (a == AREA_DENT && (!strcmp(name, "d_bitmap") || !strcmp(name, "filename"))) {
		m->name = name;
		m->kind = name[0] == 'd' ? MK_BITMAP : MK_FILENAME;
		return 1;
	}
	for (size_t i = 0; i < sizeof(renames) / sizeof(renames[0]); i++) {
		if (renames[i].a != a || strcmp(renames[i].name, name))
			continue;
		if (!row_find(a == AREA_DENT ? F2_ST_DIR_ENTRY : F2_ST_INODE, renames[i].row, m))
			return 0;
		m->name = name;
		return 1;
	}
	for (int k = 0; area_structs[a][k] >= 0; k++)
		if (row_find(area_structs[a][k], name, m))
			return 1;
	return 0;
}

static void line(FILE *out, const char *name, const char *meaning, const char *how)
{
	fprintf(out, "  %s: %s%s\n", name, meaning, how);
}

static void list_rows(enum f2_struct_id st, const char *skip, FILE *out)
{
	const struct f2_struct_desc *d = f2_struct_get(st);
	char how[64];

	for (uint32_t i = 0; i < d->n; i++) {
		const struct f2_field *f = &d->fields[i];

		if (!settable(f) || (skip && !strcmp(f->name, skip)))
			continue;
		how[0] = 0;
		if (f->count > 1)
			snprintf(how, sizeof(how), " (--idx 0..%u)", f->count - 1);
		if (f->fmt != F2_FMT_UINT)
			snprintf(how, sizeof(how), " (--str)");
		line(out, f->name, f->meaning, how);
	}
}

void members_list(enum area a, FILE *out)
{
	fprintf(out, "[mb]:\n");
	switch (a) {
	case AREA_DENT:
		line(out, "d_bitmap", "the entry's bit in the slot bitmap (--val 0 clears it)", "");
		line(out, "d_hash", "hash_code: hash of the name", "");
		line(out, "d_ino", "ino: inode number", "");
		line(out, "d_ftype", "file_type: F2_FT_* type", "");
		line(out, "d_namelen", "name_len: bytes of the name", "");
		line(out, "filename", "the name; its length and hash are redone", " (--str)");
		return;
	case AREA_CP:
		list_rows(F2_ST_CHECKPOINT, NULL, out);
		line(out, "crc", "crc32 of the head block before checksum_offset", "");
		return;
	case AREA_NODE:
		list_rows(F2_ST_NODE_FOOTER, NULL, out);
		list_rows(F2_ST_INODE, NULL, out);
		line(out, "i_ext.blk_addr", "f2fs-tools' name of i_ext.blk", "");
		line(out, "addr", "direct node: data block address; indirect node: node id",
		     " (--idx 0..1017)");
		return;
	default:
		for (int k = 0; area_structs[a][k] >= 0; k++)
			list_rows(area_structs[a][k], NULL, out);
	}
}
