// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_cp.c - phase 2: the checkpoint.
 *
 * Checks: both packs (the library picks the newest valid one, as the
 * kernel does).  A newer pack whose head is damaged is CP_NEWER_PACK_BAD;
 * a newer pack with a good head but no matching tail is a checkpoint
 * whose write was interrupted (a power cut, a killed repair), the
 * designed outcome of the two-pack scheme: the kernel silently mounts
 * the older pack, so it is not a finding, only a notice line (no code,
 * so it never changes the exit status or the findings a power-cut test
 * allows).  For neither does -y rewrite anything: the next checkpoint
 * written, by the kernel or by a repair, goes into that pack.  Then the
 * CP_ERROR flag, counters against the geometry (the GC reserve in
 * cp_reserve.c), current segments distinct (segment numbers and offsets
 * in range are checked by the library, which refuses the pack otherwise;
 * types and write pointers against the SIT in pass_sit.c), the orphan
 * blocks (count from cp_pack_start_sum, each block's blk_addr, blk_count
 * and entry_count; every ino in range, an inode in use in the NAT,
 * listed once; orphans still linked are reported after the walk), and
 * loads nat_bits when the flag is set and their header matches this
 * checkpoint (the kernel ignores them otherwise).
 * After an unclean shutdown it also lists the fsync-ed inodes waiting for
 * roll-forward (the library's read-only scan), as a warning.
 * Repairs (recorded for pass_repair, written only when nothing else is
 * left): the CP_ERROR flag cleared, counters out of range replaced (by
 * the walk's counts, the GC reserve by cp_reserve.c's), user_block_count
 * set from the geometry, a log sharing another's segment moved to a free
 * one, the orphan list written from its verified entries.
 * Builds: the orphan inodes in ctx->inodes (INO_ORPHAN) and, in list
 * order, ctx->orphan_inos; ctx->nat_bits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/cp_pack.h"
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/recovery.h"
#include "fsck.h"
#include "problem.h"
#include "repair.h"

/* One ino of the orphan list: in range, an inode in use in the NAT,
 * listed once.  Good ones go to ctx->inodes as INO_ORPHAN (the walk
 * starts from them; pass_tree reports those still linked) and to
 * ctx->orphan_inos; a repair writes the list from those alone. */
static int add_orphan(struct fsck_ctx *ctx, uint32_t ino, uint32_t blk, uint32_t slot)
{
	struct f2_nat_info ni;
	struct ino_rec *r = NULL;
	char why[64] = "";
	int created = 0;

	if (ino <= F2_META_INO || ino >= ctx->fs->max_nid)
		snprintf(why, sizeof(why), "is out of range (3..%u)", ctx->fs->max_nid - 1);
	else if (f2_nat_lookup(ctx->fs, ino, &ni) || ni.blkaddr == F2_NULL_ADDR)
		snprintf(why, sizeof(why), "is free in the NAT");
	else if (ni.ino != ino)
		snprintf(why, sizeof(why), "is a node of ino %u, not an inode", ni.ino);
	else if (!(r = inomap_get(&ctx->inodes, ino, &created)))
		return -12;
	else if (!created && (r->flags & INO_ORPHAN))
		snprintf(why, sizeof(why), "is listed twice");
	if (why[0]) {
		if (fix_problem(ctx, PR_ORPHAN_INO_BAD, "orphan block %u entry %u: nid %u %s", blk,
				slot, ino, why))
			return rep_add(ctx, PR_ORPHAN_INO_BAD, RA_NOTE, 0, 0, 0, 0);
		return 0;
	}
	if (grow_array(&ctx->orphan_inos, ctx->orphans, sizeof(*ctx->orphan_inos)))
		return -12;
	ctx->orphan_inos[ctx->orphans++] = ino;
	r->flags |= INO_ORPHAN;
	return 0;
}

/* A malformed orphan block (fmt names it); the repair rewrites the list
 * from the verified entries. */
static int __attribute__((format(printf, 2, 3))) bad_block(struct fsck_ctx *ctx,
							   const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (fix_problem(ctx, PR_CP_ORPHAN_BLOCK, "checkpoint pack %d: %s", ctx->fs->cp_pack + 1,
			text))
		return rep_add(ctx, PR_CP_ORPHAN_BLOCK, RA_NOTE, 0, 0, 0, 0);
	return 0;
}

/*
 * The orphan blocks of the pack in use: their number as cp_pack_start_sum
 * implies (it must leave room for the head, the payload and the tail),
 * each block's place (blk_addr 1..n) and count (blk_count n), its
 * entry_count, then every ino (add_orphan).  The kernel reads them all at
 * mount whenever CP_ORPHAN_PRESENT is set.  An entry_count larger than a
 * block holds is reported and the block read up to its first zero entry
 * (the rest of a block is zero), at most a blockful.
 */
static int check_orphans(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	const struct f2_checkpoint *cp = fs->cp;
	uint32_t payload = f2_le32(fs->sb.cp_payload), start = f2_le32(cp->cp_pack_start_sum);
	uint32_t total = f2_le32(cp->cp_pack_total_block_count), n;
	uint64_t at = fs->packs[fs->cp_pack].start + 1 + payload;
	struct f2_orphan_block *ob;
	int err = 0;

	if (!(fs->cp_flags & F2_CP_ORPHAN_PRESENT))
		return 0;
	if (start < 1 + payload || start >= total)
		return bad_block(ctx, "cp_pack_start_sum %u leaves no room for orphan blocks "
				 "(payload %u, %u blocks in the pack)", start, payload, total);
	n = start - 1 - payload;
	if (!n)
		return bad_block(ctx, "CP_ORPHAN_PRESENT set but no orphan block");
	ob = malloc(sizeof(*ob));
	if (!ob)
		return -12;
	for (uint32_t b = 0; b < n && !err; b++) {
		uint32_t cnt, whole = 1;

		if (f2_fs_read_block(fs, at + b, ob)) {
			err = bad_block(ctx, "orphan block %u: %s", b, fs->why);
			break;
		}
		cnt = f2_le32(ob->entry_count);
		if (f2_le16(ob->blk_addr) != b + 1 || f2_le16(ob->blk_count) != n)
			err = bad_block(ctx, "orphan block %u says it is block %u of %u, the "
					"checkpoint has %u", b, f2_le16(ob->blk_addr),
					f2_le16(ob->blk_count), n);
		if (!err && cnt > F2_ORPHANS_PER_BLOCK) {
			err = bad_block(ctx, "orphan block %u: entry_count %u > %d", b, cnt,
					F2_ORPHANS_PER_BLOCK);
			cnt = F2_ORPHANS_PER_BLOCK;
			whole = 0;
		}
		for (uint32_t i = 0; i < cnt && !err && (whole || ob->ino[i]); i++)
			err = add_orphan(ctx, f2_le32(ob->ino[i]), b, i);
	}
	free(ob);
	return err;
}

static void load_nat_bits(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	uint32_t bytes = fs->nat_blocks / 8, nblk = f2_nat_bits_blocks(fs);
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
	ctx->rf_waiting = rf->ninos != 0;
	if (rf->ninos)
		fix_problem(ctx, PR_CP_ROLL_FORWARD,
			    "warm node log: %zu fsync-ed inode(s) (%zu recoverable offline) in a "
			    "chain of %zu node(s) from block address %u", rf->ninos, n, rf->nchain,
			    rf->start);
	f2_rf_free(rf);
}

/*
 * user_block_count is 0 or not below the main area (the kernel refuses
 * the checkpoint): the repair sets it as mkfs does, from the main
 * segments less the overprovision ones (as repaired, when they were out of
 * range: cp_reserve.c).  On a zoned volume the usable
 * segments depend on the zone capacities, which the image does not hold.
 */
static int check_user_blocks(struct fsck_ctx *ctx, uint64_t user, uint32_t ovp)
{
	struct f2_fs *fs = ctx->fs;
	uint64_t want = (uint64_t)(fs->main_segs - ovp) * F2_BLKS_PER_SEG;
	int yes;

	if (fs->features & F2_FEAT_BLKZONED)
		ctx->no_repair = "zoned volume: the usable segments are not known";
	else if (ovp >= fs->main_segs)
		ctx->no_repair = "the overprovision segment count is wrong";
	else if (f2_le64(fs->cp->valid_block_count) > want)
		ctx->no_repair = "more blocks are valid than the geometry leaves to users";
	yes = fix_problem(ctx, PR_CP_USER_BLOCKS, "checkpoint: user_block_count %llu, main "
			  "area %llu blocks, %u of its segments overprovision",
			  (unsigned long long)user,
			  (unsigned long long)fs->main_segs * F2_BLKS_PER_SEG, ovp);
	ctx->no_repair = NULL;
	return yes ? rep_add(ctx, PR_CP_USER_BLOCKS, RA_USER_BLOCKS, 0, 0, 0, want) : 0;
}

/*
 * Logs sharing a segment: the one whose type the segment has in the SIT
 * keeps it (else the first), the others move to free segments.  From
 * here on the check sees the segment as the keeper's alone (its summary,
 * its type): the others' current segments are dropped from the view.
 * After the roll-forward scan, which follows the warm node log.
 */
/* Log j shares log keep's segment (of SIT type type): it moves. */
static int move_log(struct fsck_ctx *ctx, int keep, int j, int type)
{
	struct f2_curseg_info *c = &ctx->fs->curseg[j];
	int err = 0;

	if (fix_problem(ctx, PR_CP_CURSEG, "checkpoint: logs %d and %d share segment %u (SIT "
			"type %d): log %d keeps it, log %d moves", keep < j ? keep : j,
			keep < j ? j : keep, c->segno, type, keep, j))
		err = rep_add(ctx, PR_CP_CURSEG, RA_CURSEG_MOVE, (uint32_t)j, 0, 0, 0);
	c->segno = F2_NULL_SEGNO;
	return err;
}

static int shared_logs(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	int err;

	/* a read-only volume (feature ro) writes two logs and points the
	 * others anywhere: Linux does not compare them */
	if (fs->features & F2_FEAT_RO)
		return 0;
	for (int i = 0; i < F2_NR_CURSEG; i++) {
		uint32_t segno = fs->curseg[i].segno;
		struct f2_sit_info si;
		int keep = i, type, shared = 0;

		if (segno == F2_NULL_SEGNO)
			continue;
		type = f2_sit_get(fs, segno, &si) ? -1 : si.type;
		for (int j = i + 1; j < F2_NR_CURSEG; j++)
			if (fs->curseg[j].segno == segno) {
				shared = 1;
				if (j == type)
					keep = j;
			}
		for (int j = i; j < F2_NR_CURSEG && shared; j++)
			if (j != keep && fs->curseg[j].segno == segno &&
			    (err = move_log(ctx, keep, j, type)))
				return err;
	}
	return 0;
}

/* Was pack p ever written?  (A head of zeroes was not: nothing to mend.) */
static int pack_written(struct fsck_ctx *ctx, int p)
{
	uint8_t *b = malloc(F2_BLKSIZE);
	int written = 0;

	if (b && !f2_fs_read_block(ctx->fs, ctx->fs->packs[p].start, b))
		for (int i = 0; i < F2_BLKSIZE && !written; i++)
			written = b[i] != 0;
	free(b);
	return written;
}

int pass_cp(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	const struct f2_checkpoint *cp = fs->cp;
	int other = 1 - fs->cp_pack, err;
	uint32_t nodes = f2_le32(cp->valid_node_count), inodes = f2_le32(cp->valid_inode_count);
	uint32_t free_segs = f2_le32(cp->free_segment_count);
	uint32_t ovp = f2_le32(cp->overprov_segment_count);
	uint64_t user = f2_le64(cp->user_block_count);

	vmsg(ctx, "checkpoint: pack %d in use, version %llu, flags 0x%x", fs->cp_pack + 1,
	     (unsigned long long)fs->cp_ver, fs->cp_flags);
	if (!fs->packs[other].valid && !ctx->cp_head_bad[other]) {
		int64_t d = (int64_t)(fs->packs[other].version - fs->cp_ver);
		const char *why = fs->packs[other].why;
		/* a good head without its tail is a checkpoint the kernel (or a
		 * repair) did not finish writing: using the older pack is the
		 * designed outcome, not damage */
		int torn = !strncmp(why, "tail block", 10) || !strncmp(why, "head version", 12);

		/* the damaged pack would have been chosen: newer, or as new
		 * and first (pack 1 wins a tie, as in the kernel) */
		if (torn && (d > 0 || (d == 0 && other == 0)))
			fprintf(ctx->out, "checkpoint: pack %d (version %llu) was not finished (%s); "
				"pack %d (version %llu) is in use, as the kernel does\n", other + 1,
				(unsigned long long)fs->packs[other].version, why, fs->cp_pack + 1,
				(unsigned long long)fs->cp_ver);
		else if (torn)
			vmsg(ctx, "checkpoint pack %d was not finished (%s); pack %d is in use",
			     other + 1, why, fs->cp_pack + 1);
		else if (d > 0 || (d == 0 && other == 0)) {
			/* a warning: a head torn by a power cut looks the same,
			 * and the kernel then uses the older pack by design; but
			 * it warns at every mount, so a repair run mends it */
			ctx->cp_fallback = 1;
			fix_problem(ctx, PR_CP_NEWER_PACK_BAD,
				    "checkpoint pack %d (version %llu, pack %d has %llu): %s",
				    other + 1, (unsigned long long)fs->packs[other].version,
				    fs->cp_pack + 1, (unsigned long long)fs->cp_ver,
				    fs->packs[other].why);
			if ((ctx->opts.mode == MODE_YES || ctx->opts.mode == MODE_PREEN) &&
			    !ctx->probe && (err = rep_add(ctx, PR_CP_NEWER_PACK_BAD, RA_NOTE, 0, 0, 0, 0)))
				return err;
		}
		else if (pack_written(ctx, other) &&
			 fix_problem(ctx, PR_CP_OLDER_PACK_BAD, "checkpoint pack %d: %s", other + 1,
				     fs->packs[other].why) &&
			 (err = rep_add(ctx, PR_CP_OLDER_PACK_BAD, RA_NOTE, 0, 0, 0, 0)))
			return err;	/* the repair's checkpoint goes to that pack */
	}
	/* cleared by the repair's checkpoint, written only when nothing is left */
	if ((fs->cp_flags & F2_CP_ERROR) &&
	    fix_problem(ctx, PR_CP_ERROR_FLAG, "checkpoint pack %d: ckpt_flags 0x%x has CP_ERROR",
			fs->cp_pack + 1, fs->cp_flags) &&
	    (err = rep_add(ctx, PR_CP_ERROR_FLAG, RA_NOTE, 0, 0, 0, 0)))
		return err;
	/* the walk counts these (pass_counts): the repair's checkpoint
	 * carries what it found */
	if ((inodes > nodes || nodes > fs->max_nid) &&
	    fix_problem(ctx, PR_CP_COUNTER_RANGE, "checkpoint: valid_inode_count %u, "
			"valid_node_count %u, max nid %u", inodes, nodes, fs->max_nid) &&
	    (err = rep_add(ctx, PR_CP_COUNTER_RANGE, RA_NOTE, 0, 0, 0, 0)))
		return err;
	if (free_segs > fs->main_segs &&
	    fix_problem(ctx, PR_CP_COUNTER_RANGE, "checkpoint: free_segment_count %u of %u main "
			"segments", free_segs, fs->main_segs) &&
	    (err = rep_add(ctx, PR_CP_COUNTER_RANGE, RA_NOTE, 0, 0, 0, 0)))
		return err;
	err = cp_reserve_check(ctx, &ovp);
	if (err)
		return err;
	/* Linux counts one more segment for a read-only volume (feature ro:
	 * no overprovision, and user_block_count may be the whole area) */
	if (!user || user >= (uint64_t)(fs->main_segs + !!(fs->features & F2_FEAT_RO)) *
			     F2_BLKS_PER_SEG) {
		err = check_user_blocks(ctx, user, ovp);
		if (err)
			return err;
	}
	err = check_orphans(ctx);
	if (err)
		return err;
	vmsg(ctx, "checkpoint: %u orphan inode(s) in %u block(s)", ctx->orphans, fs->orphan_blocks);
	load_nat_bits(ctx);
	roll_forward_scan(ctx);
	return shared_logs(ctx);
}
