// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resize/relocate.c - a resize that relocates the metadata areas: new
 * areas, sized as mkfs sizes them for the new volume, written where the
 * old superblock reads nothing (where mkfs puts them, before the old
 * areas; or at the start of the main area), and a superblock that starts
 * the volume there.
 *
 * (1) The cleaner's range move empties every old segment outside the new
 * main area (past a new end; where the new areas go), its blocks and logs
 * going into the new main area, committed by a checkpoint of the old
 * volume.  (2) The new checkpoint area, SIT, NAT and SSA are written
 * (free in that checkpoint, or before the old areas: read by nothing):
 * the NAT blocks copied (the journal's entries folded in), each SIT entry
 * and SSA block renumbered by the main area's move (block addresses are
 * absolute and do not change; segment numbers count from the main area),
 * added segments' entries zero, and both checkpoint packs (the second one
 * a version older, as mkfs writes them) with the current segments
 * renumbered, empty journals, every version bit 0.  (3) The superblock
 * names the new areas: until it is written the old superblock names the
 * old checkpoint, and after it the new one names the new checkpoint, so
 * the volume is the old one or the new one at every write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/cp_pack.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/gc.h"
#include "f2/io.h"
#include "f2/resize.h"
#include "resize.h"

/* The new areas' first blocks. */
struct areas {
	uint64_t cp, sit, nat, ssa, main;
};

static void areas_of(const struct f2_resize_plan *p, struct areas *a)
{
	a->cp = p->seg0;
	a->sit = a->cp + 2ull * F2_BLKS_PER_SEG;
	a->nat = a->sit + (uint64_t)p->sit_segs * F2_BLKS_PER_SEG;
	a->ssa = a->nat + (uint64_t)p->nat_segs * F2_BLKS_PER_SEG;
	a->main = a->ssa + (uint64_t)p->ssa_segs * F2_BLKS_PER_SEG;
}

void rs_relocated_sb(const struct f2_fs *fs, const struct f2_resize_plan *p, struct f2_super *sb)
{
	struct areas a;

	areas_of(p, &a);
	f2_resize_sb(fs, p, sb);
	f2_set_le32(sb->segment0_blkaddr, (uint32_t)a.cp);
	f2_set_le32(sb->cp_blkaddr, (uint32_t)a.cp);
	f2_set_le32(sb->sit_blkaddr, (uint32_t)a.sit);
	f2_set_le32(sb->nat_blkaddr, (uint32_t)a.nat);
	f2_set_le32(sb->ssa_blkaddr, (uint32_t)a.ssa);
	f2_set_le32(sb->main_blkaddr, (uint32_t)a.main);
	f2_set_le32(sb->segment_count_sit, p->sit_segs);
	f2_set_le32(sb->segment_count_nat, p->nat_segs);
	f2_set_le32(sb->segment_count_ssa, p->ssa_segs);
	f2_set_le32(sb->cp_payload, p->cp_payload);
}

/* (1) Empty the old segments outside the new main area; committed by a
 * checkpoint. */
static int evacuate(struct f2_fs *fs, const struct f2_resize_plan *p, struct f2_resize_stats *st,
		    char *why, size_t len)
{
	uint64_t lo = f2_fs_seg_start(fs, p->keep_lo), hi = f2_fs_seg_start(fs, p->keep_hi);
	uint64_t end = f2_fs_seg_start(fs, p->old_main);
	struct f2_gc_move_stats ms = { 0 };
	struct f2_engine *w;
	int err;

	if (!p->move_data && !p->move_node && !p->tail_cursegs)
		return 0;
	err = f2_engine_open(fs, NULL, &w);
	if (err)
		return f2_why(why, len, err, "%s", fs->why);
	f2_gc_move_bounds(w, lo, hi);
	if (hi < end)
		err = f2_gc_move_range(w, hi, end - hi, hi - 1, 1, &ms);
	if (!err && lo > fs->main_blkaddr)
		err = f2_gc_move_range(w, fs->main_blkaddr, lo - fs->main_blkaddr, lo, 0, &ms);
	rs_add_stats(st, &ms);
	if (!err)
		err = f2_gc_checkpoint(w);
	if (err)
		f2_why(why, len, err, "emptying the segments outside the new main area: %s",
		       f2_engine_why(w));
	else
		st->checkpoints++;
	f2_engine_close(w);
	return err;
}

/* The NAT: each block of the copy in use, the journal folded in, to the
 * first copy of the new area (the copies alternate by segment); as many
 * blocks as both NATs have (the plan checked that no nid in use lies
 * past a smaller one). */
static int copy_nat(struct f2_fs *fs, const struct f2_resize_plan *p, const struct areas *a,
		    uint8_t *blk)
{
	uint32_t n = p->nat_segs / 2 * F2_BLKS_PER_SEG;

	if (n > fs->nat_blocks)
		n = fs->nat_blocks;
	for (uint32_t b = 0; b < n; b++) {
		uint64_t to = f2_nat_area_addr(a->nat, b, 0);
		struct f2_nat_block *nb = (struct f2_nat_block *)blk;
		int err = f2_fs_read_block(fs, f2_nat_block_addr(fs, b), blk);

		for (uint32_t i = 0; !err && i < fs->nat_journal_n; i++) {
			const struct f2_nat_journal_entry *e = &fs->nat_journal.nat.entries[i];
			uint32_t nid = f2_le32(e->nid);

			if (nid / F2_NAT_ENTRIES_PER_BLOCK == b)
				nb->entries[nid % F2_NAT_ENTRIES_PER_BLOCK] = e->ne;
		}
		if (!err)
			err = f2_io_write_block(fs->io, to, blk);
		if (err)
			return err;
	}
	return 0;
}

/* Segment segno of the new main area in the old numbering, or
 * F2_NULL_SEGNO for an added one. */
static uint32_t old_segno(const struct f2_fs *fs, const struct f2_resize_plan *p, uint32_t segno)
{
	int64_t old = (int64_t)segno + p->delta;

	return old >= 0 && old < fs->main_segs ? (uint32_t)old : F2_NULL_SEGNO;
}

/* The SIT (renumbered, journal folded in) into the first copy and the
 * SSA blocks of the segments in use; *free_segs counts the free ones. */
static int copy_sit_ssa(struct f2_fs *fs, const struct f2_resize_plan *p, const struct areas *a,
			const uint32_t cur[F2_NR_CURSEG], uint8_t *blk, uint32_t *free_segs)
{
	struct f2_sit_block *sb = (struct f2_sit_block *)blk;
	int err = 0;

	*free_segs = 0;
	memset(blk, 0, F2_BLKSIZE);
	for (uint32_t segno = 0; segno < p->new_main && !err; segno++) {
		uint32_t old = old_segno(fs, p, segno), i = segno % F2_SIT_ENTRIES_PER_BLOCK;
		struct f2_sit_entry *e = &sb->entries[i];
		struct f2_sit_info si = { 0 };
		int is_cur = 0;

		for (int t = 0; t < F2_NR_CURSEG; t++)
			is_cur |= cur[t] == segno;
		if (old != F2_NULL_SEGNO)
			err = f2_sit_get(fs, old, &si);
		if (err)
			break;
		f2_set_le16(e->vblocks, (uint16_t)(si.vblocks | si.type << F2_SIT_VBLOCKS_SHIFT));
		memcpy(e->valid_map, si.valid_map, sizeof(e->valid_map));
		f2_set_le64(e->mtime, si.mtime);
		if (!si.vblocks && !is_cur)
			(*free_segs)++;
		if (old != F2_NULL_SEGNO && (si.vblocks || is_cur)) {
			uint8_t sum[F2_BLKSIZE];

			err = f2_fs_read_block(fs, (uint64_t)fs->ssa_blkaddr + old, sum);
			if (!err)
				err = f2_io_write_block(fs->io, a->ssa + segno, sum);
		}
		if (!err && (i == F2_SIT_ENTRIES_PER_BLOCK - 1 || segno + 1 == p->new_main)) {
			err = f2_io_write_block(fs->io, a->sit + segno / F2_SIT_ENTRIES_PER_BLOCK,
						blk);
			memset(blk, 0, F2_BLKSIZE);
		}
	}
	return err;
}

struct orphans {
	uint32_t *ino;
	size_t n, cap;
};

static int add_orphan(void *ctx, uint32_t ino)
{
	struct orphans *o = ctx;

	if (o->n == o->cap) {
		size_t nc = o->cap ? o->cap * 2 : 64;
		uint32_t *v = realloc(o->ino, nc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		o->ino = v;
		o->cap = nc;
	}
	o->ino[o->n++] = ino;
	return 0;
}

/* One checkpoint pack in the new area: the old one's counters and logs,
 * renumbered, with the new size's reserve, empty journals, zero bitmaps. */
static int write_cp(struct f2_fs *fs, const struct f2_resize_plan *p, const struct areas *a,
		    const uint32_t cur[F2_NR_CURSEG], uint32_t free_segs)
{
	const struct f2_checkpoint *old = fs->cp;
	uint32_t flags = fs->cp_flags & (F2_CP_LARGE_NAT_BITMAP | F2_CP_CRC_RECOVERY |
					 F2_CP_NOCRC_RECOVERY);
	uint8_t *head = calloc(1 + p->cp_payload, F2_BLKSIZE);
	struct f2_journal *j = calloc(2, sizeof(*j));
	struct orphans orph = { 0 };
	struct f2_cp_image ci = { 0 };
	struct f2_checkpoint *cp = (struct f2_checkpoint *)head;
	int err = -ENOMEM;

	if (!head || !j)
		goto out;
	err = f2_cp_orphans(fs, add_orphan, &orph);
	if (err)
		goto out;
	f2_set_le64(cp->user_block_count, p->user_blocks);
	cp->valid_block_count = old->valid_block_count;
	f2_set_le32(cp->rsvd_segment_count, p->rsvd);
	f2_set_le32(cp->overprov_segment_count, p->ovp);
	f2_set_le32(cp->free_segment_count, free_segs);
	for (int i = 0; i < 8; i++) {
		f2_set_le32(cp->cur_node_segno[i], i < 3 ? cur[F2_CURSEG_HOT_NODE + i] :
			    F2_NULL_SEGNO);
		f2_set_le32(cp->cur_data_segno[i], i < 3 ? cur[F2_CURSEG_HOT_DATA + i] :
			    F2_NULL_SEGNO);
	}
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		ci.sum[t] = &fs->curseg[t].sum;
		ci.blkoff[t] = fs->curseg[t].blkoff;
		cp->alloc_type[t] = fs->curseg[t].alloc_type;
	}
	memcpy(cp->cur_data_blkoff, old->cur_data_blkoff, sizeof(cp->cur_data_blkoff));
	memcpy(cp->cur_node_blkoff, old->cur_node_blkoff, sizeof(cp->cur_node_blkoff));
	f2_set_le32(cp->ckpt_flags, flags | F2_CP_UMOUNT);
	cp->valid_node_count = old->valid_node_count;
	cp->valid_inode_count = old->valid_inode_count;
	/* a hint: past a smaller NAT, scanning starts over */
	if (f2_le32(old->next_free_nid) < F2_NAT_NID_CAPACITY(p->nat_segs))
		cp->next_free_nid = old->next_free_nid;
	cp->elapsed_time = old->elapsed_time;
	f2_set_le32(cp->sit_ver_bitmap_bytesize, p->sit_bitmap_bytes);
	f2_set_le32(cp->nat_ver_bitmap_bytesize, p->nat_bitmap_bytes);
	f2_set_le32(cp->checksum_offset, (flags & F2_CP_LARGE_NAT_BITMAP) ?
		    F2_CP_MIN_CHKSUM_OFFSET : F2_CP_CHKSUM_OFFSET);
	ci.head = head;
	ci.payload = p->cp_payload;
	ci.orphans = orph.ino;
	ci.norphans = orph.n;
	ci.nat_journal = &j[0];
	ci.sit_journal = &j[1];
	ci.node_sums = 1;
	ci.compact = -1;
	if (f2_cp_pack_blocks(&ci) + 2 > F2_BLKS_PER_SEG) {
		err = F2_ERANGE;
		goto out;
	}
	/* both packs, as mkfs writes them: the second one older */
	ci.start = a->cp + F2_BLKS_PER_SEG;
	f2_set_le64(cp->checkpoint_ver, fs->cp_ver);
	err = f2_cp_write(fs->io, &ci);
	ci.start = a->cp;
	f2_set_le64(cp->checkpoint_ver, fs->cp_ver + 1);
	if (!err)
		err = f2_cp_write(fs->io, &ci);
out:
	free(orph.ino);
	free(head);
	free(j);
	return err;
}

/* (2) The new areas, from the checkpoint (1) committed. */
static int write_areas(struct f2_io *io, const struct f2_resize_plan *p, char *why, size_t len)
{
	struct f2_fs *fs = NULL;
	uint32_t cur[F2_NR_CURSEG], free_segs = 0;
	uint8_t *blk = malloc(F2_BLKSIZE);
	struct areas a;
	int err = blk ? f2_fs_open_io(io, NULL, &fs) : -ENOMEM;

	if (err) {
		f2_why(why, len, err, "reopening after the move: %s",
		       fs && fs->why[0] ? fs->why : f2_strerror(err));
		goto out;
	}
	areas_of(p, &a);
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		uint32_t s = fs->curseg[t].segno;

		if (!fs->curseg[t].have_sum) {
			err = f2_why(why, len, F2_ECORRUPT, "log %d: the checkpoint holds no "
				     "summary", t);
			goto out;
		}
		if (s == F2_NULL_SEGNO || s < p->keep_lo || s >= p->keep_hi) {
			err = f2_why(why, len, F2_ECORRUPT, "log %d in segment %u after emptying "
				     "all but [%u, %u)", t, s, p->keep_lo, p->keep_hi);
			goto out;
		}
		cur[t] = (uint32_t)((int64_t)s - p->delta);
	}
	for (uint32_t s = 0; s < fs->main_segs; s++) {
		struct f2_sit_info si;

		if (s == p->keep_lo)
			s = p->keep_hi;
		if (s >= fs->main_segs)
			break;
		err = f2_sit_get(fs, s, &si);
		if (!err && si.vblocks)
			err = f2_why(why, len, F2_ECORRUPT, "segment %u still holds %u valid "
				     "blocks after the move", s, si.vblocks);
		if (err)
			goto out;
	}
	/* the new areas start zero: unused SIT, NAT and SSA blocks */
	err = f2_io_zero(io, a.cp * F2_BLKSIZE, (a.main - a.cp) * F2_BLKSIZE);
	if (!err)
		err = copy_nat(fs, p, &a, blk);
	if (!err)
		err = copy_sit_ssa(fs, p, &a, cur, blk, &free_segs);
	if (!err)
		err = f2_io_flush(io);
	if (!err)
		err = write_cp(fs, p, &a, cur, free_segs);
	if (err)
		f2_why(why, len, err, "writing the new metadata areas: %s",
		       fs->why[0] ? fs->why : f2_strerror(err));
out:
	f2_fs_close(fs);
	free(blk);
	return err;
}

int rs_relocate(struct f2_io *io, struct f2_fs *fs, const struct f2_resize_plan *p,
		struct f2_resize_stats *st, char *why, size_t len)
{
	struct f2_super sb;
	int err;

	rs_relocated_sb(fs, p, &sb);
	err = evacuate(fs, p, st, why, len);
	if (!err)
		err = write_areas(io, p, why, len);
	if (err)
		return err;
	st->checkpoints++;
	err = f2_resize_sb_commit(io, &sb);
	if (err)
		return f2_why(why, len, err, "writing the superblocks: %s", f2_strerror(err));
	return 0;
}
