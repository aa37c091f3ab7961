// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_sb.c - phase 1: the superblock.
 *
 * Checks: each copy (block 0 and block 1, at byte 1024) on its own
 * through the library's verifier (magic, sizes, area order and bounds,
 * crc with sb_checksum), then that the two copies are identical (of two
 * that verify but differ, the library uses the one the checkpoint and
 * the inodes agree with: lib/fs/sb_choose.c); feature bits this version
 * does not implement (one that changes what the check reads stops it
 * here); with casefold an encoding the kernel knows (s_encoding 1,
 * utf8-12.1; the tree walk then folds names, else it leaves the names of
 * casefolded directories alone); the stop reasons and errors the kernel
 * recorded (s_stop_reason[], s_errors[]).  Repairs: a bad copy is
 * rewritten from the good one, a copy that differs from the one in use
 * (the primary unless the evidence was against it) from that one,
 * through the library's superblock writer (f2_sb_write_copies): the
 * block, then the sector with the magic, so a copy that had no good
 * magic gets one only when the rest is down, and the other copy is never
 * touched.  The kernel's records are cleared by the last phase
 * (pass_sb_records), once the full check has left nothing.
 * Builds: nothing.
 */
#include <stdio.h>
#include <string.h>
#include "f2/casefold.h"
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/io.h"
#include "f2/sb.h"
#include "fsck.h"
#include "problem.h"

/* Copy superblock copy `from` over copy `to` (the library's superblock
 * writer keeps the bytes before offset 1024, boot code, of the target). */
static int copy_sb(struct fsck_ctx *ctx, int from, int to)
{
	uint8_t src[F2_BLKSIZE];
	struct f2_super sb;
	int err;

	if (!ctx->rw)
		return -1;
	err = f2_io_read_block(ctx->rw, (uint64_t)from, src);
	if (err)
		return err;
	memcpy(&sb, src + F2_SUPER_OFFSET, sizeof(sb));
	return f2_sb_write_copies(ctx->rw, &sb, to ? F2_SB_BACKUP : F2_SB_PRIMARY);
}

/* One finding per bit this version does not implement: a warning when
 * what the check reads is laid out as without it, else the check stops. */
static void check_features(struct fsck_ctx *ctx)
{
	uint32_t unsup = f2_features_unsupported(ctx->fs->features);
	uint32_t unread = f2_features_unreadable(ctx->fs->features);
	char text[512];

	for (uint32_t bit = 1; bit; bit <<= 1) {
		if (!(unsup & bit))
			continue;
		f2_feature_unsupported_text(bit, text, sizeof(text));
		fix_problem(ctx, unread & bit ? PR_SB_FEATURE_UNREADABLE : PR_SB_FEATURE_UNKNOWN,
			    "superblock: %s", text);
		if (unread & bit)
			ctx->cannot_check = 1;
	}
}

/* What the kernel recorded: reported here, cleared by pass_sb_records. */
static void check_records(struct fsck_ctx *ctx)
{
	const struct f2_super *sb = &ctx->fs->sb;
	char stop[512], errs[1024];

	if (!f2_sb_has_records(sb))
		return;
	f2_sb_stop_reasons_format(sb, stop, sizeof(stop));
	f2_sb_errors_format(sb, errs, sizeof(errs));
	if (fix_problem(ctx, PR_SB_KERNEL_RECORDS, "superblock %d: checkpoint stop reasons: %s; "
			"errors: %s", ctx->fs->sb_which, stop[0] ? stop : "none",
			errs[0] ? errs : "none"))
		ctx->clear_records = 1;
}

int pass_sb(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	uint8_t blk[2][F2_BLKSIZE];

	if (fs->sb_merged) {
		struct f2_super sb = fs->sb;

		if (fix_problem(ctx, PR_SB_BOTH_BAD, "superblock 0: %s; superblock 1: %s; one that "
				"verifies was made from the two", fs->sb_why[0], fs->sb_why[1]))
			problem_fixed(ctx, PR_SB_BOTH_BAD, ctx->rw &&
				      !f2_sb_write_copies(ctx->rw, &sb, F2_SB_BOTH));
	} else if (!fs->sb_valid[0]) {
		if (fix_problem(ctx, PR_SB_PRIMARY_BAD, "superblock 0 (block 0): %s; backup is valid",
				fs->sb_why[0]))
			problem_fixed(ctx, PR_SB_PRIMARY_BAD, copy_sb(ctx, 1, 0) == 0);
	} else if (fs->sb_which == 1 && fs->sb_overruled) {
		if (fix_problem(ctx, PR_SB_PRIMARY_WRONG, "superblock 0 (block 0): %s",
				fs->sb_why[0]))
			problem_fixed(ctx, PR_SB_PRIMARY_WRONG, copy_sb(ctx, 1, 0) == 0);
	} else if (!fs->sb_valid[1]) {
		if (fix_problem(ctx, PR_SB_BACKUP_BAD, "superblock 1 (block 1): %s", fs->sb_why[1]))
			problem_fixed(ctx, PR_SB_BACKUP_BAD, copy_sb(ctx, 0, 1) == 0);
	} else if (!f2_io_read_block(fs->io, 0, blk[0]) && !f2_io_read_block(fs->io, 1, blk[1]) &&
		   memcmp(blk[0] + F2_SUPER_OFFSET, blk[1] + F2_SUPER_OFFSET,
			  sizeof(struct f2_super))) {
		size_t i = 0;

		while (blk[0][F2_SUPER_OFFSET + i] == blk[1][F2_SUPER_OFFSET + i])
			i++;
		if (fix_problem(ctx, PR_SB_COPIES_DIFFER,
				"superblocks 0 and 1 differ first at byte 0x%zx of the superblock%s%s",
				i, fs->sb_overruled ? "; superblock 1: " : "",
				fs->sb_overruled ? fs->sb_why[1] : ""))
			problem_fixed(ctx, PR_SB_COPIES_DIFFER, copy_sb(ctx, 0, 1) == 0);
	}
	check_features(ctx);
	if ((fs->features & F2_FEAT_CASEFOLD) && !f2_encoding_name(f2_le16(fs->sb.s_encoding)))
		fix_problem(ctx, PR_SB_ENCODING,
			    "superblock: s_encoding %u (flags 0x%x) is not utf8-12.1 (1); names in "
			    "casefolded directories are taken as bytes and not checked",
			    f2_le16(fs->sb.s_encoding), f2_le16(fs->sb.s_encoding_flags));
	check_records(ctx);
	vmsg(ctx, "superblock: using copy %d, %llu blocks, %u main segments, max nid %u",
	     fs->sb_which, (unsigned long long)fs->block_count, fs->main_segs, fs->max_nid);
	return 0;
}

/*
 * The last phase: the kernel's stop reasons and errors, accepted for
 * clearing by pass_sb, are cleared in both copies when the check leaves
 * nothing (every other repair is down by now: the records go last, so a
 * run cut short keeps them and the next one checks in full again).
 */
int pass_sb_records(struct fsck_ctx *ctx)
{
	struct f2_super sb;
	char why[F2_WHY_LEN];
	int err;

	if (!ctx->clear_records)
		return 0;
	if (ctx->errors_left || !ctx->rw) {
		fprintf(ctx->out, "superblock: the kernel's records kept: %s\n",
			ctx->errors_left ? "errors are left" : "the device is not open for writing");
		ctx->errors_left++;
		return 0;
	}
	err = f2_sb_read(ctx->rw, &sb, NULL, why, sizeof(why));
	if (!err) {
		f2_sb_clear_records(&sb);
		err = f2_sb_write_copies(ctx->rw, &sb, F2_SB_BOTH);
	}
	problem_fixed(ctx, PR_SB_KERNEL_RECORDS, !err);
	return 0;
}
