// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * relocate.c - NAT entries the NAT phase frees as bad (a block address
 * outside the main area, or another node's block, or an impossible
 * owner) whose node is still intact elsewhere: after the scan, the valid
 * blocks of node segments that no NAT entry names are read, and a block
 * whose footer names the entry's nid and owner (an inode's owner is
 * itself; when the entry's owner is unknown, any possible one the footer
 * names, which the entry then takes), written no later than the
 * checkpoint in use (footer version), and, for an inode, that parses
 * with a good checksum, becomes the entry's block instead: the repair
 * re-points the entry (RA_NAT_MOVE) and the file is kept.  Two such
 * blocks of one version are ambiguous: the entry is freed.
 * Builds: ctx->lost (the freed entries, searched once, then dropped).
 */
#include <errno.h>
#include <stdlib.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "fsck.h"
#include "repair.h"

struct found {
	uint32_t blkaddr, ino;
	uint64_t ver;
	int ambiguous;
};

static int ino_ok(const struct f2_fs *fs, uint32_t ino)
{
	return ino > F2_META_INO && ino < fs->max_nid;
}

int rep_nat_lost(struct fsck_ctx *ctx, uint32_t code, uint32_t nid, uint32_t ino)
{
	if (ino && !ino_ok(ctx->fs, ino))
		ino = 0;	/* the owner is unknown: the footer names it */
	if (grow_array(&ctx->lost, ctx->nlost, sizeof(*ctx->lost)))
		return -ENOMEM;
	ctx->lost[ctx->nlost].nid = nid;
	ctx->lost[ctx->nlost++].ino = ino;
	return rep_nat_clear(ctx, code, nid);
}

/* The checkpoint version a node footer carries (its low half when the
 * upper one holds the checkpoint crc). */
static uint64_t version(const struct f2_fs *fs, uint64_t v)
{
	return (fs->cp_flags & F2_CP_CRC_RECOVERY) ? (v & 0xFFFFFFFFull) : v;
}

/* Is node n entry k's? */
static int matches(struct fsck_ctx *ctx, const struct f2_node *n, unsigned k,
		   struct f2_inode_ref *ir)
{
	uint32_t nid = ctx->lost[k].nid, ino = ctx->lost[k].ino;

	if (!ino)
		ino = f2_le32(n->footer.ino);
	if (f2_le32(n->footer.nid) != nid || f2_le32(n->footer.ino) != ino ||
	    !ino_ok(ctx->fs, ino))
		return 0;
	if (version(ctx->fs, f2_le64(n->footer.cp_ver)) > version(ctx->fs, ctx->fs->cp_ver))
		return 0;
	if (nid != ino)
		return 1;
	return !f2_inode_parse(ctx->fs, nid, n, ir) && ir->csum_ok != 0;
}

/* nid is the first member of a ctx->lost element */
static int by_nid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* ctx->lost is sorted by nid: the first entry of the node's nid. */
static unsigned first_of(const struct fsck_ctx *ctx, uint32_t nid)
{
	unsigned lo = 0, hi = ctx->nlost;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (ctx->lost[mid].nid < nid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void consider(struct fsck_ctx *ctx, const struct f2_node *n, uint32_t blkaddr,
		     struct found *f, struct f2_inode_ref *ir)
{
	uint32_t nid = f2_le32(n->footer.nid);

	for (unsigned k = first_of(ctx, nid); k < ctx->nlost && ctx->lost[k].nid == nid; k++) {
		uint64_t v;

		if (!matches(ctx, n, k, ir))
			continue;
		v = version(ctx->fs, f2_le64(n->footer.cp_ver));
		if (!f[k].blkaddr || v > f[k].ver) {
			f[k] = (struct found){ blkaddr, f2_le32(n->footer.ino), v, 0 };
		} else if (v == f[k].ver) {
			f[k].ambiguous = 1;
		}
	}
}

/* Entry k's block is f: the recorded clear becomes a move. */
static int repoint(struct fsck_ctx *ctx, unsigned k, const struct found *f)
{
	uint32_t nid = ctx->lost[k].nid, ino = f->ino;
	int64_t idx = main_idx(ctx, f->blkaddr);

	for (unsigned i = 0; i < ctx->nacts; i++) {
		struct rep_act *a = &ctx->acts[i];

		if (a->kind == RA_NAT_CLEAR && a->a == nid) {
			a->kind = RA_NAT_MOVE;
			a->b = ino;
			a->c = f->blkaddr;
		}
	}
	if (rep_nat_overlay(ctx, nid, ino, f->blkaddr))
		return -ENOMEM;
	sbm_clear(&ctx->nat_cleared, nid);
	if (idx >= 0 && sbm_set(&ctx->nat_blocks, (uint64_t)idx) < 0)
		return -ENOMEM;
	fprintf(ctx->out, "  nid %u (ino %u): its node is intact at block address %u: the "
		"entry points there instead\n", nid, ino, f->blkaddr);
	return 0;
}

int relocate_lost(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	struct f2_node *blk = NULL;
	struct f2_inode_ref *ir = NULL;
	struct found *f = NULL;
	int err = 0;

	if (!ctx->nlost)
		return 0;
	blk = malloc(sizeof(*blk));
	ir = malloc(sizeof(*ir));
	f = calloc(ctx->nlost, sizeof(*f));
	if (!blk || !ir || !f) {
		err = -ENOMEM;
		goto out;
	}
	qsort(ctx->lost, ctx->nlost, sizeof(*ctx->lost), by_nid);
	for (uint32_t segno = 0; segno < fs->main_segs; segno++) {
		uint64_t base = (uint64_t)segno * F2_BLKS_PER_SEG;

		if (ctx->seg_type[segno] < F2_CURSEG_HOT_NODE ||
		    ctx->seg_type[segno] > F2_CURSEG_COLD_NODE)
			continue;
		for (uint64_t i = sbm_next(&ctx->sit_valid, base); i < base + F2_BLKS_PER_SEG;
		     i = sbm_next(&ctx->sit_valid, i + 1)) {
			uint32_t blkaddr = (uint32_t)(fs->main_blkaddr + i);

			if (sbm_test(&ctx->nat_blocks, i) || f2_fs_read_block(fs, blkaddr, blk))
				continue;
			consider(ctx, blk, blkaddr, f, ir);
		}
	}
	for (unsigned k = 0; k < ctx->nlost && !err; k++)
		if (f[k].blkaddr && !f[k].ambiguous)
			err = repoint(ctx, k, &f[k]);
out:
	free(blk);
	free(ir);
	free(f);
	free(ctx->lost);
	ctx->lost = NULL;
	ctx->nlost = 0;
	return err;
}
