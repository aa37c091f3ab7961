// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_counts.c - phase 8: the checkpoint's counters against what the
 * walk found: valid blocks (nodes, data, reserved NEW_ADDR blocks and
 * compressed cluster heads), valid nodes and valid inodes; and the SIT's
 * total against valid_block_count less those reserved blocks.  (Free
 * segments were compared when the SIT was loaded.)
 * Builds: nothing.
 */
#include "fsck.h"
#include "problem.h"

int pass_counts(struct fsck_ctx *ctx)
{
	const struct f2_checkpoint *cp = ctx->fs->cp;
	uint64_t vb = f2_le64(cp->valid_block_count);
	uint32_t vn = f2_le32(cp->valid_node_count), vi = f2_le32(cp->valid_inode_count);

	if (vb != ctx->blocks_found)
		fix_problem(ctx, PR_CNT_VALID_BLOCKS,
			    "checkpoint: valid_block_count %llu, found %llu",
			    (unsigned long long)vb, (unsigned long long)ctx->blocks_found);
	/* reserved blocks (NEW_ADDR, compressed cluster heads) are counted
	 * in valid_block_count but own no block in the SIT */
	if (vb < ctx->reserved_found || vb - ctx->reserved_found != ctx->sit_total_valid)
		fix_problem(ctx, PR_CNT_SIT_TOTAL,
			    "checkpoint: valid_block_count %llu less %llu reserved blocks found, "
			    "the SIT counts %llu", (unsigned long long)vb,
			    (unsigned long long)ctx->reserved_found,
			    (unsigned long long)ctx->sit_total_valid);
	if (vn != ctx->nodes_found)
		fix_problem(ctx, PR_CNT_VALID_NODES, "checkpoint: valid_node_count %u, found %llu",
			    vn, (unsigned long long)ctx->nodes_found);
	if (vi != ctx->inodes_found)
		fix_problem(ctx, PR_CNT_VALID_INODES, "checkpoint: valid_inode_count %u, found %llu",
			    vi, (unsigned long long)ctx->inodes_found);
	return 0;
}
