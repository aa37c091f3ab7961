/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repair.h - structural repairs: the phases record what to change
 * (rep_add) when fix_problem() accepts a fix, and treat the change as
 * made for the rest of the check (the NAT overlay: fsck_nat()), so what
 * the walk found is the file system as it will be after the repair.  The
 * last phase (pass_repair) applies every recorded change through the
 * write engine and commits it with one checkpoint.
 */
#ifndef FSCK_REPAIR_H
#define FSCK_REPAIR_H
#include <stddef.h>
#include <stdint.h>
#include "f2/fs.h"

enum rep_kind {
	RA_NOTE,		/* made by the rebuild of the SIT and counters */
	RA_NAT_CLEAR,		/* a nid: free the entry */
	RA_NAT_INO,		/* a nid, b ino: set the entry's owner */
	RA_NAT_MOVE,		/* a nid, b ino, c blkaddr: re-point the entry */
	RA_NODE_REWRITE,	/* a nid, b ino, d node offset: footer, csum, SSA */
	RA_NODE_WORD,		/* a nid, b ino, c word index, d node offset: word = 0 */
	RA_NODE_SET,		/* as RA_NODE_WORD, word = d >> 32 (a node put back) */
	RA_DATA_MOVE,		/* a ino, d file block, c is_dir: new place, new SSA */
	RA_INODE_LINKS,		/* a ino, b i_links */
	RA_INODE_BLOCKS,	/* a ino, d i_blocks */
	RA_INODE_COMPR_BLOCKS,	/* a ino, d i_compr_blocks */
	RA_INODE_NAMELEN,	/* a ino: clamp i_namelen */
	RA_INODE_DEPTH,		/* a ino, b i_current_depth */
	RA_INODE_MODE,		/* a ino, b i_mode */
	RA_INODE_FLAGS,		/* a ino, b i_flags bits to clear */
	RA_INODE_EXT,		/* a ino: clear i_ext */
	RA_INODE_SIZE,		/* a ino, d i_size */
	RA_INODE_EXTRA,		/* a ino, b i_extra_isize, c i_inline_xattr_size: F2_EXTRA_ATTR */
	RA_ROOT_NEW,		/* a root ino: a new empty root directory */
	RA_DENT_DROP,		/* a dir, d block (UINT64_MAX inline), c slot */
	RA_DENT_DROP_INO,	/* a dir, b ino: every entry naming ino */
	RA_DENT_REHASH,		/* a dir, d block, c slot: remove and add again */
	RA_DENT_SETHASH,	/* a dir, d block, c slot, b hash: set in place */
	RA_DENT_BITS,		/* a dir, d block, c slot: set the bits of its slots */
	RA_DENT_FTYPE,		/* a dir, b ino, c file type of entries naming ino */
	RA_DENT_DOT,		/* a dir: "." names dir */
	RA_DENT_DOTDOT,		/* a dir, b parent: ".." names parent */
	RA_RECONNECT,		/* a ino, c file type: a name in lost+found */
	RA_ORPHAN_DEL,		/* a ino: off the orphan list */
	RA_NAT_BITS,		/* recompute nat_bits */
	RA_NAT_RESERVED,	/* a nid (0, node or meta inode): reset the entry */
	RA_USER_BLOCKS,		/* d user_block_count */
	RA_CP_RESERVE,		/* a rsvd_segment_count, b overprov_segment_count */
	RA_CURSEG_MOVE,		/* a log: to a fresh segment (it shares one) */
	RA_SUM_SET,		/* a blkaddr, b nid, c ofs_in_node, d version: its SSA entry */
	RA_SUM_TYPE,		/* a segno, b 1 node / 0 data: its summary's type */
	RA_INODE_PINO,		/* a ino, b i_pino */
};

struct rep_act {
	uint32_t code;		/* problem fixed by this change */
	uint8_t kind;
	uint32_t a, b, c;
	uint64_t d;
};

struct fsck_ctx;
/* Room for element n of the array *arr (elements of size bytes) holding
 * n: grown geometrically; 0 or -ENOMEM. */
int grow_array(void *arr, unsigned n, size_t size);
/* Record a change for an accepted fix of problem code. */
int rep_add(struct fsck_ctx *ctx, uint32_t code, uint8_t kind, uint32_t a, uint32_t b,
	    uint32_t c, uint64_t d);
/* The NAT as it will be after the repair (cleared and re-owned entries). */
int fsck_nat(struct fsck_ctx *ctx, uint32_t nid, struct f2_nat_info *ni);
/* Free NAT entry nid for problem code (recorded and seen by fsck_nat). */
int rep_nat_clear(struct fsck_ctx *ctx, uint32_t code, uint32_t nid);
int rep_nat_ino(struct fsck_ctx *ctx, uint32_t code, uint32_t nid, uint32_t ino);
/* The overlay alone: nid will be owned by ino (and at blkaddr, when not 0). */
int rep_nat_overlay(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t blkaddr);
/* Free entry nid (owner ino; 0 or an impossible one: unknown) for
 * problem code, unless relocate_lost() then finds its node intact in
 * another block (relocate.c). */
int rep_nat_lost(struct fsck_ctx *ctx, uint32_t code, uint32_t nid, uint32_t ino);
/* After the NAT scan: re-point the entries rep_nat_lost() freed whose
 * node is found. */
int relocate_lost(struct fsck_ctx *ctx);
void rep_free(struct fsck_ctx *ctx);
#endif
