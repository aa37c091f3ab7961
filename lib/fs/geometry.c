// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * geometry.c - layout of a new file system.
 *
 * Areas in order from segment0: two checkpoint segments, SIT (two copies),
 * NAT (two copies), SSA, then the main area, with the metadata rounded up
 * to whole zones.  The overprovision ratio, when not given, is the one that
 * leaves users the most space, searched over the same candidates and with
 * the same floating-point arithmetic as the reference tool so the results
 * agree bit for bit.
 */
#include <string.h>
#include "f2/errors.h"
#include "f2/geometry.h"

#define NR_CP_PACKS		2
#define MIN_SEGMENTS		9	/* smallest volume the kernel accepts */
#define NAT_ENTRY_RATIO		20	/* -i: percent of NAT blocks kept */

static uint32_t ilog2(uint32_t v)
{
	uint32_t r = 0;

	while (v >>= 1)
		r++;
	return r;
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* Reserved segments the GC needs at overprovision ratio ovp. */
static double reserved_for(double ovp, uint32_t segs_per_sec)
{
	return (2 * (100 / ovp + 1) + F2_NR_CURSEG) * segs_per_sec;
}

/*
 * main_segs picks the range of candidates; the space is computed over the
 * usable segments, reserving in units of the average usable segments of a
 * section (segs_per_sec unless zone capacities cut sections short).
 */
static double best_overprovision(uint32_t main_segs, uint32_t usable,
				 uint32_t segs_per_sec)
{
	double cand, end, step, best = 0, best_space = 0;

	if (main_segs < 256) {
		cand = 10;
		end = 95;
		step = 5;
	} else {
		cand = 0.01;
		end = 10;
		step = 0.01;
	}
	for (; cand <= end; cand += step) {
		double rsvd = reserved_for(cand, segs_per_sec);
		double ovp = (usable - rsvd) * cand / 100;
		double space = usable - rsvd - ovp;

		if (best_space < space) {
			best_space = space;
			best = cand;
		}
	}
	return best;
}

/* Initial segment of each log, as offsets into the main area. */
static void place_logs(const struct f2_geom_params *p, struct f2_geom *g,
		       uint32_t segs_per_zone)
{
	uint32_t *cs = g->cur_seg;
	uint32_t zones = g->total_zones;
#define NEXT_ZONE(t) (cs[t] + segs_per_zone)
#define PREV_ZONE(t) (cs[t] - segs_per_zone)
#define LAST_ZONE(n) (((n) - 1) * segs_per_zone)

	if (p->features & F2_FEAT_RO) {
		/* two logs: hot node, then hot data; the others unused */
		memset(cs, 0, F2_NR_CURSEG * sizeof(*cs));
		cs[F2_CURSEG_HOT_DATA] = 1;
		return;
	}
	if (p->heap) {
		cs[F2_CURSEG_HOT_NODE] = LAST_ZONE(zones) +
			(g->secs_per_zone - 1) * g->segs_per_sec;
		cs[F2_CURSEG_WARM_NODE] = PREV_ZONE(F2_CURSEG_HOT_NODE);
		cs[F2_CURSEG_COLD_NODE] = PREV_ZONE(F2_CURSEG_WARM_NODE);
		cs[F2_CURSEG_HOT_DATA] = PREV_ZONE(F2_CURSEG_COLD_NODE);
		cs[F2_CURSEG_COLD_DATA] = 0;
		cs[F2_CURSEG_WARM_DATA] = NEXT_ZONE(F2_CURSEG_COLD_DATA);
	} else {
		cs[F2_CURSEG_HOT_NODE] = 0;
		cs[F2_CURSEG_WARM_NODE] = NEXT_ZONE(F2_CURSEG_HOT_NODE);
		cs[F2_CURSEG_COLD_NODE] = NEXT_ZONE(F2_CURSEG_WARM_NODE);
		cs[F2_CURSEG_HOT_DATA] = NEXT_ZONE(F2_CURSEG_COLD_NODE);
		if (p->zoned) {
			cs[F2_CURSEG_WARM_DATA] = NEXT_ZONE(F2_CURSEG_HOT_DATA);
			cs[F2_CURSEG_COLD_DATA] = NEXT_ZONE(F2_CURSEG_WARM_DATA);
		} else {
			uint32_t a = LAST_ZONE(zones >> 2);
			uint32_t b = NEXT_ZONE(F2_CURSEG_HOT_DATA);

			cs[F2_CURSEG_COLD_DATA] = a > b ? a : b;
			a = LAST_ZONE(zones >> 1);
			b = NEXT_ZONE(F2_CURSEG_COLD_DATA);
			cs[F2_CURSEG_WARM_DATA] = a > b ? a : b;
		}
	}
#undef NEXT_ZONE
#undef PREV_ZONE
#undef LAST_ZONE

	/* Two logs may not share a segment: fall back to consecutive zones.
	 * The fallback is written out as in the reference: log i follows the
	 * segment of log i-1, in enum order. */
	for (int i = 0; i < F2_NR_CURSEG; i++)
		for (int j = i + 1; j < F2_NR_CURSEG; j++)
			if (cs[i] == cs[j]) {
				cs[0] = 0;
				for (int k = 1; k < F2_NR_CURSEG; k++)
					cs[k] = cs[k - 1] + segs_per_zone;
				return;
			}
}

static int fail(const char **why, const char *msg, int err)
{
	if (why)
		*why = msg;
	return err;
}

/* The options geometry cannot work with at all. */
static int check_params(const struct f2_geom_params *p, const char **why)
{
	if (p->sector_size < 512 || p->sector_size > F2_BLKSIZE ||
	    (p->sector_size & (p->sector_size - 1)))
		return fail(why, "sector size must be a power of two from 512 to 4096", F2_EBADOPT);
	if (p->ndevs < 1 || p->ndevs > F2_MAX_DEVICES)
		return fail(why, "between 1 and 8 devices are supported", F2_EBADOPT);
	if (p->segs_per_sec < 1 || p->secs_per_zone < 1 ||
	    (uint64_t)p->segs_per_sec * p->secs_per_zone > (1u << 22) / F2_BLKS_PER_SEG)
		return fail(why, "segments per section and sections per zone must be positive "
			    "and a zone at most 2 GiB", F2_EBADOPT);
	if (p->overprovision < 0 || p->overprovision >= 100)
		return fail(why, "overprovision ratio must be below 100 percent", F2_EBADOPT);
	return 0;
}

/*
 * Segment 0 (the first zone boundary past the two superblock blocks) and
 * the block range of every device; sets g->segment_count to whole zones.
 */
static int place_devices(const struct f2_geom_params *p, struct f2_geom *g,
			 uint32_t segs_per_zone, const char **why)
{
	const uint32_t blks_per_seg = F2_BLKS_PER_SEG;
	uint32_t zone_bytes = segs_per_zone * F2_SEG_SIZE;
	uint32_t sectors_per_blk = F2_BLKSIZE / p->sector_size;
	uint64_t total_sectors = 0, zone_align, total_segments = 0;

	for (uint32_t i = 0; i < p->ndevs; i++)
		total_sectors += p->devs[i].total_sectors;
	g->block_count = total_sectors >> g->log_sectors_per_block;

	zone_align = div_up(p->start_sector * F2_SECTOR_SIZE + 2 * F2_BLKSIZE,
			    zone_bytes) * zone_bytes - p->start_sector * F2_SECTOR_SIZE;
	if (p->zoned && p->ndevs > 1)
		zone_align += (p->devs[0].total_sectors * p->sector_size) % zone_bytes;
	/* a read-only volume is never rewritten: no zone alignment, its
	 * areas start right after the two superblock blocks */
	if (p->features & F2_FEAT_RO)
		zone_align = 2 * F2_BLKSIZE;
	if (p->devs[0].total_sectors * p->sector_size < zone_align)
		return fail(why, "the first device is smaller than one zone", F2_ETOOSMALL);
	g->segment0_blkaddr = (uint32_t)(zone_align / F2_BLKSIZE);
	g->cp_blkaddr = g->segment0_blkaddr;

	for (uint32_t i = 0; i < p->ndevs; i++) {
		if (i == 0) {
			g->dev_total_segments[0] = (uint32_t)((p->devs[0].total_sectors *
				p->sector_size - zone_align) / F2_SEG_SIZE);
			g->dev_start_blkaddr[0] = 0;
			g->dev_end_blkaddr[0] = (uint64_t)g->dev_total_segments[0] *
				blks_per_seg - 1 + g->segment0_blkaddr;
		} else {
			g->dev_total_segments[i] = (uint32_t)(p->devs[i].total_sectors /
				((uint64_t)sectors_per_blk * blks_per_seg));
			g->dev_start_blkaddr[i] = g->dev_end_blkaddr[i - 1] + 1;
			g->dev_end_blkaddr[i] = g->dev_start_blkaddr[i] +
				(uint64_t)g->dev_total_segments[i] * blks_per_seg - 1;
		}
		total_segments += g->dev_total_segments[i];
	}
	if (total_segments * blks_per_seg + g->segment0_blkaddr > 0xFFFFFFFFull)
		return fail(why, "f2fs addresses at most 16 TiB with 4 KiB blocks", F2_ETOOBIG);
	if (total_segments < MIN_SEGMENTS)
		return fail(why, "fewer segments than the minimum of 9", F2_ETOOSMALL);
	g->segment_count = (uint32_t)(total_segments / segs_per_zone * segs_per_zone);
	return 0;
}

/* The NAT area's size and the checkpoint payload its bitmap needs. */
static void size_nat(const struct f2_geom_params *p, struct f2_geom *g, uint32_t sit_segs)
{
	const uint32_t blks_per_seg = F2_BLKS_PER_SEG;
	uint64_t blocks_for_nat;
	uint32_t max_sit_bitmap, max_nat_bitmap;

	blocks_for_nat = div_up((uint64_t)(g->segment_count - g->segment_count_ckpt -
					   g->segment_count_sit) * blks_per_seg,
				F2_NAT_ENTRIES_PER_BLOCK);
	g->sit_bitmap_bytes = (sit_segs * blks_per_seg) / 8;
	max_sit_bitmap = g->sit_bitmap_bytes > F2_MAX_BITMAP_IN_CP ?
			 F2_MAX_BITMAP_IN_CP : g->sit_bitmap_bytes;
	if (p->large_nat_bitmap) {
		uint32_t nat_segs = (uint32_t)(div_up(blocks_for_nat, blks_per_seg) *
					       NAT_ENTRY_RATIO / 100);

		g->segment_count_nat = nat_segs ? nat_segs : 1;
		max_nat_bitmap = (g->segment_count_nat * blks_per_seg) / 8;
		g->segment_count_nat *= 2;
		if (max_sit_bitmap + max_nat_bitmap > F2_MAX_BITMAP_IN_CP)
			g->cp_payload = (uint32_t)div_up(max_sit_bitmap + max_nat_bitmap -
							 F2_MAX_BITMAP_IN_CP, F2_BLKSIZE);
	} else {
		uint32_t max_nat_segs;

		g->segment_count_nat = (uint32_t)div_up(blocks_for_nat, blks_per_seg);
		if (max_sit_bitmap > F2_MAX_SIT_BITMAP_IN_CP) {
			max_nat_bitmap = F2_MAX_BITMAP_IN_CP;
			g->cp_payload = (uint32_t)div_up(max_sit_bitmap, F2_BLKSIZE);
		} else {
			max_nat_bitmap = F2_MAX_BITMAP_IN_CP - max_sit_bitmap;
		}
		max_nat_segs = (max_nat_bitmap * 8) / blks_per_seg;
		if (g->segment_count_nat > max_nat_segs)
			g->segment_count_nat = max_nat_segs;
		g->segment_count_nat *= 2;
	}
	g->nat_bitmap_bytes = (g->segment_count_nat / 2 * blks_per_seg) / 8;
}

/* Checkpoint, SIT, NAT and SSA areas, then the main area in whole zones. */
static int place_meta(const struct f2_geom_params *p, struct f2_geom *g,
		      uint32_t segs_per_zone, const char **why)
{
	const uint32_t blks_per_seg = F2_BLKS_PER_SEG;
	uint64_t meta_segs, meta_zones;
	uint32_t sit_segs;

	g->segment_count_ckpt = NR_CP_PACKS;
	g->sit_blkaddr = g->segment0_blkaddr + g->segment_count_ckpt * blks_per_seg;
	sit_segs = (uint32_t)div_up(div_up(g->segment_count, F2_SIT_ENTRIES_PER_BLOCK),
				    blks_per_seg);
	g->segment_count_sit = sit_segs * 2;
	g->nat_blkaddr = g->sit_blkaddr + g->segment_count_sit * blks_per_seg;
	size_nat(p, g, sit_segs);
	g->ssa_blkaddr = g->nat_blkaddr + g->segment_count_nat * blks_per_seg;

	if (g->segment_count < g->segment_count_ckpt + g->segment_count_sit +
	    g->segment_count_nat)
		return fail(why, "no room for the main area", F2_ETOOSMALL);
	/* one summary block per main segment, plus one; none on a read-only
	 * volume (its blocks never move) */
	g->segment_count_ssa = (p->features & F2_FEAT_RO) ? 0 :
		(uint32_t)div_up(g->segment_count - g->segment_count_ckpt -
				 g->segment_count_sit - g->segment_count_nat + 1, blks_per_seg);
	meta_segs = g->segment_count_ckpt + g->segment_count_sit +
		    g->segment_count_nat + g->segment_count_ssa;
	if (meta_segs % segs_per_zone)
		g->segment_count_ssa += segs_per_zone - meta_segs % segs_per_zone;
	meta_zones = div_up(meta_segs * blks_per_seg, (uint64_t)blks_per_seg * segs_per_zone);
	g->main_blkaddr = (uint32_t)(g->segment0_blkaddr +
				     meta_zones * segs_per_zone * blks_per_seg);

	if (p->zoned && p->devs[0].host_managed &&
	    p->devs[0].nr_rnd_zones < g->main_blkaddr / (segs_per_zone * blks_per_seg))
		return fail(why, "not enough conventional zones for the metadata", F2_ETOOSMALL);
	/* room for the logs: six, or two on a read-only volume */
	if (g->segment_count / segs_per_zone <= meta_zones + ((p->features & F2_FEAT_RO) ? 2 : 6))
		return fail(why, "too few zones left for the main area: "
			    "use smaller sections or zones", F2_ETOOSMALL);

	/* with -c, zoned devices after the first must hold no metadata */
	for (uint32_t i = 1; p->zoned && i < p->ndevs; i++)
		if (p->devs[i].zoned && g->dev_start_blkaddr[i] < g->main_blkaddr)
			return fail(why, "the first device is too small to hold the metadata "
				    "outside the zoned devices", F2_ETOOSMALL);

	g->total_zones = (uint32_t)(g->segment_count / segs_per_zone - meta_zones);
	g->section_count = g->total_zones * p->secs_per_zone;
	g->segment_count_main = g->section_count * p->segs_per_sec;
	return 0;
}

int f2_geometry_reserve(uint32_t main_segs, uint32_t usable, uint32_t sections, double ratio,
			struct f2_reserve *r, const char **why)
{
	uint32_t usable_per_sec;

	if (!sections || !usable)
		return fail(why, "no usable main area", F2_ETOOSMALL);
	usable_per_sec = (uint32_t)div_up(usable, sections);
	r->ratio = ratio > 0 ? ratio : best_overprovision(main_segs, usable, usable_per_sec);
	if (r->ratio <= 0)
		return fail(why, "no overprovision ratio fits this device", F2_ETOOSMALL);
	r->reserved = (uint32_t)reserved_for(r->ratio, usable_per_sec);
	if (main_segs < F2_NR_CURSEG || main_segs - F2_NR_CURSEG < r->reserved ||
	    usable <= r->reserved)
		return fail(why, "the main area is smaller than the GC reserve", F2_ETOOSMALL);
	r->overprov = (uint32_t)((usable - r->reserved) * r->ratio / 100);
	r->overprov += r->reserved;
	if (usable <= r->overprov)
		return fail(why, "overprovisioning leaves no space for data", F2_ETOOSMALL);
	return 0;
}

/*
 * Usable segments, counted the way the reference does: every segment of
 * each regular device (including a tail that does not fill a zone) and, on
 * host-managed devices, the segments below each zone's capacity, less the
 * metadata.  Reserve and overprovision use them (f2_geometry_reserve);
 * what is left is the users'.
 */
static int count_space(const struct f2_geom_params *p, struct f2_geom *g, const char **why)
{
	const uint32_t blks_per_seg = F2_BLKS_PER_SEG;
	uint64_t usable = 0, meta_segs;
	struct f2_reserve r;
	int err;

	for (uint32_t i = 0; i < p->ndevs; i++)
		usable += p->devs[i].host_managed ? p->devs[i].zone_usable_segs :
			  g->dev_total_segments[i];
	meta_segs = (g->main_blkaddr - g->segment0_blkaddr) / blks_per_seg;
	if (usable <= meta_segs + F2_NR_CURSEG || usable - meta_segs > 0xFFFFFFFFull)
		return fail(why, "zone capacities leave no usable main area", F2_ETOOSMALL);
	g->usable_segments = (uint32_t)(usable - meta_segs);
	if (p->features & F2_FEAT_RO) {
		/* nothing to clean: no reserve, no overprovision; the whole
		 * main area (f2fs-tools 1.15 counts the segments a zone
		 * alignment leaves out too, which Linux and its fsck refuse) */
		g->user_block_count = (uint64_t)g->segment_count_main * blks_per_seg;
		return 0;
	}
	err = f2_geometry_reserve(g->segment_count_main, g->usable_segments, g->section_count,
				  p->overprovision, &r, why);
	if (err)
		return err;
	g->overprovision = r.ratio;
	g->reserved_segments = r.reserved;
	g->overprov_segments = r.overprov;
	g->user_block_count = (uint64_t)(g->usable_segments - g->overprov_segments) *
			      blks_per_seg;
	return 0;
}

int f2_geometry_compute(const struct f2_geom_params *p, struct f2_geom *g,
			const char **why)
{
	uint32_t segs_per_zone;
	int err;

	memset(g, 0, sizeof(*g));
	err = check_params(p, why);
	if (err)
		return err;
	g->log_sectorsize = ilog2(p->sector_size);
	g->log_sectors_per_block = ilog2(F2_BLKSIZE / p->sector_size);
	g->segs_per_sec = p->segs_per_sec;
	g->secs_per_zone = p->secs_per_zone;
	segs_per_zone = p->segs_per_sec * p->secs_per_zone;

	err = place_devices(p, g, segs_per_zone, why);
	if (!err)
		err = place_meta(p, g, segs_per_zone, why);
	if (!err)
		err = count_space(p, g, why);
	if (err)
		return err;
	place_logs(p, g, segs_per_zone);
	return 0;
}
