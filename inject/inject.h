/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inject.h - inject.f2fs: the areas, their members and the options. */
#ifndef INJECT_H
#define INJECT_H
#include <stdint.h>
#include <stdio.h>
#include "f2/fields.h"

#define PROG "inject.f2fs"

enum area { AREA_NONE = -1, AREA_SB, AREA_CP, AREA_NAT, AREA_SIT, AREA_SSA, AREA_NODE,
	    AREA_DENT, AREA_NR };

/* How a member is changed. */
enum member_kind {
	MK_ROW,		/* a row of a field table: --val, or --str for a string */
	MK_CP_CRC,	/* the checkpoint crc at checksum_offset */
	MK_BITMAP,	/* a dentry's bit in its block's bitmap */
	MK_FILENAME,	/* a dentry's name, with its length and hash redone */
};

struct member {
	const char *name;		/* what --mb takes */
	enum member_kind kind;
	const struct f2_field *f;	/* MK_ROW: the row */
	enum f2_struct_id st;		/* MK_ROW: its structure */
	const char *meaning;
};

struct inject_opts {
	enum area area;
	int pack;		/* --sb/--cp/--nat/--sit: 0 auto, 1, 2 */
	const char *mb;
	uint64_t val;
	int have_val;
	const char *str;
	uint32_t idx;
	int have_idx;
	uint32_t nid;
	int have_nid;
	uint64_t blk;
	int have_blk;
	int dots;		/* --dent: 0 child, 1 ".", 2 ".." */
	int dry_run;
	int keep_crc;
	int debug;
	const char *dev;
};

extern const char *const area_names[AREA_NR];

/* The member of area named name (f2fs-tools' names and the kernel's). */
int member_find(enum area a, const char *name, struct member *m);
/* One "  name: meaning" line per member of area, as fstests reads them. */
void members_list(enum area a, FILE *out);

/* Do it; 0, or 1 after a message on stderr. */
int inject_run(const struct inject_opts *o);
#endif
