// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_zoned.c - zone-list checks and counts (f2_zones_summarize) on
 * synthetic zone lists, and the layout of zoned volumes: sections of one
 * zone, metadata outside sequential zones, usable segments below zone
 * capacities and the reserve computed from them.
 */
#include <stdlib.h>
#include "f2/errors.h"
#include "f2/format.h"
#include "f2/geometry.h"
#include "f2/zoned.h"
#include "unit.h"

#define MIB_SECT(n)	((uint64_t)(n) << 11)	/* MiB in 512-byte sectors */

/* n zones of zone_mib MiB, the first nconv conventional, the others
 * sequential-write-required with capacity cap_sect sectors. */
static void make_list(struct f2_zone_list *zl, uint32_t n, uint32_t nconv,
		      uint64_t zone_mib, uint64_t cap_sect)
{
	zl->model = F2_ZONED_HM;
	zl->zone_sectors = MIB_SECT(zone_mib);
	zl->nr_zones = n;
	zl->zones = calloc(n, sizeof(*zl->zones));
	for (uint32_t i = 0; i < n; i++) {
		struct f2_zone *z = &zl->zones[i];

		z->start = i * zl->zone_sectors;
		z->len = zl->zone_sectors;
		z->type = i < nconv ? F2_ZONE_CONV : F2_ZONE_SEQ_REQ;
		z->cond = i < nconv ? F2_ZCOND_NOT_WP : F2_ZCOND_EMPTY;
		z->cap = i < nconv ? z->len : cap_sect;
		z->wp = z->start;
	}
}

static void summaries(void)
{
	struct f2_zone_list zl;
	struct f2_zone_summary s;
	char why[160];

	/* 4 conventional + 12 sequential zones of 64 MiB, capacity 48 MiB */
	make_list(&zl, 16, 4, 64, MIB_SECT(48));
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), 0);
	CHECK_EQ(s.zone_blocks, 16384);
	CHECK_EQ(s.nr_zones, 16);
	CHECK_EQ(s.nr_rnd_zones, 4);
	CHECK_EQ(s.nr_conv_zones, 4);
	CHECK_EQ(s.usable_segs, 4 * 32 + 12 * 24);
	CHECK_EQ(s.cap_smaller, 1);

	/* a capacity that ends inside a segment counts that segment */
	for (uint32_t i = 4; i < 16; i++)
		zl.zones[i].cap = MIB_SECT(47) + 8;
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), 0);
	CHECK_EQ(s.usable_segs, 4 * 32 + 12 * 24);

	/* full capacity, a conventional zone later in the device does not
	 * count as leading; a read-only zone ends the leading run */
	for (uint32_t i = 4; i < 16; i++)
		zl.zones[i].cap = zl.zones[i].len;
	zl.zones[10].type = F2_ZONE_CONV;
	zl.zones[1].cond = F2_ZCOND_READONLY;
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), 0);
	CHECK_EQ(s.nr_rnd_zones, 1);
	CHECK_EQ(s.nr_conv_zones, 5);
	CHECK_EQ(s.usable_segs, 16 * 32);
	CHECK_EQ(s.cap_smaller, 0);
	zl.zones[1].cond = F2_ZCOND_NOT_WP;

	/* a shorter last zone is allowed, a shorter middle one is not */
	zl.zones[15].len /= 2;
	zl.zones[15].cap = zl.zones[15].len;
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), 0);
	CHECK_EQ(s.usable_segs, 15 * 32 + 16);
	zl.zones[7].len /= 2;
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), F2_ECORRUPT);
	zl.zones[7].len *= 2;
	/* a gap in the tiling */
	zl.zones[8].start += 8;
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), F2_ECORRUPT);
	zl.zones[8].start -= 8;
	/* capacity beyond the zone */
	zl.zones[9].cap = zl.zones[9].len + 8;
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), F2_ECORRUPT);
	zl.zones[9].cap = zl.zones[9].len;
	/* unknown zone type */
	zl.zones[9].type = 7;
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), F2_EUNSUPP);
	zl.zones[9].type = F2_ZONE_SEQ_REQ;
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), 0);
	/* zone sizes f2fs cannot use: not a power of two, below a segment */
	zl.zone_sectors = MIB_SECT(48);
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), F2_EUNSUPP);
	zl.zone_sectors = MIB_SECT(1);
	CHECK_EQ(f2_zones_summarize(&zl, &s, why, sizeof(why)), F2_EUNSUPP);
	f2_zone_list_free(&zl);
	CHECK(zl.zones == NULL);
}

/* A regular first device of dev0_mib and a host-managed second device of
 * nzones zones of 64 MiB, capacity cap_mib. */
static int two_devs(uint64_t dev0_mib, uint32_t nzones, uint32_t cap_mib, struct f2_geom *g,
		    const char **why)
{
	struct f2_geom_params p = { .sector_size = 512, .ndevs = 2, .segs_per_sec = 32,
		.secs_per_zone = 1, .zoned = 1 };
	struct f2_zone_list zl;
	struct f2_zone_summary s;
	int err;

	make_list(&zl, nzones, 0, 64, MIB_SECT(cap_mib));
	err = f2_zones_summarize(&zl, &s, NULL, 0);
	f2_zone_list_free(&zl);
	if (err)
		return err;
	p.devs[0].total_sectors = MIB_SECT(dev0_mib);
	p.devs[1].total_sectors = (uint64_t)nzones * MIB_SECT(64);
	p.devs[1].zoned = p.devs[1].host_managed = 1;
	p.devs[1].zone_usable_segs = s.usable_segs;
	return f2_geometry_compute(&p, g, why);
}

static void check_reserve(const struct f2_geom *g)
{
	uint32_t per_sec = (g->usable_segments + g->section_count - 1) / g->section_count;
	uint32_t rsvd = (uint32_t)((2 * (100 / g->overprovision + 1) + F2_NR_CURSEG) * per_sec);

	CHECK_EQ(g->reserved_segments, rsvd);
	CHECK_EQ(g->overprov_segments, (uint32_t)((g->usable_segments - rsvd) *
						  g->overprovision / 100) + rsvd);
	CHECK_EQ(g->user_block_count, (uint64_t)(g->usable_segments -
						 g->overprov_segments) * 512);
}

static void layouts(void)
{
	struct f2_geom g;
	const char *why = NULL;

	/* 256 MiB regular + 4 GiB zoned, full capacity */
	CHECK_EQ(two_devs(256, 64, 64, &g, &why), 0);
	CHECK_EQ(g.segs_per_sec, 32);
	CHECK_EQ(g.secs_per_zone, 1);
	CHECK_EQ(g.segment0_blkaddr, 16384);
	CHECK_EQ(g.dev_total_segments[0], 96);
	CHECK_EQ(g.dev_total_segments[1], 2048);
	CHECK_EQ(g.dev_start_blkaddr[1], 65536);
	CHECK_EQ(g.segment_count, 2144);
	CHECK_EQ(g.main_blkaddr, 32768);
	CHECK_EQ(g.section_count, 66);
	CHECK_EQ(g.segment_count_main, 2112);
	CHECK_EQ(g.usable_segments, 2112);
	/* sections start on zone boundaries of the zoned device */
	CHECK_EQ((g.dev_start_blkaddr[1] - g.segment0_blkaddr) % 16384, 0);
	/* logs in consecutive sections: node logs, then hot, warm, cold data */
	CHECK_EQ(g.cur_seg[F2_CURSEG_HOT_NODE], 0);
	CHECK_EQ(g.cur_seg[F2_CURSEG_WARM_NODE], 32);
	CHECK_EQ(g.cur_seg[F2_CURSEG_COLD_NODE], 64);
	CHECK_EQ(g.cur_seg[F2_CURSEG_HOT_DATA], 96);
	CHECK_EQ(g.cur_seg[F2_CURSEG_WARM_DATA], 128);
	CHECK_EQ(g.cur_seg[F2_CURSEG_COLD_DATA], 160);
	check_reserve(&g);

	/* the same with zone capacity 48 MiB: 24 of 32 segments usable */
	CHECK_EQ(two_devs(256, 64, 48, &g, &why), 0);
	CHECK_EQ(g.segment_count_main, 2112);
	CHECK_EQ(g.usable_segments, 96 + 64 * 24 - 32);
	check_reserve(&g);

	/* a first device of one zone cannot hold the metadata */
	why = NULL;
	CHECK_EQ(two_devs(64, 64, 64, &g, &why), F2_ETOOSMALL);
	CHECK(why != NULL);
	/* a first device that is not a whole number of zones: segment0 moves
	 * so that sections stay aligned to the zones of the second device */
	CHECK_EQ(two_devs(300, 64, 64, &g, &why), 0);
	CHECK_EQ(g.segment0_blkaddr, (64 + 300 % 64) * 256);
	CHECK_EQ((g.dev_start_blkaddr[1] - g.segment0_blkaddr) % 16384, 0);
	CHECK_EQ(g.main_blkaddr % 16384, g.segment0_blkaddr % 16384);
	/* 1 GiB of 64 MiB zones is too small for the reserve of such sections */
	CHECK(two_devs(256, 16, 64, &g, &why) != 0);
}

static void single_hm(void)
{
	struct f2_geom_params p = { .sector_size = 512, .ndevs = 1, .segs_per_sec = 32,
		.secs_per_zone = 1, .zoned = 1 };
	struct f2_geom g;

	p.devs[0].total_sectors = MIB_SECT(4096);
	p.devs[0].zoned = p.devs[0].host_managed = 1;
	p.devs[0].zone_usable_segs = 2048;
	/* superblock zone + one metadata zone: two conventional zones suffice */
	p.devs[0].nr_rnd_zones = 2;
	CHECK_EQ(f2_geometry_compute(&p, &g, NULL), 0);
	CHECK_EQ(g.main_blkaddr, 32768);
	p.devs[0].nr_rnd_zones = 1;
	CHECK_EQ(f2_geometry_compute(&p, &g, NULL), F2_ETOOSMALL);
}

int main(void)
{
	summaries();
	layouts();
	single_hm();
	UNIT_DONE();
}
