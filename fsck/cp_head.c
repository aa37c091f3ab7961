// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp_head.c - a committed checkpoint whose head block was damaged after
 * the fact.  The kernel writes a pack's tail (a copy of its head) last,
 * so an intact tail newer than the pack in use proves the checkpoint was
 * committed: the kernel would fall back to the older pack and silently
 * lose what was written between them.  -y rewrites the head from the
 * tail, and the volume is opened again on the newer pack before anything
 * else is checked.  A good head whose pack count misses a tail that
 * repeats it (the count changed in the head, or in head and tail) is a
 * committed pack too: -y puts the right count in both.  (A good head
 * whose tail is missing or damaged is a checkpoint that was never
 * finished: pass_cp notes it, nothing else.)
 */
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/io.h"
#include "fsck.h"
#include "problem.h"

/* Would the kernel take pack p at version v over the pack in use? */
static int newer(const struct f2_fs *fs, int p, uint64_t v)
{
	int64_t d;

	if (!fs->cp)
		return 1;	/* no pack in use at all */
	d = (int64_t)(v - fs->cp_ver);
	return d > 0 || (d == 0 && p == 0);
}

/* Pack p's head verifies but its count misses the tail (see the top). */
static int count_check(struct fsck_ctx *ctx, int p, uint8_t *fixed, int *rewritten)
{
	const struct f2_cp_pack_info *pi = &ctx->fs->packs[p];
	const struct f2_checkpoint *cp = (const void *)fixed;
	uint32_t off;
	int err;

	if (f2_cp_find_twin(ctx->fs, p, fixed, &off))
		return 0;
	ctx->cp_head_bad[p] = 1;
	if (!fix_problem(ctx, PR_CP_PACK_COUNT, "checkpoint pack %d (version %llu): %s; the tail "
			 "is block %u: cp_pack_total_block_count should be %u", p + 1,
			 (unsigned long long)f2_le64(cp->checkpoint_ver), pi->why, pi->start + off,
			 off + 1))
		return 0;
	err = f2_io_write_block(ctx->rw, pi->start + off, fixed);
	if (!err)
		err = f2_io_write_block(ctx->rw, pi->start, fixed);
	if (!err)
		err = f2_io_flush(ctx->rw);
	problem_fixed(ctx, PR_CP_PACK_COUNT, !err);
	if (!err)
		*rewritten = 1;
	return 0;
}

int cp_head_check(struct fsck_ctx *ctx, int *rewritten)
{
	struct f2_fs *fs = ctx->fs;
	uint8_t *tail = malloc(F2_BLKSIZE);
	const struct f2_checkpoint *cp = (const void *)tail;
	int err = 0;

	*rewritten = 0;
	if (!tail)
		return -12;
	for (int p = 0; p < 2 && !err; p++) {
		const struct f2_cp_pack_info *pi = &fs->packs[p];
		uint32_t off;
		uint64_t v;

		if (pi->valid)
			continue;
		if (strncmp(pi->why, "head block", 10)) {
			err = count_check(ctx, p, tail, rewritten);
			continue;
		}
		if (f2_cp_find_tail(fs, p, tail, &off))
			continue;
		v = f2_le64(cp->checkpoint_ver);
		if (!newer(fs, p, v))
			continue;
		ctx->cp_head_bad[p] = 1;
		if (!fix_problem(ctx, PR_CP_HEAD_DAMAGED, "checkpoint pack %d: %s; its tail (block %u, "
				 "version %llu) is intact and newer than %s", p + 1, pi->why,
				 pi->start + off, (unsigned long long)v,
				 fs->cp ? "the pack in use" : "any valid pack"))
			continue;
		err = f2_io_write_block(ctx->rw, pi->start, tail);
		if (!err)
			err = f2_io_flush(ctx->rw);
		if (err) {
			problem_fixed(ctx, PR_CP_HEAD_DAMAGED, 0);
			err = 0;
			continue;
		}
		problem_fixed(ctx, PR_CP_HEAD_DAMAGED, 1);
		*rewritten = 1;
	}
	free(tail);
	return err;
}
