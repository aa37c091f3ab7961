/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/geometry.h - where every area of a new file system goes.
 *
 * f2_geometry_compute() is a pure function: from device sizes and tuning
 * options it derives the superblock's layout fields, the checkpoint's
 * reserved/overprovision accounting and the initial current segments,
 * exactly as the reference mkfs.f2fs 1.15 lays them out.
 */
#ifndef F2_GEOMETRY_H
#define F2_GEOMETRY_H
#include <stdint.h>
#include "f2/format.h"

struct f2_geom_device {
	uint64_t total_sectors;		/* in units of sector_size */
	uint32_t nr_rnd_zones;		/* zoned: conventional zones at the start */
	int zoned;			/* host-aware or host-managed device */
	int host_managed;		/* zoned: sequential-write-required zones */
	uint64_t zone_usable_segs;	/* host-managed: segments starting below
					 * each zone's capacity, summed over zones */
};

struct f2_geom_params {
	uint32_t sector_size;		/* logical sector size: 512 .. 4096 */
	uint64_t start_sector;		/* partition start in 512-byte sectors */
	uint32_t ndevs;			/* 1 .. F2_MAX_DEVICES */
	struct f2_geom_device devs[F2_MAX_DEVICES];
	uint32_t segs_per_sec;		/* -s, >= 1 */
	uint32_t secs_per_zone;		/* -z, >= 1 */
	double overprovision;		/* -o percent; 0 picks the best */
	uint32_t features;		/* F2_FEAT_* */
	int large_nat_bitmap;		/* -i */
	int heap;			/* -a 1: heap-style log placement */
	int zoned;			/* -m */
};

struct f2_geom {
	uint32_t log_sectorsize, log_sectors_per_block;
	uint32_t segs_per_sec, secs_per_zone;
	uint64_t block_count;
	uint32_t section_count, segment_count;
	uint32_t segment_count_ckpt, segment_count_sit, segment_count_nat;
	uint32_t segment_count_ssa, segment_count_main;
	uint32_t segment0_blkaddr, cp_blkaddr, sit_blkaddr, nat_blkaddr;
	uint32_t ssa_blkaddr, main_blkaddr;
	uint32_t cp_payload;
	uint32_t dev_total_segments[F2_MAX_DEVICES];
	uint64_t dev_start_blkaddr[F2_MAX_DEVICES];
	uint64_t dev_end_blkaddr[F2_MAX_DEVICES];
	uint32_t total_zones;		/* zones in the main area */
	double overprovision;		/* the ratio used, percent */
	uint32_t reserved_segments;
	uint32_t overprov_segments;	/* includes reserved, as in the cp */
	uint32_t usable_segments;	/* main segments data can be written to:
					 * below zone capacities; as the reference
					 * counts them (whole devices, see .c) */
	uint64_t user_block_count;
	uint32_t sit_bitmap_bytes;	/* one copy's version bitmap in the cp */
	uint32_t nat_bitmap_bytes;
	uint32_t cur_seg[F2_NR_CURSEG];	/* main-area segno, by enum f2_curseg */
};

/*
 * Fill *g.  Returns 0, F2_EBADOPT for inconsistent parameters,
 * F2_ETOOSMALL when the devices cannot hold a file system with these
 * options, F2_ETOOBIG beyond the 32-bit block address space.
 * On failure *why (if not NULL) gets a short explanation.
 */
int f2_geometry_compute(const struct f2_geom_params *p, struct f2_geom *g,
			const char **why);

/* The GC reserve and overprovision of a main area. */
struct f2_reserve {
	double ratio;			/* overprovision percent used */
	uint32_t reserved;		/* the checkpoint's rsvd_segment_count */
	uint32_t overprov;		/* overprov_segment_count (includes reserved) */
};
/*
 * What mkfs gives a main area of main_segs segments in sections sections,
 * usable of them writable (below zone capacities): at ratio percent, or
 * the ratio leaving users the most space when ratio is 0.  Used by
 * f2_geometry_compute() and by fsck to rebuild a damaged checkpoint's
 * counts.  0, or F2_ETOOSMALL with *why (if not NULL) set.
 */
int f2_geometry_reserve(uint32_t main_segs, uint32_t usable, uint32_t sections, double ratio,
			struct f2_reserve *r, const char **why);
#endif
