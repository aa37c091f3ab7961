// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/seg.c - the engine's segment manager: the free-segment bitmap (one
 * bit per main-area segment), the six current segments and their summary
 * blocks, section- and zone-aware choice of a new segment, block
 * allocation with SSA entries (into fresh segments, or into the free
 * slots of a partly valid one when SSR is on: engine/ssr.c chooses it),
 * SIT entries (valid maps, counts, mtime) and their write-out to the SIT
 * journal or the other SIT copy.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/io.h"
#include "f2/node.h"
#include "internal.h"

static int is_free(const struct f2_engine *w, uint32_t segno)
{
	return f2_test_bit_lsb(w->freemap, segno);
}

static void set_used(struct f2_engine *w, uint32_t segno)
{
	if (is_free(w, segno)) {
		f2_clear_bit_lsb(w->freemap, segno);
		w->free_segs--;
	}
}

static int is_curseg(const struct f2_engine *w, uint32_t segno)
{
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (w->cur[t].segno == segno)
			return 1;
	return 0;
}

int eng_sit_entry(struct f2_engine *w, uint32_t segno, struct eng_sit **out)
{
	struct eng_sit *e = f2_pmap_get(&w->sit, segno);
	struct f2_sit_info si;
	int err;

	if (e) {
		*out = e;
		return 0;
	}
	if (segno >= w->fs->main_segs)
		return eng_fail(w, F2_ERANGE, "segment %u beyond the main area", segno);
	err = f2_sit_get(w->fs, segno, &si);
	if (err)
		return eng_fail(w, err, "segment %u: %s", segno, w->fs->why);
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->segno = segno;
	e->vblocks = si.vblocks;
	e->type = si.type;
	e->in_journal = (uint8_t)si.in_journal;
	memcpy(e->map, si.valid_map, sizeof(e->map));
	memcpy(e->ckpt_map, si.valid_map, sizeof(e->ckpt_map));
	e->ckpt_vblocks = si.vblocks;
	e->mtime = si.mtime;
	err = f2_pmap_put(&w->sit, segno, e);
	if (err) {
		free(e);
		return err;
	}
	*out = e;
	return 0;
}

struct seg_scan {
	struct f2_engine *w;
	int err;
};

static int scan_one(void *ctx, const struct f2_sit_info *si)
{
	struct seg_scan *s = ctx;
	struct f2_engine *w = s->w;

	if (si->vblocks > F2_BLKS_PER_SEG && !w->o.repairing)
		return eng_fail(w, F2_ECORRUPT, "segment %u: %u valid blocks", si->segno,
			       si->vblocks);
	if (si->in_journal) {
		struct eng_sit *e;
		int err = eng_sit_entry(w, si->segno, &e);

		if (err)
			return err;
	}
	if (!si->vblocks && !is_curseg(w, si->segno)) {
		f2_set_bit_lsb(w->freemap, si->segno);
		w->free_segs++;
	}
	return 0;
}

/*
 * After a checkpoint without the umount flag the summary of a current
 * node segment is not stored anywhere: the driver rebuilds it from the
 * node footers at mount.  So does every writer here (a repair's, gc's or
 * the roll-forward's checkpoint stores these summaries, or the segment's
 * SSA block gets them when it is closed): each valid node block is named
 * by its nid.
 */
static int node_summaries(struct f2_engine *w)
{
	struct f2_node *n = malloc(sizeof(*n));
	int err = 0;

	if (!n)
		return -ENOMEM;
	for (int t = F2_CURSEG_HOT_NODE; t < F2_NR_CURSEG && !err; t++) {
		struct eng_curseg *c = &w->cur[t];
		uint64_t start = f2_fs_seg_start(w->fs, c->segno);
		struct f2_sit_info si;

		if (w->fs->curseg[t].have_sum && (w->fs->cp_flags & F2_CP_UMOUNT))
			continue;
		err = f2_sit_get(w->fs, c->segno, &si);	/* read only: nothing to write back */
		if (err) {
			err = eng_fail(w, err, "segment %u: %s", c->segno, w->fs->why);
			break;
		}
		for (uint32_t off = 0; off < F2_BLKS_PER_SEG && !err; off++) {
			if (!f2_test_bit_msb(si.valid_map, off))
				continue;
			err = f2_fs_read_block(w->fs, start + off, n);
			if (err)
				break;
			f2_set_le32(c->sum.entries[off].nid, f2_le32(n->footer.nid));
			c->sum.entries[off].version = 0;
			f2_set_le16(c->sum.entries[off].ofs_in_node, 0);
		}
	}
	free(n);
	return err;
}

int eng_seg_init(struct f2_engine *w)
{
	struct f2_fs *fs = w->fs;
	struct seg_scan s = { .w = w };
	int err;

	w->freemap = calloc((fs->main_segs + 7) / 8 + 1, 1);
	if (!w->freemap)
		return -ENOMEM;
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		struct eng_curseg *c = &w->cur[t];

		c->segno = fs->curseg[t].segno;
		c->blkoff = fs->curseg[t].blkoff;
		if (c->segno >= fs->main_segs || c->blkoff > F2_BLKS_PER_SEG)
			return eng_fail(w, F2_ECORRUPT, "current segment %u (log %d) invalid",
				       c->segno, t);
		err = f2_ssa_read(fs, c->segno, &c->sum, NULL);
		if (err)
			return eng_fail(w, err, "summary of log %d: %s", t, fs->why);
		c->sum.footer.entry_type = t >= F2_CURSEG_HOT_NODE ? F2_SUM_TYPE_NODE :
				       F2_SUM_TYPE_DATA;
		if (fs->curseg[t].alloc_type == F2_SSR)
			c->blkoff = F2_BLKS_PER_SEG;	/* never fill holes: take a new one */
	}
	err = f2_sit_iter(fs, scan_one, &s);
	if (err)
		return err;
	return node_summaries(w);
}

/* A section is free when every segment of it is. */
static int sec_free(const struct f2_engine *w, uint32_t sec)
{
	uint32_t first = sec * w->segs_per_sec;

	for (uint32_t i = 0; i < w->segs_per_sec; i++)
		if (first + i >= w->fs->main_segs || !is_free(w, first + i))
			return 0;
	return 1;
}

/* Zone of a section holds another log's current segment. */
static int zone_busy(const struct f2_engine *w, uint32_t sec, int self)
{
	uint32_t segs_per_zone = w->segs_per_sec * w->secs_per_zone;
	uint32_t zone = sec * w->segs_per_sec / segs_per_zone;

	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (t != self && w->cur[t].segno != F2_NULL_SEGNO &&
		    w->cur[t].segno / segs_per_zone == zone)
			return 1;
	return 0;
}

static int find_free_section(struct f2_engine *w, int t, uint32_t *out)
{
	uint32_t nsec = w->fs->main_segs / w->segs_per_sec;

	if (w->place.on)
		return eng_place_section(w, t, out);
	uint32_t start = w->cur[t].segno == F2_NULL_SEGNO ? 0 :
			 (w->cur[t].segno / w->segs_per_sec + 1) % (nsec ? nsec : 1);

	for (int pass = w->secs_per_zone > 1 ? 0 : 1; pass < 2; pass++)
		for (uint32_t k = 0; k < nsec; k++) {
			uint32_t sec = (start + k) % nsec;

			/* skip a byte of used segments at a time */
			if (w->segs_per_sec == 1 && !(sec & 7) && sec + 8 <= nsec &&
			    !w->freemap[sec >> 3]) {
				k += 7;
				continue;
			}
			if (!sec_free(w, sec) || (pass == 0 && zone_busy(w, sec, t)))
				continue;
			*out = sec;
			return 0;
		}
	return eng_fail(w, F2_ENOSPC, "no free section for log %d", t);
}

/* Log t leaves its segment: its summary goes to the SSA, and the segment
 * is tracked, so that eng_release_prefree frees it at the checkpoint when
 * it holds no valid block (an SSR log left empty by mkfs or sload is
 * abandoned at the first roll).  *next_free: the next segment of its
 * section when that one is free. */
static int close_log(struct f2_engine *w, int t, uint32_t *next_free)
{
	struct eng_curseg *c = &w->cur[t];
	struct eng_sit *e;
	int err;

	*next_free = F2_NULL_SEGNO;
	if (c->segno == F2_NULL_SEGNO)
		return 0;
	/* (a read-only volume has no SSA) */
	err = (w->fs->features & F2_FEAT_RO) ? 0 :
	      f2_io_write_block(w->fs->io, (uint64_t)w->fs->ssa_blkaddr + c->segno, &c->sum);
	if (err)
		return eng_fail(w, err, "segment %u: summary write failed", c->segno);
	err = eng_sit_entry(w, c->segno, &e);
	if (err)
		return err;
	if ((c->segno + 1) % w->segs_per_sec && c->segno + 1 < w->fs->main_segs &&
	    is_free(w, c->segno + 1))
		*next_free = c->segno + 1;
	return 0;
}

/* Close log t's segment and open another: the next one of its section if
 * free, unless fresh asks a new section. */
static int new_segment(struct f2_engine *w, int t, int fresh)
{
	struct eng_curseg *c = &w->cur[t];
	uint32_t next, sec = 0;
	struct eng_sit *e;
	int err = close_log(w, t, &next);

	if (err)
		return err;
	if (fresh)
		next = F2_NULL_SEGNO;
	if (next == F2_NULL_SEGNO) {
		err = find_free_section(w, t, &sec);
		if (!err)
			err = eng_zone_open(w, sec);
		if (err)
			return err;
		next = sec * w->segs_per_sec;
	}
	err = eng_sit_entry(w, next, &e);
	if (err)
		return err;
	set_used(w, next);
	e->type = (uint8_t)t;
	e->dirty = 1;
	c->segno = next;
	c->blkoff = 0;
	c->ssr = 0;
	w->new_segs++;
	memset(&c->sum, 0, sizeof(c->sum));
	c->sum.footer.entry_type = t >= F2_CURSEG_HOT_NODE ? F2_SUM_TYPE_NODE : F2_SUM_TYPE_DATA;
	return 0;
}

int eng_seg_change(struct f2_engine *w, int t, uint32_t segno)
{
	struct eng_curseg *c = &w->cur[t];
	uint8_t want = t >= F2_CURSEG_HOT_NODE ? F2_SUM_TYPE_NODE : F2_SUM_TYPE_DATA;
	uint32_t unused;
	struct eng_sit *e;
	int err;

	if (segno >= w->fs->main_segs || is_free(w, segno) || is_curseg(w, segno))
		return eng_fail(w, F2_ERANGE, "segment %u cannot take log %d's writes", segno, t);
	err = close_log(w, t, &unused);
	if (!err)
		err = eng_sit_entry(w, segno, &e);
	if (err)
		return err;
	/* the entries of its valid blocks stay; new ones go in the free slots */
	err = f2_fs_read_block(w->fs, (uint64_t)w->fs->ssa_blkaddr + segno, &c->sum);
	if (err)
		return eng_fail(w, err, "segment %u: summary: %s", segno, w->fs->why);
	if (c->sum.footer.entry_type != want)
		return eng_fail(w, F2_ECORRUPT, "segment %u: summary of type %u for log %d",
			       segno, c->sum.footer.entry_type, t);
	e->type = (uint8_t)t;
	e->dirty = 1;
	c->segno = segno;
	c->ssr = 1;
	c->blkoff = eng_ssr_next_free(e, 0);
	w->ssr_segs++;
	return 0;
}

uint32_t eng_free_secs(const struct f2_engine *w)
{
	uint32_t n = 0, nsec = w->fs->main_segs / w->segs_per_sec;

	for (uint32_t sec = 0; sec < nsec; sec++)
		n += (uint32_t)sec_free(w, sec);
	return n;
}

/* Log t needs a segment: a partly valid one when SSR wants it and finds
 * one, else a free one. */
static int next_segment(struct f2_engine *w, int t)
{
	uint32_t segno;
	int r = 0;

	if (w->ssr && eng_ssr_wanted(w, t))
		r = eng_ssr_pick(w, t, &segno);
	if (r < 0)
		return r;
	return r ? eng_seg_change(w, t, segno) : new_segment(w, t, 0);
}

/* Give every log whose segment is full its next segment now, as the
 * driver does, so that a checkpoint never records a current segment with
 * blkoff 512 (the driver's and fsck's checkpoint sanity checks refuse it). */
int eng_seg_roll_full(struct f2_engine *w)
{
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (w->cur[t].blkoff >= F2_BLKS_PER_SEG) {
			int err = next_segment(w, t);

			if (err)
				return err;
		}
	return 0;
}

int eng_seg_reopen(struct f2_engine *w, int t)
{
	return new_segment(w, t, 1);
}

int eng_alloc_block(struct f2_engine *w, int t, uint32_t nid, uint16_t ofs, uint8_t ver,
		   uint32_t *blkaddr)
{
	struct eng_curseg *c;
	struct eng_sit *e;
	uint32_t off;
	int err;

	/* a read-only volume writes two logs: hot data and hot node */
	if (w->fs->features & F2_FEAT_RO)
		t = t < F2_CURSEG_HOT_NODE ? F2_CURSEG_HOT_DATA : F2_CURSEG_HOT_NODE;
	c = &w->cur[t];

	if ((err = eng_zone_alloc_check(w, t)))
		return err;
	if (w->valid_blocks >= w->user_blocks)
		return eng_fail(w, F2_ENOSPC, "no free block: %llu of %llu user blocks valid",
			       (unsigned long long)w->valid_blocks,
			       (unsigned long long)w->user_blocks);
	if (c->blkoff >= F2_BLKS_PER_SEG && (err = next_segment(w, t)))
		return err;
	err = eng_sit_entry(w, c->segno, &e);
	if (err)
		return err;
	off = c->blkoff++;
	if (f2_test_bit_msb(e->map, off) || (c->ssr && f2_test_bit_msb(e->ckpt_map, off)))
		return eng_fail(w, F2_ECORRUPT, "segment %u block %u: allocated but valid",
			       c->segno, off);
	if (c->ssr) {
		c->blkoff = eng_ssr_next_free(e, off + 1);
		w->ssr_blocks++;
	}
	f2_set_bit_msb(e->map, off);
	e->vblocks++;
	e->type = (uint8_t)t;
	e->mtime = w->mtime;
	e->dirty = 1;
	f2_set_le32(c->sum.entries[off].nid, nid);
	c->sum.entries[off].version = ver;
	f2_set_le16(c->sum.entries[off].ofs_in_node, ofs);
	w->valid_blocks++;
	*blkaddr = (uint32_t)f2_fs_seg_start(w->fs, c->segno) + off;
	return 0;
}

int eng_drop_data(struct f2_engine *w, uint32_t addr)
{
	if (addr != F2_NEW_ADDR)
		return eng_invalidate(w, addr);
	if (w->valid_blocks)
		w->valid_blocks--;
	return 0;
}

int eng_invalidate(struct f2_engine *w, uint32_t blkaddr)
{
	struct eng_sit *e;
	uint32_t segno, off;
	int err;

	if (blkaddr == F2_NULL_ADDR || blkaddr == F2_NEW_ADDR || blkaddr == F2_COMPRESS_ADDR)
		return 0;
	if (!f2_fs_in_main(w->fs, blkaddr))
		return eng_fail(w, F2_ERANGE, "block %u outside the main area", blkaddr);
	segno = f2_fs_segno(w->fs, blkaddr);
	off = blkaddr & (F2_BLKS_PER_SEG - 1);
	off = (uint32_t)(blkaddr - f2_fs_seg_start(w->fs, segno));
	err = eng_sit_entry(w, segno, &e);
	if (err)
		return err;
	if (!f2_test_bit_msb(e->map, off) || !e->vblocks)
		return eng_fail(w, F2_ECORRUPT, "block %u (segment %u) freed but not valid",
			       blkaddr, segno);
	f2_clear_bit_msb(e->map, off);
	e->vblocks--;
	e->mtime = w->mtime;
	e->dirty = 1;
	w->valid_blocks--;
	return 0;
}

void eng_release_prefree(struct f2_engine *w)
{
	size_t pos = 0;
	struct eng_sit **v;

	while ((v = f2_map_next(&w->sit, &pos, NULL))) {
		struct eng_sit *e = *v;

		if (!e->vblocks && !is_curseg(w, e->segno) && !is_free(w, e->segno)) {
			f2_set_bit_lsb(w->freemap, e->segno);
			w->free_segs++;
		}
	}
}

static void sit_encode(const void *entry, void *dst)
{
	const struct eng_sit *e = entry;
	struct f2_sit_entry *se = dst;

	f2_set_le16(se->vblocks, (uint16_t)(e->type << F2_SIT_VBLOCKS_SHIFT | e->vblocks));
	memcpy(se->valid_map, e->map, sizeof(se->valid_map));
	f2_set_le64(se->mtime, e->mtime);
}

/* SIT block b's second copy follows the whole first copy. */
static uint64_t sit_addr(const struct f2_engine *w, uint32_t b, int copy)
{
	return (uint64_t)w->fs->sit_blkaddr + b + (copy ? w->fs->sit_blocks : 0);
}

static const struct eng_flush_ops sit_ops = {
	"SIT", F2_SIT_ENTRIES_PER_BLOCK, sizeof(struct f2_sit_entry),
	offsetof(struct eng_sit, segno), offsetof(struct eng_sit, dirty),
	offsetof(struct eng_sit, in_journal), sit_encode, sit_addr, NULL,
};

int eng_sit_flush(struct f2_engine *w, struct f2_journal *j)
{
	int err = eng_table_flush(w, &w->sit, &sit_ops, w->sit_bitmap,
				  w->sit_to_blocks ? 0 : F2_SIT_JOURNAL_ENTRIES, j);

	if (!err)
		w->sit_to_blocks = 0;
	return err;
}
