// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_nat.c - phase 4 (scan) and phase 6 (unreachable): the NAT.
 *
 * Scan walks every NAT entry in use (journal first): nid 0 must be free
 * and the node and meta inodes' entries their own (else reset by the repair),
 * ino in range, block address inside the main area, valid in the SIT and
 * named by no other entry; per NAT block the count of used entries is
 * checked against nat_bits (full / empty) when the checkpoint has them.
 * An entry freed for a bad block address (outside the main area, or
 * another node's), or for an impossible ino whose block is not the
 * node's, is then re-pointed to its node's intact block when relocate.c
 * finds one.
 * Builds: ctx->nat_used (nids in use), ctx->nat_blocks (their blocks).
 *
 * Unreachable (after the tree walk): every nid in use that the walk did
 * not reach.  An unreachable inode is reported once; the other nodes of
 * an unreachable inode are not reported again.
 */
#include <errno.h>
#include <stdlib.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "fsck.h"
#include "problem.h"
#include "repair.h"

struct nat_state {
	struct fsck_ctx *ctx;
	int64_t cur_blk;	/* NAT block whose entries are being counted */
	uint32_t cur_valid;
	uint32_t next_blk;	/* first NAT block not yet compared with nat_bits */
};

static void nat_bits_check(struct fsck_ctx *ctx, uint32_t blk, uint32_t valid)
{
	const uint8_t *full = ctx->nat_bits, *empty = ctx->nat_bits + ctx->nat_bits_bytes;
	int is_full, is_empty;

	if (blk == 0)
		valid++;	/* nid 0 counts as used, as the kernel counts it */
	is_full = f2_test_bit_lsb(full, blk);
	is_empty = f2_test_bit_lsb(empty, blk);
	if ((is_empty != (valid == 0) || is_full != (valid == F2_NAT_ENTRIES_PER_BLOCK)) &&
	    fix_problem(ctx, PR_CP_NAT_BITS,
			"NAT block %u: %u entries in use, nat_bits say %s", blk, valid,
			is_empty ? "empty" : is_full ? "full" : "partly used"))
		rep_add(ctx, PR_CP_NAT_BITS, RA_NAT_BITS, 0, 0, 0, 0);
}

/* Compare nat_bits for every block before `upto` (blocks with no entries
 * in use between the last one seen and upto are empty). */
static void flush_blocks(struct nat_state *st, uint32_t upto)
{
	if (!st->ctx->nat_bits)
		return;
	if (st->cur_blk >= 0) {
		nat_bits_check(st->ctx, (uint32_t)st->cur_blk, st->cur_valid);
		st->next_blk = (uint32_t)st->cur_blk + 1;
	}
	for (; st->next_blk < upto; st->next_blk++)
		nat_bits_check(st->ctx, st->next_blk, 0);
}

/* The owner ino the footer of node nid's block gives, when the footer
 * names nid and a possible ino; else 0. */
static uint32_t footer_owner(struct fsck_ctx *ctx, uint32_t nid, uint32_t blkaddr)
{
	uint8_t *buf = malloc(F2_BLKSIZE);
	const struct f2_node *n = (const void *)buf;
	uint32_t ino = 0;

	if (buf && !f2_fs_read_block(ctx->fs, blkaddr, buf) && f2_le32(n->footer.nid) == nid) {
		ino = f2_le32(n->footer.ino);
		if (ino <= F2_META_INO || ino >= ctx->fs->max_nid)
			ino = 0;
	}
	free(buf);
	return ino;
}

/* Is blkaddr (in the main area) in a segment the SIT types as data?  A
 * node there is either misplaced or not a node: its footer tells. */
static int data_seg(const struct fsck_ctx *ctx, uint32_t blkaddr)
{
	return ctx->seg_type[f2_fs_segno(ctx->fs, blkaddr)] < F2_CURSEG_HOT_NODE;
}

struct dup_find {
	uint32_t blkaddr, nid, found;
};

static int dup_one(void *arg, const struct f2_nat_info *ni)
{
	struct dup_find *d = arg;

	if (ni->blkaddr == d->blkaddr && ni->nid != d->nid && ni->nid < d->nid) {
		d->found = ni->nid;
		return 1;
	}
	return 0;
}

/* The earlier entry nid naming the block of a NAT_DUP_ADDR is not its
 * node's: freed, or re-pointed to its node's own block (relocate.c). */
static int lose_other(struct fsck_ctx *ctx, uint32_t code, uint32_t nid)
{
	struct f2_nat_info ni;

	if (f2_nat_lookup(ctx->fs, nid, &ni))
		ni.ino = 0;
	return rep_nat_lost(ctx, code, nid, ni.ino);
}

/*
 * An accepted NAT_DUP_ADDR: ni names the block an earlier entry names.
 * The block's footer says whose it is; every entry that is not its nid
 * is freed (a node naming itself is kept whichever came first).
 */
static int dup_addr(struct fsck_ctx *ctx, const struct f2_nat_info *ni)
{
	struct dup_find d = { ni->blkaddr, ni->nid, 0 };
	uint8_t *buf = malloc(F2_BLKSIZE);
	const struct f2_node *n = (const void *)buf;
	uint32_t owner = 0;
	int err;

	if (!buf)
		return -12;
	if (!f2_fs_read_block(ctx->fs, ni->blkaddr, buf))
		owner = f2_le32(n->footer.nid);
	free(buf);
	if (f2_nat_iter(ctx->fs, dup_one, &d) < 0)
		return -12;
	if (owner != ni->nid)
		return rep_nat_lost(ctx, PR_NAT_DUP_ADDR, ni->nid, ni->ino) ||
		       (d.found && owner != d.found && lose_other(ctx, 0, d.found)) ? -12 : 0;
	if (!d.found) {
		problem_fixed(ctx, PR_NAT_DUP_ADDR, 0);	/* the other entry was not found */
		return 0;
	}
	err = lose_other(ctx, PR_NAT_DUP_ADDR, d.found);
	return err;
}

static int one_nat(void *arg, const struct f2_nat_info *ni)
{
	struct nat_state *st = arg;
	struct fsck_ctx *ctx = st->ctx;
	struct f2_fs *fs = ctx->fs;
	uint32_t blk = ni->nid / F2_NAT_ENTRIES_PER_BLOCK;
	int64_t idx;

	if ((int64_t)blk != st->cur_blk) {
		flush_blocks(st, blk);
		st->cur_blk = blk;
		st->cur_valid = 0;
		if ((blk & 1023) == 0)
			progress(ctx, "NAT", ni->nid, fs->max_nid);
	}
	if (ni->blkaddr != F2_NULL_ADDR)
		st->cur_valid++;
	if (ni->nid == F2_NODE_INO || ni->nid == F2_META_INO) {
		if (ni->ino != ni->nid &&
		    fix_problem(ctx, PR_NAT_RESERVED, "nid %u (reserved): NAT ino %u", ni->nid,
				ni->ino))
			return rep_add(ctx, PR_NAT_RESERVED, RA_NAT_RESERVED, ni->nid, 0, 0, 0);
		return 0;
	}
	if (ni->nid == 0) {
		if (fix_problem(ctx, PR_NAT_RESERVED, "nid 0: in use (ino %u, block address %u)",
				ni->ino, ni->blkaddr))
			return rep_add(ctx, PR_NAT_RESERVED, RA_NAT_RESERVED, 0, 0, 0, 0);
		return 0;
	}
	if (ni->blkaddr == F2_NULL_ADDR)
		return 0;	/* a freed entry keeping its ino */
	if (sbm_set(&ctx->nat_used, ni->nid) < 0)
		return -12;
	idx = main_idx(ctx, ni->blkaddr);
	if (!ni->ino || ni->ino <= F2_META_INO || ni->ino >= fs->max_nid) {
		uint32_t owner = idx < 0 ? 0 : footer_owner(ctx, ni->nid, ni->blkaddr);

		/* when the block is not the node's, its node may be intact
		 * elsewhere: relocate.c looks for it by its nid */
		if (fix_problem(ctx, PR_NAT_INO_RANGE, "nid %u: NAT ino %u out of range (3..%u)%s",
				ni->nid, ni->ino, fs->max_nid - 1,
				owner ? "; its node's footer names a valid owner" : ""))
			return owner ? rep_nat_ino(ctx, PR_NAT_INO_RANGE, ni->nid, owner)
				     : rep_nat_lost(ctx, PR_NAT_INO_RANGE, ni->nid, 0);
		return 0;
	}
	if (idx < 0) {
		if (fix_problem(ctx, PR_NAT_ADDR_RANGE,
				"nid %u (ino %u): block address %u outside the main area [%u, %llu)",
				ni->nid, ni->ino, ni->blkaddr, fs->main_blkaddr,
				(unsigned long long)fs->main_blkaddr +
				(uint64_t)fs->main_segs * F2_BLKS_PER_SEG))
			return rep_nat_lost(ctx, PR_NAT_ADDR_RANGE, ni->nid, ni->ino);
		return 0;
	}
	if (data_seg(ctx, ni->blkaddr) && footer_owner(ctx, ni->nid, ni->blkaddr) != ni->ino) {
		if (fix_problem(ctx, PR_NAT_ADDR_DATA, "nid %u (ino %u): block address %u, in data "
				"segment %u, is not its node", ni->nid, ni->ino, ni->blkaddr,
				f2_fs_segno(fs, ni->blkaddr)))
			return rep_nat_lost(ctx, PR_NAT_ADDR_DATA, ni->nid, ni->ino);
		return 0;
	}
	/* a free block whose footer is another node's: a stale copy, not
	 * this node; its own block may be intact elsewhere (relocate.c) */
	if (!sbm_test(&ctx->sit_valid, (uint64_t)idx) &&
	    footer_owner(ctx, ni->nid, ni->blkaddr) != ni->ino) {
		if (fix_problem(ctx, PR_NAT_ADDR_STALE, "nid %u (ino %u): block address %u is free "
				"in the SIT and holds another node", ni->nid, ni->ino, ni->blkaddr))
			return rep_nat_lost(ctx, PR_NAT_ADDR_STALE, ni->nid, ni->ino);
		return 0;
	}
	if (!sbm_test(&ctx->sit_valid, (uint64_t)idx) &&
	    fix_problem(ctx, PR_NAT_ADDR_NOT_VALID,
			"nid %u (ino %u): block address %u (segment %u) is free in the SIT",
			ni->nid, ni->ino, ni->blkaddr, f2_fs_segno(fs, ni->blkaddr)) &&
	    rep_add(ctx, PR_NAT_ADDR_NOT_VALID, RA_NOTE, 0, 0, 0, 0))
		return -12;
	switch (sbm_set(&ctx->nat_blocks, (uint64_t)idx)) {
	case -1:
		return -12;
	case 1:
		if (fix_problem(ctx, PR_NAT_DUP_ADDR,
				"nid %u (ino %u): block address %u is named by another NAT entry",
				ni->nid, ni->ino, ni->blkaddr))
			return dup_addr(ctx, ni);
	}
	return 0;
}

int pass_nat_scan(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	struct nat_state st = { ctx, -1, 0, 0 };
	int err;

	if (sbm_init(&ctx->nat_used, fs->max_nid) ||
	    sbm_init(&ctx->nat_blocks, (uint64_t)fs->main_segs * F2_BLKS_PER_SEG))
		return -12;
	err = f2_nat_iter(fs, one_nat, &st);
	if (err == -12)
		return err;
	if (err) {
		fix_problem(ctx, PR_NODE_READ, "NAT: %s", fs->why);
		ctx->fatal = 1;
		return 0;
	}
	flush_blocks(&st, fs->max_nid / F2_NAT_ENTRIES_PER_BLOCK);
	return relocate_lost(ctx);
}

int pass_nat_unreachable(struct fsck_ctx *ctx)
{
	for (uint64_t nid = sbm_next(&ctx->nat_used, 0); nid < ctx->nat_used.nbits;
	     nid = sbm_next(&ctx->nat_used, nid + 1)) {
		struct f2_nat_info ni, owner;

		int cleared = ctx->nat_cleared.nbits && sbm_test(&ctx->nat_cleared, nid);

		if (sbm_test(&ctx->nid_reached, nid) || cleared)
			continue;
		if (fsck_nat(ctx, (uint32_t)nid, &ni))
			continue;
		if (ni.ino == nid)
			continue;	/* unreachable inodes: the tree phase */
		/* a node of an unreachable inode left as it is: reported with its
		 * inode (one freed by the repair frees its nodes too); an owner
		 * whose entry is no inode's is itself a node this loop frees */
		if (sbm_test(&ctx->nat_used, ni.ino) && !sbm_test(&ctx->nid_reached, ni.ino) &&
		    !(ctx->nat_cleared.nbits && sbm_test(&ctx->nat_cleared, ni.ino)) &&
		    !fsck_nat(ctx, ni.ino, &owner) && owner.ino == ni.ino)
			continue;
		if (fix_problem(ctx, PR_NAT_UNREACHABLE_NODE,
				"nid %u (ino %u, block address %u): no node of the inode points to it",
				(uint32_t)nid, ni.ino, ni.blkaddr) &&
		    rep_nat_clear(ctx, PR_NAT_UNREACHABLE_NODE, (uint32_t)nid))
			return -ENOMEM;
	}
	return 0;
}
