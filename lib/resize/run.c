// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resize/run.c - carrying out a resize plan (f2/resize.h), in the order
 * that keeps every power cut harmless: relocated areas (relocate.c), or
 * in place as follows.
 *
 * Shrink: (1) the cleaner's range move takes every valid block past the
 * new end to free sections below it, and the logs whose segment lies there
 * to new sections, committed by a checkpoint of the old volume; (2) the
 * SIT entries of the cut segments (all empty now) are written into the
 * SIT blocks, none left in the journal, and a checkpoint is written with
 * the smaller main area's counts: read with the old superblock it is the
 * old volume with free_segment_count short by the cut segments; (3) the
 * superblock, the commit point.  On a zoned volume the moves write at
 * the zones' write pointers and the zones of the free sections, the cut
 * ones with them, are reset before (2).
 * Grow: (1) the SIT entries of the new segments are zeroed in both copies
 * (nothing reads them yet); (2) the superblock: with the old checkpoint it
 * is the new volume with free_segment_count short by the new segments and
 * the old reserve; (3) a checkpoint with the larger area's counts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/gc.h"
#include "f2/io.h"
#include "f2/resize.h"
#include "../engine/internal.h"
#include "resize.h"

void f2_resize_sb(const struct f2_fs *fs, const struct f2_resize_plan *p, struct f2_super *sb)
{
	*sb = fs->sb;
	f2_set_le64(sb->block_count, p->new_blocks);
	f2_set_le32(sb->segment_count, p->new_segment_count);
	f2_set_le32(sb->section_count, p->new_secs);
	f2_set_le32(sb->segment_count_main, p->new_main);
	/* a multi-device volume: the last device loses the cut segments or
	 * gains the added ones (the plan checked the result's range) */
	if (fs->ndevs > 1) {
		struct f2_device *d = &sb->devs[fs->ndevs - 1];

		f2_set_le32(d->total_segments, f2_le32(d->total_segments) - p->old_main +
			    p->new_main);
	}
}

int f2_resize_sb_commit(struct f2_io *io, struct f2_super *sb)
{
	uint8_t blk[F2_BLKSIZE];
	int err = 0;

	for (unsigned i = 0; i < 2 && !err; i++) {
		uint64_t at = (uint64_t)i * F2_BLKSIZE + F2_SUPER_OFFSET;

		err = f2_io_read_block(io, i, blk);
		if (err)
			break;
		/* one sector: the copy has no magic until it is whole again */
		if (memcmp(blk + F2_SUPER_OFFSET, "\0\0\0\0", 4)) {
			memset(blk + F2_SUPER_OFFSET, 0, 4);
			err = f2_io_write(io, at, blk + F2_SUPER_OFFSET, 512);
			if (!err)
				err = f2_io_flush(io);
		}
		if (!err)
			err = f2_sb_write_copies(io, sb, 1u << i);
	}
	return err;
}

void rs_add_stats(struct f2_resize_stats *st, const struct f2_gc_move_stats *ms)
{
	st->data_moved += ms->data_moved;
	st->node_moved += ms->node_moved;
	st->nodes_dirtied += ms->nodes_dirtied;
	st->skipped += ms->skipped;
}

/* The engine's view of the main area cut to p's: every cut segment free
 * and no longer counted, its SIT entry bound for a SIT block.  Their bits
 * stay set in the free map: the allocator looks below main_segs only, and
 * eng_release_prefree() would count a cleared one free again. */
static int cut_main(struct f2_engine *w, const struct f2_resize_plan *p)
{
	struct f2_fs *fs = w->fs;

	for (uint32_t segno = p->new_main; segno < p->old_main; segno++) {
		struct eng_sit *e;
		int err = eng_sit_entry(w, segno, &e);

		if (err)
			return err;
		if (e->vblocks || !f2_test_bit_lsb(w->freemap, segno))
			return eng_fail(w, F2_ECORRUPT, "segment %u past the new end still in use "
					"(%u valid blocks) after the move", segno, e->vblocks);
		w->free_segs--;
		e->dirty = 1;
	}
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (w->cur[t].segno >= p->new_main)
			return eng_fail(w, F2_ECORRUPT, "log %d still in segment %u past the new end",
					t, w->cur[t].segno);
	w->sit_to_blocks = 1;
	fs->main_segs = p->new_main;
	fs->block_count = p->new_blocks;
	f2_resize_sb(fs, p, &fs->sb);
	w->user_blocks = p->user_blocks;
	w->rsvd_segs = p->rsvd;
	w->ovp_segs = p->ovp;
	return 0;
}

static int shrink(struct f2_io *io, struct f2_fs *fs, const char *path,
		  const struct f2_resize_plan *p, struct f2_resize_stats *st, char *why, size_t len)
{
	uint64_t start = f2_fs_seg_start(fs, p->new_main);
	struct f2_gc_move_stats ms = { 0 };
	struct f2_super sb;
	struct f2_engine *w;
	char zwhy[F2_WHY_LEN];
	int err = f2_engine_open_zoned(fs, path, &w, zwhy, sizeof(zwhy));

	if (err)
		return f2_why(why, len, err, "%s", zwhy);
	f2_resize_sb(fs, p, &sb);
	if (p->move_data || p->move_node || p->tail_cursegs) {
		err = f2_gc_move_range(w, start, (uint64_t)(p->old_main - p->new_main) *
				       F2_BLKS_PER_SEG, start - 1, 1, &ms);
		rs_add_stats(st, &ms);
		if (!err)
			err = f2_gc_checkpoint(w);
		if (err) {
			f2_why(why, len, err, "moving the blocks past the new end: %s",
			       f2_engine_why(w));
			f2_engine_close(w);
			return err;
		}
		st->checkpoints++;
	}
	/* zoned: the free sections' zones (the cut ones with them) are
	 * reset while the committed checkpoint calls them free */
	err = f2_engine_zone_reset_free(w, NULL);
	st->zones_reset = f2_engine_zones_reset(w);
	if (!err)
		err = cut_main(w, p);
	if (!err)
		err = f2_engine_checkpoint(w);
	if (err) {
		f2_why(why, len, err, "checkpoint of the smaller volume: %s", f2_engine_why(w));
		f2_engine_close(w);
		return err;
	}
	st->checkpoints++;
	f2_engine_close(w);
	err = f2_resize_sb_commit(io, &sb);
	if (err)
		return f2_why(why, len, err, "writing the superblocks: %s", f2_strerror(err));
	return 0;
}

/* Zero the SIT entries of segments [lo, hi) in both copies where they
 * are not zero already (no checkpoint reads them before the new
 * superblock; the entries below lo are written back unchanged). */
static int sit_zero(struct f2_io *io, struct f2_fs *fs, uint32_t lo, uint32_t hi)
{
	const uint32_t per = F2_SIT_ENTRIES_PER_BLOCK;
	static const struct f2_sit_entry zero;
	struct f2_sit_block *b = malloc(sizeof(*b));
	int err = 0, wrote = 0;

	if (!b)
		return -ENOMEM;
	for (uint32_t blk = lo / per; !err && blk <= (hi - 1) / per; blk++)
		for (int copy = 0; !err && copy < 2; copy++) {
			uint64_t addr = f2_sit_copy_addr(fs, blk, copy);
			int dirty = 0;

			err = f2_io_read_block(io, addr, b);
			for (uint32_t i = 0; !err && i < per; i++) {
				uint32_t segno = blk * per + i;

				if (segno < lo || segno >= hi ||
				    !memcmp(&b->entries[i], &zero, sizeof(zero)))
					continue;
				b->entries[i] = zero;
				dirty = 1;
			}
			if (!err && dirty) {
				err = f2_io_write_block(io, addr, b);
				wrote = 1;
			}
		}
	free(b);
	if (!err && wrote)
		err = f2_io_flush(io);
	return err;
}

static int grow(struct f2_io *io, struct f2_fs *fs, const struct f2_resize_plan *p,
		struct f2_resize_stats *st, char *why, size_t len)
{
	struct f2_fs *nfs = NULL;
	struct f2_engine *w;
	struct f2_super sb;
	int err = sit_zero(io, fs, p->old_main, p->new_main);

	if (err)
		return f2_why(why, len, err, "clearing the SIT entries of the new segments: %s",
			      f2_strerror(err));
	f2_resize_sb(fs, p, &sb);
	err = f2_resize_sb_commit(io, &sb);
	if (err)
		return f2_why(why, len, err, "writing the superblocks: %s", f2_strerror(err));
	err = f2_fs_open_io(io, NULL, &nfs);
	if (err) {
		f2_why(why, len, err, "reopening with the new superblock: %s",
		       nfs && nfs->why[0] ? nfs->why : f2_strerror(err));
		f2_fs_close(nfs);
		return err;
	}
	if (nfs->main_segs != p->new_main) {
		f2_fs_close(nfs);
		return f2_why(why, len, F2_ECORRUPT, "reopened with %u main segments, not %u",
			      nfs->main_segs, p->new_main);
	}
	err = f2_engine_open(nfs, NULL, &w);
	if (err) {
		f2_why(why, len, err, "%s", nfs->why);
		f2_fs_close(nfs);
		return err;
	}
	w->user_blocks = p->user_blocks;
	w->rsvd_segs = p->rsvd;
	w->ovp_segs = p->ovp;
	err = f2_engine_checkpoint(w);
	if (err)
		f2_why(why, len, err, "checkpoint of the larger volume: %s", f2_engine_why(w));
	else
		st->checkpoints++;
	f2_engine_close(w);
	f2_fs_close(nfs);
	return err;
}

int f2_resize_run(struct f2_io *io, struct f2_fs *fs, const char *path,
		  const struct f2_resize_plan *p, struct f2_resize_stats *st, char *why,
		  size_t len)
{
	memset(st, 0, sizeof(*st));
	if (p->kind == F2_RESIZE_NONE)
		return 0;
	if (fs->main_segs != p->old_main || !fs->cp)
		return f2_why(why, len, F2_EBADOPT, "the plan was made for another volume");
	if (p->relocate)
		return rs_relocate(io, fs, p, st, why, len);
	if (p->kind == F2_RESIZE_SHRINK)
		return shrink(io, fs, path, p, st, why, len);
	return grow(io, fs, p, st, why, len);
}
