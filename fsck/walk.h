/* SPDX-License-Identifier: GPL-2.0-or-later */
/* walk.h - state of the node-tree walk of one inode (pass_tree.c, pass_dir.c). */
#ifndef FSCK_WALK_H
#define FSCK_WALK_H
#include "cfnames.h"
#include "fsck.h"

struct work {
	uint32_t ino, parent;
	uint8_t ftype;		/* from the dentry, F2_FT_UNKNOWN for roots */
	uint8_t special;	/* root, quota or orphan: no dentry names it */
};

struct walk {
	struct fsck_ctx *ctx;
	struct f2_inode_ref *ir;
	uint32_t ino;
	int is_dir;
	/* casefolded directory: 1 its names fold (utf8-12.1), -1 they
	 * cannot be checked (unknown encoding, or encrypted), 0 not one */
	int cf, strict;		/* strict: the encoding's strict flag */
	struct cf_names cfn;	/* the directory's names so far, when cf is 1 */
	uint32_t adb;		/* data addresses per direct node */
	uint32_t nofs;		/* node offset of the node whose addresses are walked */
	int nver;		/* and its NAT version (-1: unknown), which the SSA
				 * entries of its data blocks carry */
	uint64_t bidx;		/* directory block of the dentry handed to tree_dentry
				 * (UINT64_MAX inline) */
	uint32_t slot;		/* and its slot */
	uint32_t levels;	/* hash levels holding directory blocks */
	uint64_t dir_end;	/* one past the last directory block mapped */
	uint64_t nodes, blocks;	/* found for i_blocks */
	uint64_t compr;		/* found for i_compr_blocks: unreleased cluster
				 * heads and the reservations after them */
	uint64_t chead;		/* file block of the last cluster head seen */
	/* i_ext of a regular file (len 0: none, or not checked), and how
	 * many of its file blocks the tree maps where it says */
	uint32_t ext_fofs, ext_blk, ext_len, ext_hits;
	int have_dot, have_dotdot;
	uint32_t dotdot;
	uint8_t *node[3];	/* node buffers by level: direct, indirect, double */
	uint8_t *data;		/* one data block */
	/* the work list (children found in dentries) */
	struct work **stack;
	uint32_t *nstack, *capstack;
};

/* pass_dir.c */
void dir_check_block(struct walk *w, const uint8_t *blk, uint64_t bidx);
void dir_check_inline(struct walk *w);
/* pass_tree.c: one dentry naming ino with file type ftype found in w's
 * directory: 1 when it stays, 0 when its removal was recorded, < 0 */
int tree_dentry(struct walk *w, uint32_t ino, uint8_t ftype, const uint8_t *name, uint32_t len);
#endif
