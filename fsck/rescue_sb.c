// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rescue_sb.c - neither superblock copy verifies nor can be merged from
 * the two (main.c, at open): the library (f2_rescue_sb(), f2/rescue.h)
 * makes one from the checkpoint packs that survive, the device size and
 * the inodes, verified by opening the volume with it in memory.  -n says
 * what it found; -y writes both copies (f2_sb_write_copies(), one after
 * the other, each flushed) and the volume is opened again and checked
 * in full; -p never rebuilds (exit 4).  No pack found: the volume is not
 * an f2fs one this can tell (SB_NONE_VALID, exit 8).
 */
#include <stdio.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/io.h"
#include "f2/rescue.h"
#include "f2/sb.h"
#include "support/exitcodes.h"
#include "fsck.h"
#include "problem.h"

static void report(struct fsck_ctx *ctx, const struct f2_rescue_sb *f)
{
	char feats[256];

	f2_features_format(f2_le32(f->sb.feature), feats, sizeof(feats));
	fprintf(ctx->out, "  superblock rebuilt from %s: %u segments per section, %u sections "
		"per zone, %u main segments\n", f->source, f->segs_per_sec, f->secs_per_zone,
		f2_le32(f->sb.segment_count_main));
	fprintf(ctx->out, "  features from %u inodes: %s%s; label, extension lists, sb_checksum "
		"and the strict casefold flag set to defaults\n", f->inodes,
		feats[0] ? feats : "none",
		f->csum_seed_solved ? " (a new uuid with the inodes' checksum seed)" :
				      " (a new uuid)");
}

int rescue_sb(struct fsck_ctx *ctx, int may_write)
{
	struct f2_rescue_sb found;
	struct f2_io *io = NULL;
	char why[F2_WHY_LEN], lost[2 * F2_WHY_LEN];
	int err, yes;

	snprintf(lost, sizeof(lost), "%s", ctx->fs->why);
	err = f2_rescue_sb(ctx->fs->io, &found, why, sizeof(why));
	if (err == -12) {
		fprintf(stderr, "fsck.f2fs: out of memory\n");
		return FSCK_EXIT_OPERATIONAL;
	}
	if (err) {
		fix_problem(ctx, PR_SB_NONE_VALID, "%s; %s", lost, why);
		return FSCK_EXIT_OPERATIONAL;
	}
	yes = fix_problem(ctx, PR_SB_LOST, "%s", lost);
	report(ctx, &found);
	if (!yes || !may_write)
		return FSCK_EXIT_UNCORRECTED;
	err = f2_io_open(ctx->opts.device, F2_IO_RDWR | F2_IO_EXCL, &io);
	if (!err)
		err = f2_sb_write_copies(io, &found.sb, F2_SB_BOTH);
	if (io)
		f2_io_close(io);
	problem_fixed(ctx, PR_SB_LOST, !err);
	if (err) {
		fprintf(ctx->out, "rescue failed: writing the superblock: %s\n", f2_strerror(err));
		return FSCK_EXIT_UNCORRECTED;
	}
	fprintf(ctx->out, "rescue: both superblock copies written; checking the volume\n");
	ctx->rescued = 1;
	return 0;
}
