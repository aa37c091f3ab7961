// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resize/plan.c - what resizing a volume to a new size means: the new
 * main area (whole zones; after the areas mkfs lays out for the new size,
 * relocated, or in place within what the SIT and SSA address), the GC
 * reserve and overprovision mkfs gives it (f2_geometry_reserve), whether
 * the data fits, and every valid block outside the new main area (past a
 * new end, or where relocated areas go) with its owner checked: the
 * blocks a run will move, and the free sections that must take them.
 * Reads only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/gc.h"
#include "f2/geometry.h"
#include "f2/io.h"
#include "f2/resize.h"

struct tail_scan {
	struct f2_resize_plan *p;
	uint32_t last_owner;
	uint64_t runs;		/* runs of data blocks of one owner node */
	char first_bad[F2_WHY_LEN + 80];
};

static int on_block(void *ctx, const struct f2_gc_block *b)
{
	struct tail_scan *s = ctx;

	if (b->owner == F2_GC_ALIVE) {
		if (b->is_node) {
			s->p->move_node++;
		} else {
			s->p->move_data++;
			if (b->nid != s->last_owner)
				s->runs++;
			s->last_owner = b->nid;
		}
		return 0;
	}
	if (b->owner == F2_GC_STALE)
		s->p->stale++;
	else
		s->p->bad++;
	if (!s->first_bad[0])
		snprintf(s->first_bad, sizeof(s->first_bad), "block %llu: %s",
			 (unsigned long long)b->blkaddr, b->why);
	return 0;
}

/* The sections outside old segnos [keep_lo, keep_hi) (past a new end;
 * where relocated areas go): owners of their blocks, and room for them
 * in the free sections inside. */
static int plan_scan(struct f2_fs *fs, struct f2_resize_plan *p, char *why, size_t len)
{
	struct tail_scan s = { .p = p };
	struct f2_gc_map m;
	uint64_t bps, need;
	uint32_t lo, hi;
	int err = f2_gc_map_build(fs, &m);

	if (err)
		return f2_why(why, len, err, "reading the SIT: %s", fs->why);
	bps = m.blocks_per_sec;
	lo = p->keep_lo / m.segs_per_sec;
	hi = p->keep_hi / m.segs_per_sec;
	for (uint32_t sec = 0; sec < m.nsecs && !err; sec++) {
		const struct f2_gc_sec *g = &m.secs[sec];

		if (sec >= lo && sec < hi) {
			p->free_head_secs += g->state == F2_GC_SEC_FREE;
			continue;
		}
		if (g->valid)
			p->tail_secs_used++;
		if (g->valid)
			err = f2_gc_section_blocks(fs, &m, sec, on_block, &s);
	}
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (fs->curseg[t].segno != F2_NULL_SEGNO &&
		    (fs->curseg[t].segno / m.segs_per_sec < lo ||
		     fs->curseg[t].segno / m.segs_per_sec >= hi))
			p->tail_cursegs++;
	f2_gc_map_free(&m);
	if (err)
		return f2_why(why, len, err, "checking the owners of the blocks to move: %s",
			      fs->why);
	if (p->stale || p->bad)
		return f2_why(why, len, F2_ECORRUPT, "%llu valid block(s) to move whose "
			      "owner does not point at them (first: %s): run fsck.f2fs first",
			      (unsigned long long)(p->stale + p->bad), s.first_bad);
	/* moved blocks, the owner nodes they dirty (each run's, at most),
	 * and one section for each log that takes a new one there (twice
	 * when blocks move from both ends) */
	need = p->move_data + p->move_node + 2 * s.runs;
	p->need_secs = (uint32_t)((need + bps - 1) / bps);
	if (need || p->tail_cursegs)
		p->need_secs += F2_NR_CURSEG * (p->shift && p->keep_hi < p->old_main ? 2 : 1);
	if (p->need_secs > p->free_head_secs)
		return f2_why(why, len, F2_ENOSPC, "moving %llu block(s) %s needs %u free "
			      "sections %s, %u are free (gc.f2fs frees more)",
			      (unsigned long long)(p->move_data + p->move_node),
			      !p->shift ? "past the new end" : p->keep_hi < p->old_main ?
			      "past the new end and out of the main area's start (room for the "
			      "new metadata areas)" : "out of the main area's start (room for the "
			      "new metadata areas)", p->need_secs,
			      !p->shift ? "below it" : p->keep_hi < p->old_main ? "between them" :
			      "after them", p->free_head_secs);
	return 0;
}

/* Whether every nid in use lies below max_nid (a NAT of that size holds
 * them all). */
struct nid_max {
	uint32_t max;
	uint32_t first;		/* the first nid in use at or past max */
};

static int nid_at_max(void *ctx, const struct f2_nat_info *ni)
{
	struct nid_max *n = ctx;

	if (ni->nid >= n->max && ni->blkaddr) {
		n->first = ni->nid;
		return 1;
	}
	return 0;
}

/*
 * The areas mkfs lays out for the new size (f2_geometry_compute): the
 * checkpoint, SIT and NAT of mkfs's sizes, the SSA taking the rest of
 * whole zones (as mkfs pads it).  They go where mkfs puts them when they
 * end before the old areas begin and the main area that follows is
 * aligned as the old one (the main area then starts earlier by whole
 * zones, taking in the old areas); otherwise at the start of the old
 * main area.  Returns 1 (p->in_place set) when the nids in use need a
 * larger NAT than mkfs's.
 */
static int plan_relocate(struct f2_fs *fs, const struct f2_resize_opts *o,
			 struct f2_resize_plan *p, uint32_t spz, char *why, size_t len)
{
	const struct f2_super *sb = &fs->sb;
	uint64_t zone = (uint64_t)spz * F2_BLKS_PER_SEG, meta, main_start, new_main;
	struct f2_geom_params gp = { 0 };
	const char *gwhy = NULL;
	struct f2_geom g;
	int err;

	gp.sector_size = 1u << f2_le32(sb->log_sectorsize);
	gp.ndevs = 1;
	gp.devs[0].total_sectors = o->target_blocks << f2_le32(sb->log_sectors_per_block);
	gp.segs_per_sec = f2_le32(sb->segs_per_sec);
	gp.secs_per_zone = f2_le32(sb->secs_per_zone);
	gp.overprovision = o->overprovision;
	gp.features = fs->features;
	gp.large_nat_bitmap = !!(fs->cp_flags & F2_CP_LARGE_NAT_BITMAP);
	err = f2_geometry_compute(&gp, &g, &gwhy);
	if (err)
		return f2_why(why, len, err, "laying out %llu blocks: %s",
			      (unsigned long long)o->target_blocks, gwhy);
	if (g.segment_count_nat < f2_le32(sb->segment_count_nat)) {
		uint64_t cap = F2_NAT_NID_CAPACITY(g.segment_count_nat);
		struct nid_max n = { .max = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap };

		err = f2_nat_iter(fs, nid_at_max, &n);
		if (err < 0)
			return f2_why(why, len, err, "reading the NAT: %s", fs->why);
		if (err) {
			p->in_place = "nids in use lie past what the smaller NAT addresses";
			return 1;
		}
	}
	meta = (uint64_t)g.segment_count_ckpt + g.segment_count_sit + g.segment_count_nat +
	       g.segment_count_ssa;
	meta = (meta + spz - 1) / spz * spz;
	main_start = g.segment0_blkaddr + meta * F2_BLKS_PER_SEG;
	if (main_start <= fs->seg0_blkaddr && !((fs->main_blkaddr - main_start) % zone)) {
		p->home = 1;
		p->seg0 = g.segment0_blkaddr;
		p->delta = -(int32_t)((fs->main_blkaddr - main_start) / F2_BLKS_PER_SEG);
	} else {
		if (meta >= fs->main_segs)
			return f2_why(why, len, F2_ETOOSMALL, "the new metadata areas (%llu "
				      "segments) do not fit the main area", (unsigned long long)meta);
		p->seg0 = fs->main_blkaddr;
		p->shift = (uint32_t)meta;
		p->delta = (int32_t)meta;
		main_start = fs->main_blkaddr + meta * F2_BLKS_PER_SEG;
	}
	if (o->target_blocks <= main_start + zone)
		return f2_why(why, len, F2_ETOOSMALL, "%llu blocks leave no main area after the "
			      "relocated metadata areas (block %llu on)", (unsigned long long)
			      o->target_blocks, (unsigned long long)main_start);
	new_main = (o->target_blocks - main_start) / zone * spz;
	p->relocate = 1;
	p->meta_segs = (uint32_t)meta;
	p->sit_segs = g.segment_count_sit;
	p->nat_segs = g.segment_count_nat;
	p->ssa_segs = (uint32_t)meta - g.segment_count_ckpt - g.segment_count_sit -
		      g.segment_count_nat;
	p->cp_payload = g.cp_payload;
	p->sit_bitmap_bytes = g.sit_bitmap_bytes;
	p->nat_bitmap_bytes = g.nat_bitmap_bytes;
	if (new_main > (uint64_t)p->ssa_segs * F2_BLKS_PER_SEG ||
	    new_main > (uint64_t)p->sit_segs / 2 * F2_BLKS_PER_SEG * F2_SIT_ENTRIES_PER_BLOCK ||
	    main_start + new_main * F2_BLKS_PER_SEG > 0xFFFFFFFFull)
		return f2_why(why, len, F2_ETOOSMALL, "%llu blocks: %llu main segments after "
			      "relocating the metadata areas (%u now)", (unsigned long long)
			      o->target_blocks, (unsigned long long)new_main, fs->main_segs);
	if ((int64_t)p->delta + (int64_t)new_main <= (p->delta > 0 ? p->delta : 0))
		return f2_why(why, len, F2_ETOOSMALL, "%llu blocks: the new main area would "
			      "hold none of the old one", (unsigned long long)o->target_blocks);
	p->new_main = (uint32_t)new_main;
	/* the old segments inside the new main area */
	p->keep_lo = p->delta > 0 ? (uint32_t)p->delta : 0;
	p->keep_hi = (int64_t)p->delta + new_main < fs->main_segs ?
		     (uint32_t)((int64_t)p->delta + new_main) : fs->main_segs;
	return 0;
}

/* A multi-device volume changes size only within its last device: it
 * loses the cut segments, or gains the added ones up to its end (the
 * join spans it whole: f2_fs_opts.last_dev_whole). */
static int plan_multi(struct f2_fs *fs, struct f2_resize_plan *p, uint64_t new_main,
		      char *why, size_t len)
{
	const struct f2_fs_dev *last = &fs->devs[fs->ndevs - 1];
	uint64_t end = fs->main_blkaddr + new_main * F2_BLKS_PER_SEG;
	uint32_t segs = f2_le32(fs->sb.devs[fs->ndevs - 1].total_segments);

	if (end > fs->io->size / F2_BLKSIZE)
		return f2_why(why, len, F2_ETOOBIG, "multi-device volume: the new end (block "
			      "%llu) lies past its last device %s (%llu blocks in all)",
			      (unsigned long long)end, last->path,
			      (unsigned long long)(fs->io->size / F2_BLKSIZE));
	if (end <= last->start_blk || (new_main < p->old_main && p->old_main - new_main >= segs))
		return f2_why(why, len, F2_EUNSUPP, "multi-device volume: the new end (block "
			      "%llu) must lie in its last device %s, which starts at block %llu",
			      (unsigned long long)end, last->path,
			      (unsigned long long)last->start_blk);
	return 0;
}

static int plan_once(struct f2_fs *fs, const struct f2_resize_opts *o, struct f2_resize_plan *p,
		     int may_relocate, char *why, size_t len)
{
	const struct f2_super *sb = &fs->sb;
	uint32_t sps = f2_le32(sb->segs_per_sec), spz, meta;
	uint64_t avail, cap_sit, cap_ssa, max_main, new_main;
	const char *rwhy = NULL;
	struct f2_reserve r;
	int err;

	memset(p, 0, sizeof(*p));
	if (!fs->cp)
		return f2_why(why, len, F2_ENOCP, "no checkpoint loaded");
	if (fs->features & F2_FEAT_RO)
		return f2_why(why, len, F2_EUNSUPP, "read-only volumes (feature ro) are not resized");
	spz = sps * f2_le32(sb->secs_per_zone);
	if (!sps || !spz || spz > fs->main_segs || fs->main_blkaddr < fs->seg0_blkaddr ||
	    (fs->main_blkaddr - fs->seg0_blkaddr) % F2_BLKS_PER_SEG)
		return f2_why(why, len, F2_ECORRUPT, "superblock: segs_per_sec %u, zone %u "
			      "segments, main area at %u", sps, spz, fs->main_blkaddr);
	meta = (fs->main_blkaddr - fs->seg0_blkaddr) / F2_BLKS_PER_SEG;
	p->old_blocks = fs->block_count;
	p->old_main = fs->main_segs;
	p->old_secs = fs->main_segs / sps;
	p->valid_blocks = f2_le64(fs->cp->valid_block_count);

	avail = o->target_blocks > fs->seg0_blkaddr ?
		(o->target_blocks - fs->seg0_blkaddr) / F2_BLKS_PER_SEG : 0;
	if (avail < meta + spz)
		return f2_why(why, len, F2_ETOOSMALL, "%llu blocks leave no main area after the "
			      "%u metadata segments", (unsigned long long)o->target_blocks, meta);
	new_main = (avail - meta) / spz * spz;
	/* one SIT entry and one SSA block per main segment */
	cap_sit = (uint64_t)(f2_le32(sb->segment_count_sit) / 2) * F2_BLKS_PER_SEG *
		  F2_SIT_ENTRIES_PER_BLOCK;
	cap_ssa = (uint64_t)f2_le32(sb->segment_count_ssa) * F2_BLKS_PER_SEG;
	max_main = (cap_sit < cap_ssa ? cap_sit : cap_ssa) / spz * spz;
	/* block addresses are 32 bits */
	if (max_main > (0xFFFFFFFFull - fs->seg0_blkaddr) / F2_BLKS_PER_SEG - meta)
		max_main = ((0xFFFFFFFFull - fs->seg0_blkaddr) / F2_BLKS_PER_SEG - meta) / spz * spz;
	p->max_main = (uint32_t)max_main;
	/* a zoned volume shrinks by whole zones (its sections); the zones a
	 * grow would add may hold old writes, and are not taken */
	if ((fs->features & F2_FEAT_BLKZONED) && new_main > fs->main_segs)
		return f2_why(why, len, F2_EUNSUPP, "growing a zoned volume (blkzoned) is not "
			      "supported; shrinking it is");
	if (new_main > max_main && !o->safe && fs->ndevs > 1)
		return f2_why(why, len, F2_EUNSUPP, "growing a multi-device volume (%u devices) "
			      "past what its SIT and SSA address (%u main segments) is not "
			      "supported (-s grows to that)", fs->ndevs, p->max_main);
	if (o->safe) {
		if (new_main > max_main) {
			new_main = max_main;
			p->clamped = 1;
		}
	} else if (fs->ndevs > 1) {
		p->in_place = "a multi-device volume";
	} else if (fs->features & F2_FEAT_BLKZONED) {
		p->in_place = "a zoned volume";
	} else if (!may_relocate) {
		p->in_place = "the data fits only with the areas kept where they are";
		if (new_main > max_main)
			return f2_why(why, len, F2_EUNSUPP, "past what the SIT and SSA address");
	} else if (new_main != fs->main_segs) {
		err = plan_relocate(fs, o, p, spz, why, len);
		if (err < 0)
			return err;
		if (!err)
			new_main = p->new_main;
		else if (new_main > max_main)
			return f2_why(why, len, F2_EUNSUPP, "%s, and growing in place past what the "
				      "SIT and SSA address (%u main segments) needs them relocated "
				      "(-s grows to that)", p->in_place, p->max_main);
	}
	if (fs->ndevs > 1) {
		err = plan_multi(fs, p, new_main, why, len);
		if (err)
			return err;
	}
	p->new_main = (uint32_t)new_main;
	p->new_secs = p->new_main / sps;
	p->new_segment_count = (p->relocate ? p->meta_segs : meta) + p->new_main;
	p->new_blocks = p->clamped ? (uint64_t)fs->seg0_blkaddr +
			(uint64_t)p->new_segment_count * F2_BLKS_PER_SEG : o->target_blocks;
	/* the devices of a multi-device volume sum up to block_count: the
	 * last one loses or gains the segments */
	if (fs->ndevs > 1)
		p->new_blocks = fs->block_count - (uint64_t)p->old_main * F2_BLKS_PER_SEG +
				(uint64_t)p->new_main * F2_BLKS_PER_SEG;
	if (p->new_main == p->old_main) {
		p->kind = F2_RESIZE_NONE;
		return 0;
	}
	p->kind = p->new_main < p->old_main ? F2_RESIZE_SHRINK : F2_RESIZE_GROW;
	err = f2_geometry_reserve(p->new_main, p->new_main, p->new_secs, o->overprovision, &r,
				  &rwhy);
	if (err)
		return f2_why(why, len, err, "%u main segments: %s", p->new_main, rwhy);
	p->ratio = r.ratio;
	p->rsvd = r.reserved;
	p->ovp = r.overprov;
	p->user_blocks = (uint64_t)(p->new_main - r.overprov) * F2_BLKS_PER_SEG;
	if (p->valid_blocks > p->user_blocks)
		return f2_why(why, len, F2_ENOSPC, "%llu valid blocks do not fit: %u main segments "
			      "leave users %llu blocks (%u overprovision segments, %u of them "
			      "reserved)", (unsigned long long)p->valid_blocks, p->new_main,
			      (unsigned long long)p->user_blocks, p->ovp, p->rsvd);
	if (!p->relocate) {
		p->keep_lo = 0;
		p->keep_hi = p->new_main < p->old_main ? p->new_main : p->old_main;
	}
	if (p->keep_lo || p->keep_hi < p->old_main)
		return plan_scan(fs, p, why, len);
	return 0;
}

/* Relocated areas where the volume allows; in place when only that
 * leaves the data room (the relocated areas cost the main area the old
 * ones, or the segments they take); refused with the in-place numbers
 * when neither does. */
int f2_resize_plan(struct f2_fs *fs, const struct f2_resize_opts *o, struct f2_resize_plan *p,
		   char *why, size_t len)
{
	int err = plan_once(fs, o, p, 1, why, len);

	if (err == F2_ENOSPC && p->relocate) {
		struct f2_resize_plan relocated = *p;
		char why2[F2_WHY_LEN + 200];
		int err2 = plan_once(fs, o, p, 0, why2, sizeof(why2));

		/* refused either way: the in-place plan's numbers, the least
		 * the volume needs; a size only relocation reaches keeps the
		 * relocated plan's */
		if (err2 == F2_ENOSPC)
			snprintf(why, len, "%s", why2);
		if (err2 && err2 != F2_ENOSPC)
			*p = relocated;
		else
			err = err2;
	}
	return err;
}
