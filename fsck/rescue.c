// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rescue.c - the last resort when whole metadata areas are gone: the
 * library's rescue (f2/rescue.h) finds the file system in the node
 * blocks of the main area and rebuilds what was lost from them.
 *
 *   rescue_cp()    no checkpoint pack survives (main.c, at open): the
 *                  checkpoint, NAT and SIT are rebuilt, the volume opened
 *                  again and checked as usual (which rewrites summaries,
 *                  names unreachable inodes in lost+found, sets counts).
 *   pass_rescue()  the phase after the NAT's: fewer NAT entries in use
 *                  than the checkpoint's valid_node_count (a test every
 *                  full check makes on what the NAT phase counted)
 *                  leads to the scan; NAT
 *                  entries the scan finds in use but the NAT has free are
 *                  lost (zeroed NAT blocks).  They are rebuilt (and the
 *                  SIT too when it does not add up either), and the
 *                  volume is checked again.  Nothing else runs on a NAT
 *                  known to be incomplete.
 * -n reports what a rebuild would find; -p never rebuilds (exit 4).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/rescue.h"
#include "support/exitcodes.h"
#include "fsck.h"
#include "problem.h"

/* Tie-break of the scan without a checkpoint: a NAT copy names the block. */
struct nat_hint {
	struct f2_fs *fs;
	uint64_t addr[2];
	uint8_t blk[2][F2_BLKSIZE];
};

/* 1 when a NAT copy names blkaddr for nid; *seen: a copy of its NAT
 * block holds any entry (survived). */
static int nat_names(struct nat_hint *h, uint32_t nid, uint32_t blkaddr, int *seen)
{
	uint32_t b = nid / F2_NAT_ENTRIES_PER_BLOCK, e = nid % F2_NAT_ENTRIES_PER_BLOCK;

	*seen = 0;
	if (b >= h->fs->nat_blocks)
		return 0;
	for (int c = 0; c < 2; c++) {
		uint64_t a = f2_nat_copy_addr(h->fs, b, c);
		const struct f2_nat_block *nb = (const void *)h->blk[c];
		int any = 0;

		if (a != h->addr[c]) {
			if (f2_fs_read_block(h->fs, a, h->blk[c]))
				continue;
			h->addr[c] = a;
		}
		for (size_t i = 0; i < sizeof(*nb) && !any; i++)
			any = h->blk[c][i] != 0;
		*seen |= any;
		if (f2_le32(nb->entries[e].block_addr) == blkaddr)
			return 1;
	}
	return 0;
}

static int nat_hint(void *arg, uint32_t nid, uint32_t blkaddr)
{
	int seen;

	return nat_names(arg, nid, blkaddr, &seen);
}

/* An inode no directory names is a deleted file when its NAT block
 * survives in a copy and neither copy names its block. */
static int nat_stale(void *arg, uint32_t ino, uint32_t blkaddr)
{
	int seen;

	return !nat_names(arg, ino, blkaddr, &seen) && seen;
}

/* With a checkpoint: the block is valid in the SIT. */
struct sit_hint {
	struct f2_fs *fs;
	uint32_t segno;
	struct f2_sit_info si;
};

static int sit_hint(void *arg, uint32_t nid, uint32_t blkaddr)
{
	struct sit_hint *h = arg;
	uint32_t seg;

	(void)nid;
	if (!f2_fs_in_main(h->fs, blkaddr))
		return 0;
	seg = f2_fs_segno(h->fs, blkaddr);
	if (seg != h->segno) {
		if (f2_sit_get(h->fs, seg, &h->si))
			return 0;
		h->segno = seg;
	}
	return f2_test_bit_msb(h->si.valid_map, (blkaddr - h->fs->main_blkaddr) % F2_BLKS_PER_SEG);
}

/* With a trusted SIT, lost NAT entries are nodes in node segments. */
static int node_seg(void *arg, uint32_t segno)
{
	struct sit_hint *h = arg;
	struct f2_sit_info si;

	return !f2_sit_get(h->fs, segno, &si) && si.vblocks && si.type >= F2_CURSEG_HOT_NODE &&
	       si.type < F2_NR_CURSEG;
}

static void scan_progress(void *arg, uint64_t done, uint64_t total)
{
	progress(arg, "rescue scan", done, total);
}

static void found(struct fsck_ctx *ctx, const struct f2_rescue_stats *st)
{
	fprintf(ctx->out, "  the main area holds %u inodes (%u files, %u directories, %u other), "
		"%u nodes, %llu data blocks (%llu node blocks read, newest checkpoint version "
		"%llu, %u stale or detached nodes left out)\n", st->inodes, st->files, st->dirs,
		st->others, st->nodes, (unsigned long long)st->data_blocks,
		(unsigned long long)st->node_blocks, (unsigned long long)st->max_ver, st->dropped);
	if (st->unnamed || st->stale_inodes)
		fprintf(ctx->out, "  %u inodes no directory names (for lost+found), %u more left out "
			"as deleted (the NAT no longer names them)\n", st->unnamed, st->stale_inodes);
}

/* The scan when the checkpoint cannot be used: NAT copies break ties
 * and tell deleted inodes. */
static int scan_no_cp(struct fsck_ctx *ctx, struct f2_rescue **r)
{
	struct nat_hint *h = calloc(1, sizeof(*h));
	struct f2_rescue_opts o = { .hint = nat_hint, .hint_arg = h, .stale = nat_stale,
				    .stale_arg = h, .progress = scan_progress, .progress_arg = ctx };
	int err;

	if (!h)
		return -ENOMEM;
	h->fs = ctx->fs;
	h->addr[0] = h->addr[1] = UINT64_MAX;
	err = f2_rescue_scan(ctx->fs, &o, r);
	free(h);
	return err;
}

int rescue_cp(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	struct f2_rescue *r = NULL;
	struct f2_rescue_stats st;
	char why[F2_WHY_LEN], lost[2 * F2_WHY_LEN];
	int err, yes;

	snprintf(lost, sizeof(lost), "%s", fs->why);
	err = scan_no_cp(ctx, &r);
	if (err) {
		fprintf(stderr, "fsck.f2fs: rescue scan: %s\n", f2_strerror(err));
		return FSCK_EXIT_OPERATIONAL;
	}
	f2_rescue_stats(r, &st);
	if (!st.inodes) {
		f2_rescue_free(r);
		fix_problem(ctx, PR_CP_NONE_VALID, "%s; no inode found in the main area", lost);
		return FSCK_EXIT_UNCORRECTED;
	}
	yes = fix_problem(ctx, PR_CP_LOST, "%s", lost);
	found(ctx, &st);
	if (!yes || !ctx->rw) {
		f2_rescue_free(r);
		return FSCK_EXIT_UNCORRECTED;
	}
	err = f2_rescue_rebuild(r, ctx->rw, F2_RESCUE_CP, NULL, why, sizeof(why));
	f2_rescue_free(r);
	problem_fixed(ctx, PR_CP_LOST, !err);
	if (err) {
		fprintf(ctx->out, "rescue failed: %s: %s\n", f2_strerror(err), why);
		return FSCK_EXIT_UNCORRECTED;
	}
	fprintf(ctx->out, "rescue: checkpoint, NAT and SIT rebuilt; checking the rebuilt volume\n");
	ctx->rescued = 1;
	f2_fs_close(ctx->fs);
	ctx->fs = NULL;
	if (f2_fs_open(ctx->opts.device, NULL, &ctx->fs)) {
		fprintf(stderr, "fsck.f2fs: reopening after the rescue: %s\n",
			ctx->fs ? ctx->fs->why : "failed");
		return FSCK_EXIT_OPERATIONAL;
	}
	return 0;
}

static int sit_total(void *arg, const struct f2_sit_info *si)
{
	*(uint64_t *)arg += si->vblocks;
	return 0;
}

int pass_rescue(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	uint32_t want = f2_le32(fs->cp->valid_node_count), lost = 0, changed = 0;
	uint64_t in_nat = 0, in_sit = 0;
	struct sit_hint sh = { fs, UINT32_MAX, { 0 } };
	struct f2_rescue_opts o = { .max_ver = (uint32_t)fs->cp_ver, .progress = scan_progress,
				    .progress_arg = ctx };
	struct f2_rescue *r = NULL;
	struct f2_rescue_stats st;
	unsigned what = F2_RESCUE_NAT_FREE;
	char why[F2_WHY_LEN];
	int err, yes, sit_ok;

	if (ctx->fatal || !ctx->nat_used.nbits)
		return 0;
	/* the NAT phase's count of entries in use (reserved ones aside) */
	in_nat = sbm_count(&ctx->nat_used, 0, (uint32_t)ctx->nat_used.nbits);
	if (in_nat >= want)
		return 0;
	/* the SIT adds up to the checkpoint's count: it tells current blocks */
	sit_ok = !f2_sit_iter(fs, sit_total, &in_sit) &&
		 in_sit == f2_le64(fs->cp->valid_block_count);
	if (sit_ok) {
		o.hint = sit_hint;
		o.hint_arg = &sh;
		o.hint_required = 1;
		o.segment = node_seg;
		o.segment_arg = &sh;
	} else {
		what |= F2_RESCUE_SIT;
	}
	err = f2_rescue_scan(fs, &o, &r);
	if (err)
		return err;
	f2_rescue_stats(r, &st);
	for (uint32_t nid = F2_ROOT_INO; nid < st.nid_end; nid++) {
		struct f2_nat_info ni;
		uint32_t ino, addr;

		if (f2_rescue_node(r, nid, &ino, &addr) && !f2_nat_lookup(fs, nid, &ni) &&
		    ni.blkaddr == F2_NULL_ADDR)
			lost++;
	}
	if (!lost) {
		f2_rescue_free(r);
		return 0;
	}
	yes = fix_problem(ctx, PR_NAT_LOST, "%llu NAT entries in use, the checkpoint counts %u "
			  "nodes: %u nodes found in the main area have a free NAT entry%s",
			  (unsigned long long)in_nat, want, lost,
			  sit_ok ? "" : " (and the SIT does not add up: rebuilt as well)");
	found(ctx, &st);
	ctx->stop = 1;	/* the rest is checked on the rebuilt NAT */
	if (!yes || !ctx->rw) {
		f2_rescue_free(r);
		return 0;
	}
	err = f2_rescue_rebuild(r, ctx->rw, what, &changed, why, sizeof(why));
	f2_rescue_free(r);
	problem_fixed(ctx, PR_NAT_LOST, !err);
	if (err) {
		fprintf(ctx->out, "rescue failed: %s: %s\n", f2_strerror(err), why);
		return 0;
	}
	fprintf(ctx->out, "rescue: %u NAT entries rebuilt; checking the rebuilt volume\n", changed);
	ctx->rerun = 1;
	return 0;
}

int pass_rescue_stale(struct fsck_ctx *ctx)
{
	struct f2_rescue *r = NULL;
	struct f2_rescue_stats st;
	char why[F2_WHY_LEN];
	int err, yes;

	if (!ctx->newer_inodes || ctx->fatal)
		return 0;
	err = scan_no_cp(ctx, &r);
	if (err)
		return err;
	f2_rescue_stats(r, &st);
	yes = fix_problem(ctx, PR_CP_STALE, "checkpoint version %llu, but %u inodes the walk "
			  "reached were written by versions up to %u", (unsigned long long)
			  (uint32_t)ctx->fs->cp_ver, ctx->newer_inodes, ctx->newer_ver);
	found(ctx, &st);
	ctx->stop = 1;	/* nothing built on the stale checkpoint is written */
	if (!yes || !ctx->rw) {
		f2_rescue_free(r);
		return 0;
	}
	err = f2_rescue_rebuild(r, ctx->rw, F2_RESCUE_CP, NULL, why, sizeof(why));
	f2_rescue_free(r);
	problem_fixed(ctx, PR_CP_STALE, !err);
	if (err) {
		fprintf(ctx->out, "rescue failed: %s: %s\n", f2_strerror(err), why);
		return 0;
	}
	fprintf(ctx->out, "rescue: checkpoint, NAT and SIT rebuilt; checking the rebuilt volume\n");
	ctx->rerun = 1;
	return 0;
}
