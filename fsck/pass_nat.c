// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_nat.c - phase 4 (scan) and phase 6 (unreachable): the NAT.
 *
 * Scan walks every NAT entry in use (journal first): nid 0 must be free,
 * ino in range, block address inside the main area, valid in the SIT and
 * named by no other entry; per NAT block the count of used entries is
 * checked against nat_bits (full / empty) when the checkpoint has them.
 * Builds: ctx->nat_used (nids in use), ctx->nat_blocks (their blocks).
 *
 * Unreachable (after the tree walk): every nid in use that the walk did
 * not reach.  An unreachable inode is reported once; the other nodes of
 * an unreachable inode are not reported again.
 */
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "fsck.h"
#include "problem.h"

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
	if (is_empty != (valid == 0) || is_full != (valid == F2_NAT_ENTRIES_PER_BLOCK))
		fix_problem(ctx, PR_CP_NAT_BITS,
			    "NAT block %u: %u entries in use, nat_bits say %s", blk, valid,
			    is_empty ? "empty" : is_full ? "full" : "partly used");
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
		if (ni->ino != ni->nid)
			fix_problem(ctx, PR_NAT_RESERVED, "nid %u (reserved): NAT ino %u", ni->nid,
				    ni->ino);
		return 0;
	}
	if (ni->nid == 0) {
		fix_problem(ctx, PR_NAT_RESERVED, "nid 0: in use (ino %u, block address %u)",
			    ni->ino, ni->blkaddr);
		return 0;
	}
	if (ni->blkaddr == F2_NULL_ADDR)
		return 0;	/* a freed entry keeping its ino */
	if (sbm_set(&ctx->nat_used, ni->nid) < 0)
		return -12;
	if (!ni->ino || ni->ino <= F2_META_INO || ni->ino >= fs->max_nid) {
		fix_problem(ctx, PR_NAT_INO_RANGE, "nid %u: NAT ino %u out of range (3..%u)",
			    ni->nid, ni->ino, fs->max_nid - 1);
		return 0;
	}
	idx = main_idx(ctx, ni->blkaddr);
	if (idx < 0) {
		fix_problem(ctx, PR_NAT_ADDR_RANGE,
			    "nid %u (ino %u): block address %u outside the main area [%u, %llu)",
			    ni->nid, ni->ino, ni->blkaddr, fs->main_blkaddr,
			    (unsigned long long)fs->main_blkaddr +
			    (uint64_t)fs->main_segs * F2_BLKS_PER_SEG);
		return 0;
	}
	if (!sbm_test(&ctx->sit_valid, (uint64_t)idx))
		fix_problem(ctx, PR_NAT_ADDR_NOT_VALID,
			    "nid %u (ino %u): block address %u (segment %u) is free in the SIT",
			    ni->nid, ni->ino, ni->blkaddr, f2_fs_segno(fs, ni->blkaddr));
	switch (sbm_set(&ctx->nat_blocks, (uint64_t)idx)) {
	case -1:
		return -12;
	case 1:
		fix_problem(ctx, PR_NAT_DUP_ADDR,
			    "nid %u (ino %u): block address %u is named by another NAT entry",
			    ni->nid, ni->ino, ni->blkaddr);
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
	return 0;
}

int pass_nat_unreachable(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;

	for (uint64_t nid = sbm_next(&ctx->nat_used, 0); nid < ctx->nat_used.nbits;
	     nid = sbm_next(&ctx->nat_used, nid + 1)) {
		struct f2_nat_info ni;

		if (sbm_test(&ctx->nid_reached, nid))
			continue;
		if (f2_nat_lookup(fs, (uint32_t)nid, &ni))
			continue;
		if (ni.ino == nid) {
			fix_problem(ctx, PR_NAT_UNREACHABLE_INODE,
				    "ino %u (block address %u): no dentry leads to it", ni.ino,
				    ni.blkaddr);
			continue;
		}
		/* a node of an unreachable inode: reported with its inode */
		if (sbm_test(&ctx->nat_used, ni.ino) && !sbm_test(&ctx->nid_reached, ni.ino))
			continue;
		fix_problem(ctx, PR_NAT_UNREACHABLE_NODE,
			    "nid %u (ino %u, block address %u): no node of the inode points to it",
			    (uint32_t)nid, ni.ino, ni.blkaddr);
	}
	return 0;
}
