// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_counts.c - phase 8: the checkpoint's counters against what the
 * walk found: valid blocks (nodes, data, reserved NEW_ADDR blocks and
 * compressed cluster heads), valid nodes, valid inodes, free segments
 * (from the SIT: more is an error; less only a warning, since the kernel
 * never reads the count, and nothing at all within the shortfall
 * cp_free.c allows after the kernel disabled checkpointing); and the
 * SIT's total valid blocks against the blocks found less those reserved
 * ones.
 * Repair: when the counters are the only inconsistency found, a new
 * checkpoint carrying the found values goes into the other pack
 * (repair_cp.c); with structural repairs pending, or when the newest pack
 * was damaged and an older one is in use, the write engine's checkpoint
 * (pass_repair.c) carries them; with errors left that cannot be repaired,
 * they are not touched, since what was found is not what the file
 * system will hold.
 * Builds: nothing.
 */
#include "f2/errors.h"
#include "fsck.h"
#include "problem.h"
#include "repair.h"

int pass_counts(struct fsck_ctx *ctx)
{
	const struct f2_checkpoint *cp = ctx->fs->cp;
	struct cp_counts c = {
		f2_le64(cp->valid_block_count), f2_le32(cp->valid_node_count),
		f2_le32(cp->valid_inode_count), f2_le32(cp->free_segment_count),
	};
	uint32_t slack;
	int fix = 0, err, structural;

	if (ctx->sit_total_valid + ctx->reserved_found != ctx->blocks_found &&
	    fix_problem(ctx, PR_CNT_SIT_TOTAL,
			"SIT: %llu valid blocks, found %llu (less %llu reserved)",
			(unsigned long long)ctx->sit_total_valid,
			(unsigned long long)(ctx->blocks_found - ctx->reserved_found),
			(unsigned long long)ctx->reserved_found))
		rep_add(ctx, PR_CNT_SIT_TOTAL, RA_NOTE, 0, 0, 0, 0);
	/* with structural repairs pending, their checkpoint carries the
	 * counters; so it does when the newest pack is damaged (the engine's
	 * checkpoint is built on the older one in use, and replaces it) */
	structural = ctx->nacts != 0 || ctx->cp_fallback;
	if (ctx->errors_left)
		ctx->no_repair = "other errors are left";
	if (c.valid_blocks != ctx->blocks_found &&
	    fix_problem(ctx, PR_CNT_VALID_BLOCKS, "checkpoint: valid_block_count %llu, found %llu",
			(unsigned long long)c.valid_blocks, (unsigned long long)ctx->blocks_found)) {
		c.valid_blocks = ctx->blocks_found;
		fix |= 1;
	}
	if (c.valid_nodes != ctx->nodes_found &&
	    fix_problem(ctx, PR_CNT_VALID_NODES, "checkpoint: valid_node_count %u, found %llu",
			c.valid_nodes, (unsigned long long)ctx->nodes_found)) {
		c.valid_nodes = (uint32_t)ctx->nodes_found;
		fix |= 2;
	}
	if (c.valid_inodes != ctx->inodes_found &&
	    fix_problem(ctx, PR_CNT_VALID_INODES, "checkpoint: valid_inode_count %u, found %llu",
			c.valid_inodes, (unsigned long long)ctx->inodes_found)) {
		c.valid_inodes = (uint32_t)ctx->inodes_found;
		fix |= 4;
	}
	vmsg(ctx, "checkpoint: free_segment_count %u, the SIT has %u free segments",
	     c.free_segs, ctx->free_segs_found);
	slack = c.free_segs < ctx->free_segs_found ? fsck_cp_free_slack(ctx) : 0;
	if (c.free_segs < ctx->free_segs_found && ctx->free_segs_found - c.free_segs <= slack) {
		vmsg(ctx, "checkpoint: written with checkpointing disabled: %u free segment(s) "
		     "still in use, at most %u may be", ctx->free_segs_found - c.free_segs, slack);
		/* a checkpoint fsck writes carries the exact count */
		c.free_segs = ctx->free_segs_found;
	} else if (c.free_segs < ctx->free_segs_found) {
		/* the kernel never reads the count (it rebuilds its free map
		 * from the SIT), so one too low harms nothing; 6.12 has left
		 * one 16 segments short on a zoned volume it filled, for a
		 * reason not found (docs/status.md) */
		fix_problem(ctx, PR_CNT_FREE_SEGS_SHORT,
			    "checkpoint: free_segment_count %u, the SIT has %u free segments",
			    c.free_segs, ctx->free_segs_found);
		c.free_segs = ctx->free_segs_found;
	} else if (c.free_segs > ctx->free_segs_found &&
		   fix_problem(ctx, PR_CNT_FREE_SEGS,
			"checkpoint: free_segment_count %u, the SIT has %u free segments",
			c.free_segs, ctx->free_segs_found)) {
		c.free_segs = ctx->free_segs_found;
		fix |= 8;
	}
	ctx->no_repair = NULL;
	if (!fix)
		return 0;
	if (structural) {
		static const uint32_t codes[4] = { PR_CNT_VALID_BLOCKS, PR_CNT_VALID_NODES,
						   PR_CNT_VALID_INODES, PR_CNT_FREE_SEGS };

		for (int i = 0; i < 4; i++)
			if (fix & (1 << i))
				rep_add(ctx, codes[i], RA_NOTE, 0, 0, 0, 0);
		return 0;
	}
	err = repair_cp_counters(ctx, &c);
	if (err)
		fprintf(ctx->out, "  writing the new checkpoint failed: %s\n", f2_strerror(err));
	if (fix & 1)
		problem_fixed(ctx, PR_CNT_VALID_BLOCKS, !err);
	if (fix & 2)
		problem_fixed(ctx, PR_CNT_VALID_NODES, !err);
	if (fix & 4)
		problem_fixed(ctx, PR_CNT_VALID_INODES, !err);
	if (fix & 8)
		problem_fixed(ctx, PR_CNT_FREE_SEGS, !err);
	return 0;
}
