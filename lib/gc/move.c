// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc/move.c - moving the valid blocks of a victim section through the
 * write engine (engine/internal.h): data blocks to the cold data log with
 * their owner's address slot updated, node blocks rewritten by the
 * engine's write-back (new address in the NAT), an inode's extent hint
 * dropped when it covers a moved block; and a block range's valid blocks
 * moved to free sections near a target (defrag.f2fs).  The owner checks are
 * those of gc/owner.c, made against the engine's view (uncommitted
 * changes included), since blocks already moved in this run have new
 * owners' contents in the engine's caches.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/bitmap.h"
#include "f2/file.h"
#include "f2/errors.h"
#include "f2/gc.h"
#include "f2/io.h"
#include "../engine/internal.h"
#include "../engine/copy.h"

static void mark_dirty(struct eng_blk *b, struct f2_gc_move_stats *st)
{
	if (!b->dirty)
		st->nodes_dirtied++;
	b->dirty = 1;
}

/* The NAT entry of a summary's nid in *ne, or NULL (the block skipped)
 * when the nid is out of range. */
static int summary_nat(struct f2_engine *w, uint32_t nid, struct eng_nat **ne,
		       struct f2_gc_move_stats *st)
{
	*ne = NULL;
	if (!nid || nid >= w->fs->max_nid) {
		st->skipped++;
		return 0;
	}
	return eng_nat_get(w, nid, ne);
}

static int move_node(struct f2_engine *w, uint32_t blkaddr, const struct f2_summary *e,
		     struct f2_gc_move_stats *st)
{
	uint32_t nid = f2_le32(e->nid);
	struct eng_nat *ne;
	struct eng_blk *b;
	int err;

	err = summary_nat(w, nid, &ne, st);
	if (err || !ne)
		return err;
	if (ne->blkaddr != blkaddr) {	/* an older copy of the node */
		st->skipped++;
		return 0;
	}
	err = eng_node_get(w, nid, 0, &b);
	if (err)
		return err;
	mark_dirty(b, st);
	st->node_moved++;
	return 0;
}

/* The inode's largest-extent hint must not name a block that moved away:
 * drop it (length 0 means no extent) when blkaddr is inside it. */
static int drop_extent(struct f2_engine *w, uint32_t ino, uint32_t blkaddr,
		       struct f2_gc_move_stats *st)
{
	struct eng_blk *ib;
	struct f2_extent *x;
	uint32_t blk, len;
	int err = eng_inode_get(w, ino, &ib);

	if (err)
		return err;
	x = &eng_node(ib)->i.i_ext;
	blk = f2_le32(x->blk);
	len = f2_le32(x->len);
	if (len && blkaddr >= blk && blkaddr - blk < len) {
		f2_set_le32(x->fofs, 0);
		f2_set_le32(x->blk, 0);
		f2_set_le32(x->len, 0);
		mark_dirty(ib, st);
	}
	return 0;
}

/* I/O of a move: each moved data block is copied with the run of new
 * addresses it belongs to (engine/copy.h), before a move call returns. */
static int move_data(struct f2_engine *w, uint32_t blkaddr, const struct f2_summary *e,
		     int log, struct eng_copy *m, struct f2_gc_move_stats *st)
{
	uint32_t nid = f2_le32(e->nid), ofs = f2_le16(e->ofs_in_node), naddr;
	struct eng_nat *ne;
	struct eng_blk *ob;
	struct f2_node *n;
	le32 *slot;
	int err;

	err = summary_nat(w, nid, &ne, st);
	if (err || !ne)
		return err;
	if (ne->version != e->version || !ne->blkaddr) {
		st->skipped++;
		return 0;
	}
	err = eng_node_get(w, nid, 0, &ob);
	if (err)
		return err;
	n = eng_node(ob);
	if (f2_node_ofs(n) == 0 && f2_le32(n->footer.ino) == nid) {
		struct eng_ilayout l;

		eng_inode_layout(n, w->fs->features, &l);
		if (ofs >= l.addrs || (n->i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY))) {
			st->skipped++;
			return 0;
		}
		slot = ENG_IADDR(n, l.extra + ofs);
	} else {
		if (ofs >= F2_ADDRS_PER_BLOCK) {
			st->skipped++;
			return 0;
		}
		slot = ENG_NADDR(n, ofs);
	}
	if (f2_le32(*slot) != blkaddr) {
		st->skipped++;
		return 0;
	}
	err = eng_invalidate(w, blkaddr);
	if (!err)
		err = eng_alloc_block(w, log, nid, (uint16_t)ofs, e->version, &naddr);
	if (!err)
		err = eng_copy_add(w, m, blkaddr, naddr);
	if (err)
		return err;
	f2_set_le32(*slot, naddr);
	mark_dirty(ob, st);
	st->data_moved++;
	return drop_extent(w, f2_le32(n->footer.ino), blkaddr, st);
}

int f2_gc_move_section(struct f2_engine *w, uint32_t secno, struct f2_gc_move_stats *st)
{
	struct f2_fs *fs = w->fs;
	struct f2_summary_block *sum;
	struct eng_copy m;
	uint8_t map[F2_SIT_VBLOCK_MAP_SIZE];
	int err = 0;

	if (!w->segs_per_sec || secno >= fs->main_segs / w->segs_per_sec)
		return eng_fail(w, F2_ERANGE, "section %u beyond the main area", secno);
	sum = malloc(sizeof(*sum));
	if (!sum || eng_copy_init(&m)) {
		free(sum);
		return -ENOMEM;
	}
	for (uint32_t i = 0; !err && i < w->segs_per_sec; i++) {
		uint32_t segno = secno * w->segs_per_sec + i;
		struct eng_sit *e;
		int is_node;

		for (int t = 0; t < F2_NR_CURSEG; t++)
			if (w->cur[t].segno == segno)
				err = eng_fail(w, F2_EBADOPT, "segment %u is current (log %d): not a victim",
					      segno, t);
		if (!err)
			err = eng_sit_entry(w, segno, &e);
		if (err || !e->vblocks)
			continue;
		memcpy(map, e->map, sizeof(map));	/* moving changes e->map */
		err = f2_fs_read_block(fs, (uint64_t)fs->ssa_blkaddr + segno, sum);
		if (err) {
			err = eng_fail(w, err, "segment %u: summary: %s", segno, fs->why);
			break;
		}
		is_node = sum->footer.entry_type == F2_SUM_TYPE_NODE;
		for (uint32_t off = 0; !err && off < F2_BLKS_PER_SEG; off++) {
			uint32_t blkaddr = (uint32_t)f2_fs_seg_start(fs, segno) + off;

			if (!f2_test_bit_msb(map, off))
				continue;
			err = is_node ? move_node(w, blkaddr, &sum->entries[off], st) :
					move_data(w, blkaddr, &sum->entries[off], F2_CURSEG_COLD_DATA,
						  &m, st);
		}
	}
	if (!err)
		err = eng_copy_flush(w, &m);
	free(sum);
	eng_copy_free(&m);
	if (!err)
		err = eng_maybe_writeback(w);
	return err;
}

int f2_gc_move_file(struct f2_engine *w, uint32_t ino, struct f2_gc_move_stats *st)
{
	struct f2_file *f = NULL;
	struct eng_blk *inode, *owner;
	struct f2_node *in;
	uint64_t nblk, fofs;
	struct eng_copy m;
	int err = eng_inode_get(w, ino, &inode);

	if (err)
		return err;
	in = eng_node(inode);
	if (!S_ISREG(f2_le16(in->i.i_mode)))
		return eng_fail(w, F2_EBADOPT, "ino %u is not a regular file", ino);
	if (f2_le32(in->i.i_flags) & F2_COMPR_FL)
		return eng_fail(w, F2_EUNSUPP, "ino %u: compressed files are not rewritten", ino);
	if (in->i.i_inline & F2_INLINE_DATA)
		return 0;	/* no data blocks */
	err = f2_file_open(w->fs, ino, &f);
	if (err)
		return eng_fail(w, err, "ino %u: %s", ino, w->fs->why);
	if (eng_copy_init(&m)) {
		f2_file_close(f);
		return -ENOMEM;
	}
	nblk = (f2_le64(in->i.i_size) + F2_BLKSIZE - 1) / F2_BLKSIZE;
	/* a file that does not fit in what is left of the cold data log's
	 * segment starts a new one (the rest of the old one stays free) */
	if (w->cur[F2_CURSEG_COLD_DATA].blkoff &&
	    nblk > (uint64_t)(F2_BLKS_PER_SEG - w->cur[F2_CURSEG_COLD_DATA].blkoff))
		w->cur[F2_CURSEG_COLD_DATA].blkoff = F2_BLKS_PER_SEG;
	for (fofs = f2_file_next_data(f, 0); !err && fofs < nblk;
	     fofs = f2_file_next_data(f, fofs + 1)) {
		uint32_t ofs, old, naddr;
		uint8_t ver;
		struct eng_nat *ne;
		le32 *slot;

		err = eng_map_block(w, ino, fofs, 0, &slot, &owner, &ofs);
		if (err || !slot)
			continue;
		old = f2_le32(*slot);
		if (old == F2_NULL_ADDR || old == F2_NEW_ADDR || old == F2_COMPRESS_ADDR)
			continue;
		if (!f2_fs_in_main(w->fs, old)) {
			err = eng_fail(w, F2_ECORRUPT, "ino %u block %llu: address %u outside main",
				      ino, (unsigned long long)fofs, old);
			break;
		}
		err = eng_nat_get(w, (uint32_t)owner->key, &ne);
		if (err)
			break;
		ver = ne->version;
		err = eng_invalidate(w, old);
		if (!err)
			err = eng_alloc_block(w, F2_CURSEG_COLD_DATA, (uint32_t)owner->key,
					     (uint16_t)ofs, ver, &naddr);
		if (!err)
			err = eng_copy_add(w, &m, old, naddr);
		if (err)
			break;
		f2_set_le32(*slot, naddr);
		mark_dirty(owner, st);
		st->data_moved++;
		err = drop_extent(w, ino, old, st);
		if (!err)
			err = eng_maybe_writeback(w);
	}
	if (!err)
		err = eng_copy_flush(w, &m);
	eng_copy_free(&m);
	f2_file_close(f);
	return err;
}

/* Logs that must take a new section before a range move: those that
 * receive its blocks (the data logs of its data segments' types, every
 * node log if it holds node blocks) and those whose current segment lies
 * in the range's sections. */
static int range_logs(struct f2_engine *w, uint32_t seg_lo, uint32_t seg_hi, uint64_t start,
		      uint64_t end, int want[F2_NR_CURSEG])
{
	uint32_t sps = w->segs_per_sec;

	for (uint32_t segno = seg_lo; segno <= seg_hi; segno++) {
		uint64_t s0 = f2_fs_seg_start(w->fs, segno);
		struct eng_sit *e;
		int err = eng_sit_entry(w, segno, &e), any = 0;

		if (err)
			return err;
		for (uint32_t off = 0; !any && e->vblocks && off < F2_BLKS_PER_SEG; off++)
			any = s0 + off >= start && s0 + off < end && f2_test_bit_msb(e->map, off);
		if (!any)
			continue;
		if (e->type <= F2_CURSEG_COLD_DATA)
			want[e->type] = 1;
		else
			want[F2_CURSEG_HOT_NODE] = want[F2_CURSEG_WARM_NODE] =
				want[F2_CURSEG_COLD_NODE] = 1;
	}
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (w->cur[t].segno != F2_NULL_SEGNO && w->cur[t].segno / sps >= seg_lo / sps &&
		    w->cur[t].segno / sps <= seg_hi / sps)
			want[t] = 1;
	return 0;
}

int f2_gc_move_range(struct f2_engine *w, uint64_t start, uint64_t len, uint64_t target, int left,
		     struct f2_gc_move_stats *st)
{
	struct f2_fs *fs = w->fs;
	uint64_t end = start + len, main_end = fs->main_blkaddr +
			(uint64_t)fs->main_segs * F2_BLKS_PER_SEG;
	uint32_t seg_lo, seg_hi, sps = w->segs_per_sec;
	uint64_t bps, rel;
	struct f2_summary_block *sum;
	int want[F2_NR_CURSEG] = { 0 };
	struct eng_copy m;
	int err;

	if (!len || start < fs->main_blkaddr || end > main_end || end < start ||
	    target < fs->main_blkaddr || target >= main_end || (target >= start && target < end))
		return eng_fail(w, F2_ERANGE, "range [%llu, %llu) to %llu: outside the main area "
			       "[%u, %llu) or target inside it", (unsigned long long)start,
			       (unsigned long long)end, (unsigned long long)target,
			       fs->main_blkaddr, (unsigned long long)main_end);
	seg_lo = f2_fs_segno(fs, start);
	seg_hi = f2_fs_segno(fs, end - 1);
	/* sections wholly at or after the target (left: at or before it) */
	bps = (uint64_t)sps * F2_BLKS_PER_SEG;
	rel = target - fs->main_blkaddr;
	if (left && rel + 1 < bps)
		return eng_fail(w, F2_ENOSPC, "no whole section at or below block %llu",
			       (unsigned long long)target);
	w->place.on = 1;
	w->place.left = (uint8_t)!!left;
	w->place.from_sec = (uint32_t)(left ? (rel + 1) / bps - 1 : (rel + bps - 1) / bps);
	w->place.skip_lo = seg_lo / sps;
	w->place.skip_hi = seg_hi / sps + 1;
	err = range_logs(w, seg_lo, seg_hi, start, end, want);
	for (int t = 0; !err && t < F2_NR_CURSEG; t++)
		if (want[t])
			err = eng_zone_reopen(w, t);
	if (err)
		return err;
	sum = malloc(sizeof(*sum));
	if (!sum || eng_copy_init(&m)) {
		free(sum);
		return -ENOMEM;
	}
	for (uint32_t segno = seg_lo; !err && segno <= seg_hi; segno++) {
		uint64_t s0 = f2_fs_seg_start(fs, segno);
		struct eng_sit *e;
		int is_node, log;

		err = eng_sit_entry(w, segno, &e);
		if (err || !e->vblocks)
			continue;
		/* current summaries went to the SSA when their logs reopened */
		err = f2_fs_read_block(fs, (uint64_t)fs->ssa_blkaddr + segno, sum);
		if (err) {
			err = eng_fail(w, err, "segment %u: summary: %s", segno, fs->why);
			break;
		}
		is_node = sum->footer.entry_type == F2_SUM_TYPE_NODE;
		log = e->type <= F2_CURSEG_COLD_DATA ? e->type : F2_CURSEG_COLD_DATA;
		for (uint32_t off = 0; !err && off < F2_BLKS_PER_SEG; off++) {
			uint64_t a = s0 + off;

			/* the live map: a node written back meanwhile left it */
			if (a < start || a >= end || !f2_test_bit_msb(e->map, off))
				continue;
			err = is_node ? move_node(w, (uint32_t)a, &sum->entries[off], st) :
					move_data(w, (uint32_t)a, &sum->entries[off], log, &m, st);
		}
		if (!err)
			err = eng_copy_flush(w, &m);
		if (!err)
			err = eng_maybe_writeback(w);
	}
	free(sum);
	eng_copy_free(&m);
	return err;
}

void f2_gc_move_bounds(struct f2_engine *w, uint64_t lo, uint64_t hi)
{
	uint64_t bps = (uint64_t)w->segs_per_sec * F2_BLKS_PER_SEG, base = w->fs->main_blkaddr;

	lo = lo > base ? lo - base : 0;
	hi = hi > base ? hi - base : 0;
	w->place.lo_sec = (uint32_t)((lo + bps - 1) / bps);
	w->place.hi_sec = (uint32_t)(hi / bps);
	/* an empty range still bounds: nothing is free in it */
	if (w->place.hi_sec <= w->place.lo_sec)
		w->place.lo_sec = w->place.hi_sec = UINT32_MAX;
}

int f2_gc_checkpoint(struct f2_engine *w)
{
	int err = eng_writeback(w);

	if (!err)
		err = eng_seg_roll_full(w);
	if (!err)
		err = f2_engine_checkpoint(w);
	/* the checkpoint is on disk: zoned sections it freed can be reset */
	if (!err)
		err = f2_engine_zone_reset_free(w, NULL);
	return err;
}
