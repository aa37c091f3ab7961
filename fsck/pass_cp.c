// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_cp.c - phase 2: the checkpoint.
 *
 * Checks: both packs (the library picks the newest valid one; a newer
 * pack whose head is damaged is reported as a warning, since the file
 * system went back in time or a write tore; a good head without a
 * matching tail is an unfinished checkpoint and only noted), the
 * CP_ERROR flag, counters against the geometry, current segments
 * distinct, the orphan blocks, and loads nat_bits when the flag is set
 * and their header matches this checkpoint (the kernel ignores them
 * otherwise).
 * After an unclean shutdown it also lists the fsync-ed inodes waiting for
 * roll-forward (the library's read-only scan), as a warning.
 * Builds: the orphan inodes in ctx->inodes (INO_ORPHAN), ctx->nat_bits.
 */
#include <stdlib.h>
#include <string.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/recovery.h"
#include "fsck.h"
#include "problem.h"

static int add_orphan(void *arg, uint32_t ino)
{
	struct fsck_ctx *ctx = arg;
	struct ino_rec *r;

	if (ino <= F2_META_INO || ino >= ctx->fs->max_nid) {
		fix_problem(ctx, PR_ORPHAN_INO_BAD, "orphan list: ino %u out of range (3..%u)",
			    ino, ctx->fs->max_nid - 1);
		return 0;
	}
	r = inomap_get(&ctx->inodes, ino, NULL);
	if (!r)
		return -12;
	r->flags |= INO_ORPHAN;
	ctx->orphans++;
	return 0;
}

static void load_nat_bits(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	uint32_t bytes = fs->nat_blocks / 8;
	uint32_t nblk = (2 * bytes + 8 + F2_BLKSIZE - 1) / F2_BLKSIZE;
	uint64_t at = fs->packs[fs->cp_pack].start + F2_BLKS_PER_SEG - nblk;
	uint32_t crc = f2_le32(*(const le32 *)(fs->cp_raw + f2_le32(fs->cp->checksum_offset)));
	uint8_t *buf;

	if (!(fs->cp_flags & F2_CP_NAT_BITS))
		return;
	if (nblk + f2_le32(fs->cp->cp_pack_total_block_count) > F2_BLKS_PER_SEG)
		return;
	buf = malloc((size_t)nblk * F2_BLKSIZE);
	if (!buf)
		return;
	for (uint32_t i = 0; i < nblk; i++)
		if (f2_fs_read_block(fs, at + i, buf + (size_t)i * F2_BLKSIZE)) {
			free(buf);
			return;
		}
	if (f2_le64(*(const le64 *)buf) != ((fs->cp_ver & 0xFFFFFFFFull) | (uint64_t)crc << 32)) {
		vmsg(ctx, "checkpoint: nat_bits header does not match (ignored, as the kernel does)");
		free(buf);
		return;
	}
	memmove(buf, buf + 8, 2 * (size_t)bytes);
	ctx->nat_bits = buf;
	ctx->nat_bits_bytes = bytes;
}

/* After an unclean shutdown, list (read-only) the fsync-ed inodes the
 * kernel would roll forward: the check itself sees the checkpoint's state,
 * which is consistent without them. */
static void roll_forward_scan(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	struct f2_rf *rf = NULL;
	size_t n = 0;

	if (fs->cp_flags & F2_CP_UMOUNT)
		return;
	if (f2_rf_scan(fs, &rf)) {
		vmsg(ctx, "roll-forward chain not readable: %s", fs->why);
		f2_rf_free(rf);
		return;
	}
	for (size_t i = 0; i < rf->ninos; i++)
		n += !rf->inos[i].skip;
	if (rf->ninos)
		fix_problem(ctx, PR_CP_ROLL_FORWARD,
			    "warm node log: %zu fsync-ed inode(s) (%zu recoverable offline) in a "
			    "chain of %zu node(s) from block address %u", rf->ninos, n, rf->nchain,
			    rf->start);
	f2_rf_free(rf);
}

int pass_cp(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	const struct f2_checkpoint *cp = fs->cp;
	int other = 1 - fs->cp_pack, err;
	uint32_t nodes = f2_le32(cp->valid_node_count), inodes = f2_le32(cp->valid_inode_count);
	uint32_t free_segs = f2_le32(cp->free_segment_count);
	uint32_t ovp = f2_le32(cp->overprov_segment_count), rsvd = f2_le32(cp->rsvd_segment_count);
	uint64_t user = f2_le64(cp->user_block_count);

	vmsg(ctx, "checkpoint: pack %d in use, version %llu, flags 0x%x", fs->cp_pack + 1,
	     (unsigned long long)fs->cp_ver, fs->cp_flags);
	if (!fs->packs[other].valid) {
		int64_t d = (int64_t)(fs->packs[other].version - fs->cp_ver);
		const char *why = fs->packs[other].why;
		/* a good head without its tail is a checkpoint the kernel (or a
		 * repair) did not finish writing: using the older pack is the
		 * designed outcome, not damage */
		int torn = !strncmp(why, "tail block", 10) || !strncmp(why, "head version", 12);

		/* the damaged pack would have been chosen: newer, or as new
		 * and first (pack 1 wins a tie, as in the kernel) */
		if (torn)
			vmsg(ctx, "checkpoint pack %d was not finished (%s); pack %d is in use",
			     other + 1, why, fs->cp_pack + 1);
		else if (d > 0 || (d == 0 && other == 0))
			ctx->cp_fallback = 1, fix_problem(ctx, PR_CP_NEWER_PACK_BAD,
				    "checkpoint pack %d (version %llu, pack %d has %llu): %s",
				    other + 1, (unsigned long long)fs->packs[other].version,
				    fs->cp_pack + 1, (unsigned long long)fs->cp_ver,
				    fs->packs[other].why);
		else
			vmsg(ctx, "checkpoint pack %d is older and not valid: %s", other + 1,
			     fs->packs[other].why);
	}
	if (fs->cp_flags & F2_CP_ERROR)
		fix_problem(ctx, PR_CP_ERROR_FLAG, "checkpoint pack %d: ckpt_flags 0x%x has CP_ERROR",
			    fs->cp_pack + 1, fs->cp_flags);
	if (inodes > nodes || nodes > fs->max_nid)
		fix_problem(ctx, PR_CP_COUNTER_RANGE,
			    "checkpoint: valid_inode_count %u, valid_node_count %u, max nid %u",
			    inodes, nodes, fs->max_nid);
	if (free_segs > fs->main_segs || ovp > fs->main_segs || rsvd > ovp)
		fix_problem(ctx, PR_CP_COUNTER_RANGE,
			    "checkpoint: free_segment_count %u, overprov %u, reserved %u of %u "
			    "main segments", free_segs, ovp, rsvd, fs->main_segs);
	if (!user || user >= (uint64_t)fs->main_segs * F2_BLKS_PER_SEG)
		fix_problem(ctx, PR_CP_USER_BLOCKS, "checkpoint: user_block_count %llu, main area %llu blocks",
			    (unsigned long long)user,
			    (unsigned long long)fs->main_segs * F2_BLKS_PER_SEG);
	for (int i = 0; i < F2_NR_CURSEG; i++)
		for (int j = i + 1; j < F2_NR_CURSEG; j++)
			if (fs->curseg[i].segno == fs->curseg[j].segno)
				fix_problem(ctx, PR_CP_CURSEG,
					    "checkpoint: logs %d and %d share segment %u", i, j,
					    fs->curseg[i].segno);
	err = f2_cp_orphans(fs, add_orphan, ctx);
	if (err == -12)
		return err;
	if (err)
		fix_problem(ctx, PR_CP_ORPHAN_BLOCK, "checkpoint pack %d: %s", fs->cp_pack + 1, fs->why);
	vmsg(ctx, "checkpoint: %u orphan inode(s) in %u block(s)", ctx->orphans, fs->orphan_blocks);
	load_nat_bits(ctx);
	roll_forward_scan(ctx);
	return 0;
}
