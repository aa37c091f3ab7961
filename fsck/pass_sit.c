// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_sit.c - phase 3 (load) and phase 7 (compare): the SIT.
 *
 * Load checks every main-area segment's entry (journal first): valid
 * count against the population of its bitmap, segment type, the type and
 * the write pointer of the current segments, and counts free segments.
 * Builds: ctx->seg_vblocks, ctx->seg_type (3 bytes a segment),
 * ctx->seg_unusable (zone capacities, host-managed devices only) and
 * ctx->sit_valid, a sparse bitmap of valid main-area blocks (chunks only
 * where segments are in use, so an empty 1 TiB volume costs ~1.6 MB).
 *
 * Compare (after the tree walk) reports, per segment, blocks the SIT
 * marks valid that nothing reachable claims.  Blocks claimed but free in
 * the SIT were reported by the walk itself.
 */
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "fsck.h"
#include "problem.h"
#include "repair.h"

struct sit_state {
	struct fsck_ctx *ctx;
	uint32_t free_segs;
};

static int popcount_map(const uint8_t *m)
{
	int n = 0;

	for (int i = 0; i < F2_SIT_VBLOCK_MAP_SIZE; i++)
		n += __builtin_popcount(m[i]);
	return n;
}

/* Linux checks the SIT block's entry of a segment even when the journal
 * holds a newer one: its count must match its bitmap too. */
static void check_shadowed(struct fsck_ctx *ctx, uint32_t segno)
{
	struct f2_sit_info b;
	int n;

	if (f2_sit_block_get(ctx->fs, segno, &b))
		return;	/* unreadable: other checks report the SIT area */
	n = popcount_map(b.valid_map);
	if (n != b.vblocks &&
	    fix_problem(ctx, PR_SIT_VBLOCKS, "segment %u: valid count %u, bitmap has %d "
			"(SIT block, under the journal's entry)", segno, b.vblocks, n)) {
		ctx->sit_blocks_bad = 1;
		rep_add(ctx, PR_SIT_VBLOCKS, RA_NOTE, 0, 0, 0, 0);
	}
}

static int one_seg(void *arg, const struct f2_sit_info *si)
{
	static const uint8_t zero[F2_SIT_VBLOCK_MAP_SIZE];
	struct sit_state *st = arg;
	struct fsck_ctx *ctx = st->ctx;
	struct f2_fs *fs = ctx->fs;
	int c = f2_curseg_of(fs, si->segno), n;
	uint64_t base = (uint64_t)si->segno * F2_BLKS_PER_SEG;

	if ((si->segno & 4095) == 0)
		progress(ctx, "SIT", si->segno, fs->main_segs);
	ctx->seg_vblocks[si->segno] = si->vblocks;
	ctx->seg_type[si->segno] = si->type;
	if (fsck_seg_free(ctx, si->segno))
		st->free_segs++;
	if (!si->vblocks && !memcmp(si->valid_map, zero, sizeof(zero)))
		goto curseg;
	n = popcount_map(si->valid_map);
	/* SIT problems are repaired by the rebuild from the walk (pass_repair) */
	if (n != si->vblocks &&
	    fix_problem(ctx, PR_SIT_VBLOCKS, "segment %u: valid count %u, bitmap has %d%s",
			si->segno, si->vblocks, n, si->in_journal ? " (SIT journal)" : ""))
		rep_add(ctx, PR_SIT_VBLOCKS, RA_NOTE, 0, 0, 0, 0);
	if (si->in_journal)
		check_shadowed(ctx, si->segno);
	if (si->type >= F2_NR_CURSEG &&
	    fix_problem(ctx, PR_SIT_TYPE, "segment %u: type %u (valid 0..5)", si->segno, si->type))
		rep_add(ctx, PR_SIT_TYPE, RA_NOTE, 0, 0, 0, 0);
	ctx->sit_total_valid += si->vblocks;
	for (uint32_t b = 0; b < F2_BLKS_PER_SEG; b++)
		if (f2_test_bit_msb(si->valid_map, b) && sbm_set(&ctx->sit_valid, base + b) < 0)
			return -12;
curseg:
	if (c < 0)
		return 0;
	if (si->type != c &&
	    fix_problem(ctx, PR_SIT_CURSEG_TYPE, "segment %u: current segment of log %d has "
			"type %u", si->segno, c, si->type))
		rep_add(ctx, PR_SIT_CURSEG_TYPE, RA_NOTE, 0, 0, 0, 0);
	if (fs->curseg[c].alloc_type == F2_LFS) {
		for (uint32_t b = fs->curseg[c].blkoff; b < F2_BLKS_PER_SEG; b++)
			if (f2_test_bit_msb(si->valid_map, b)) {
				if (fix_problem(ctx, PR_SIT_PAST_CURSEG,
					    "segment %u (log %d): block %u valid past the write "
					    "pointer %u", si->segno, c, b, fs->curseg[c].blkoff))
					rep_add(ctx, PR_SIT_PAST_CURSEG, RA_NOTE, 0, 0, 0, 0);
				break;
			}
	}
	return 0;
}

int pass_sit_load(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	struct sit_state st = { ctx, 0 };
	int err;

	ctx->seg_vblocks = calloc(fs->main_segs, sizeof(*ctx->seg_vblocks));
	ctx->seg_type = calloc(fs->main_segs, 1);
	if (!ctx->seg_vblocks || !ctx->seg_type ||
	    sbm_init(&ctx->sit_valid, (uint64_t)fs->main_segs * F2_BLKS_PER_SEG))
		return -12;
	ctx->seg_unusable = fsck_unusable_segs(ctx);
	err = f2_sit_iter(fs, one_seg, &st);
	if (err == -12)
		return err;
	if (err) {
		fix_problem(ctx, PR_SSA_READ, "SIT: %s", fs->why);
		ctx->fatal = 1;
		return 0;
	}
	ctx->free_segs_found = st.free_segs;
	return 0;
}

int pass_sit_compare(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	uint64_t i = sbm_next(&ctx->sit_valid, 0), end = ctx->sit_valid.nbits;

	while (i < end) {
		uint32_t segno = (uint32_t)(i / F2_BLKS_PER_SEG), n = 0;
		uint64_t seg_end = (uint64_t)(segno + 1) * F2_BLKS_PER_SEG, first = 0;

		for (; i < seg_end; i = sbm_next(&ctx->sit_valid, i + 1)) {
			if (sbm_test(&ctx->blk_claimed, i))
				continue;
			if (!n++)
				first = i;
		}
		if (n)
			if (fix_problem(ctx, PR_SIT_UNREACHABLE,
				    "segment %u: %u block(s) valid in the SIT but unreachable, "
				    "first at block address %llu", segno, n,
				    (unsigned long long)(fs->main_blkaddr + first)))
				rep_add(ctx, PR_SIT_UNREACHABLE, RA_NOTE, 0, 0, 0, 0);
	}
	return 0;
}

int fsck_seg_free(const struct fsck_ctx *ctx, uint32_t s)
{
	return !ctx->seg_vblocks[s] && f2_curseg_of(ctx->fs, s) < 0 &&
	       !(ctx->seg_unusable && ctx->seg_unusable[s]);
}
