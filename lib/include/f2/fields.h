/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/fields.h - the on-disk structures as field tables: one row per member
 * (the kernel's member name, byte offset in its structure, width, element
 * count, format, meaning).  dump.f2fs prints from these rows, the test
 * corruption tool (f2field) sets fields by their names and the fuzz
 * mutator rewrites them; tests/unit/test_fields.c checks every row against
 * offsetof/sizeof of the structures in f2/format.h.
 *
 * Rows are listed in the order printers show them (the order of f2fs-tools'
 * dump), which is the structure's order except for the inode.
 */
#ifndef F2_FIELDS_H
#define F2_FIELDS_H
#include <stdint.h>

enum f2_struct_id {
	F2_ST_SUPER,		/* struct f2_super (f2fs_super_block), byte 1024 of blocks 0, 1 */
	F2_ST_CHECKPOINT,	/* struct f2_checkpoint: head block of a cp pack */
	F2_ST_ORPHAN,		/* struct f2_orphan_block */
	F2_ST_NAT_ENTRY,	/* struct f2_nat_entry, 455 to a NAT block */
	F2_ST_SIT_ENTRY,	/* struct f2_sit_entry, 55 to a SIT block */
	F2_ST_SUMMARY,		/* struct f2_summary: one SSA entry, 512 to a block */
	F2_ST_SUM_FOOTER,	/* struct f2_summary_footer, at byte 4091 of an SSA block */
	F2_ST_NODE_FOOTER,	/* struct f2_node_footer, at byte 4072 of a node block */
	F2_ST_INODE,		/* struct f2_inode, at byte 0 of an inode block */
	F2_ST_DIR_ENTRY,	/* struct f2_dir_entry */
	F2_ST_DENTRY_BLOCK,	/* struct f2_dentry_block */
	F2_ST_DIRECT_NODE,	/* struct f2_direct_node, at byte 0 of a direct node block */
	F2_ST_INDIRECT_NODE,	/* struct f2_indirect_node, at byte 0 of an indirect node block */
	F2_ST_NR
};

enum f2_field_fmt {
	F2_FMT_UINT,		/* little-endian unsigned, width 1, 2, 4 or 8 */
	F2_FMT_HEX,		/* bytes shown as hex (uuid) */
	F2_FMT_STR,		/* NUL-padded string of width bytes */
	F2_FMT_UTF16,		/* UTF-16LE string of width bytes */
	F2_FMT_BYTES,		/* opaque bytes (names, packed sub-structures) */
};

/* Row flags */
#define F2_FLD_RAW	0x01	/* bulk or opaque: not listed with the scalars */
#define F2_FLD_EXTRA	0x02	/* inode extra attribute: exists within i_extra_isize */
#define F2_FLD_SPARSE	0x04	/* mostly-zero array: list its non-zero elements */
#define F2_FLD_PERLOG	0x08	/* indexed by log type (hot/warm/cold data, then node) */

struct f2_field {
	const char *name;	/* kernel member name; "a.b" for a member of a member */
	const char *label;	/* dump.f2fs's label where it differs (NULL: name) */
	const char *alias;	/* f2field's short name (NULL: none) */
	uint16_t off;		/* byte offset of element 0 in the structure */
	uint16_t width;		/* bytes of one element */
	uint16_t count;		/* elements (1: not an array) */
	uint16_t stride;	/* bytes between elements (0: width) */
	uint16_t used;		/* elements that are in use (0: count) */
	uint8_t fmt;		/* enum f2_field_fmt */
	uint8_t flags;		/* F2_FLD_* */
	const char *meaning;
};

struct f2_struct_desc {
	const char *name;	/* short name: "super", "inode", ... */
	const char *kname;	/* the kernel's structure name */
	uint32_t size;		/* bytes (the fixed part) */
	const struct f2_field *fields;
	uint32_t n;
};

/* The description of structure id (NULL if out of range). */
const struct f2_struct_desc *f2_struct_get(enum f2_struct_id id);

/*
 * The row named name in structure id: its name or alias, with "[i]" for an
 * element of an array (or the alias's old form, the index as a decimal
 * suffix: "nid2" for i_nid[2]).  *index gets the element (0 for scalars).
 * NULL if no row matches or the index is out of range; an array named
 * without an index does not match.
 */
const struct f2_field *f2_field_find(enum f2_struct_id id, const char *name, uint32_t *index);

static inline const char *f2_field_label(const struct f2_field *f)
{
	return f->label ? f->label : f->name;
}

/* Byte offset of element index of f in its structure. */
static inline uint32_t f2_field_offset(const struct f2_field *f, uint32_t index)
{
	return f->off + index * (uint32_t)(f->stride ? f->stride : f->width);
}

/* Element index of an F2_FMT_UINT field of the structure at base. */
uint64_t f2_field_get(const struct f2_field *f, const void *base, uint32_t index);
void f2_field_set(const struct f2_field *f, void *base, uint32_t index, uint64_t v);
#endif
