// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_geometry.c - layout for known sizes (values read from images made
 * by f2fs-tools 1.15 mkfs), invariants over many sizes, and errors.
 */
#include "f2/errors.h"
#include "f2/geometry.h"
#include "unit.h"

static int compute(uint64_t bytes, uint32_t spsec, uint32_t spz, double ovp,
		   struct f2_geom *g)
{
	struct f2_geom_params p = { .sector_size = 512, .ndevs = 1,
		.segs_per_sec = spsec, .secs_per_zone = spz, .overprovision = ovp };

	p.devs[0].total_sectors = bytes / 512;
	return f2_geometry_compute(&p, g, NULL);
}

int main(void)
{
	struct f2_geom g;

	/* 1 GiB defaults */
	CHECK_EQ(compute(1ull << 30, 1, 1, 0, &g), 0);
	CHECK_EQ(g.segment_count, 511);
	CHECK_EQ(g.segment_count_main, 502);
	CHECK_EQ(g.segment_count_sit, 2);
	CHECK_EQ(g.segment_count_nat, 4);
	CHECK_EQ(g.segment_count_ssa, 1);
	CHECK_EQ(g.main_blkaddr, 5120);
	CHECK_EQ(g.nat_blkaddr, 2560);
	CHECK_EQ(g.reserved_segments, 39);
	CHECK_EQ(g.overprov_segments, 68);
	CHECK_EQ(g.user_block_count, 222208);
	CHECK_EQ(g.cur_seg[F2_CURSEG_HOT_DATA], 3);
	CHECK_EQ(g.cur_seg[F2_CURSEG_WARM_DATA], 250);
	CHECK_EQ(g.cur_seg[F2_CURSEG_COLD_DATA], 124);
	/* 64 MiB: small-volume ratio search */
	CHECK_EQ(compute(64ull << 20, 1, 1, 0, &g), 0);
	CHECK_EQ(g.reserved_segments, 13);
	CHECK_EQ(g.overprov_segments, 16);
	/* 64 GiB and 1 TiB */
	CHECK_EQ(compute(64ull << 30, 1, 1, 0, &g), 0);
	CHECK_EQ(g.reserved_segments, 264);
	CHECK_EQ(g.overprov_segments, 516);
	CHECK_EQ(compute(1ull << 40, 1, 1, 0, &g), 0);
	CHECK_EQ(g.reserved_segments, 1007);
	CHECK_EQ(g.overprov_segments, 2051);

	/* invariants over a spread of sizes and section/zone shapes */
	for (uint64_t mb = 40; mb < (1u << 22); mb = mb * 3 / 2 + 7) {
		for (uint32_t s = 1; s <= 4; s *= 2) {
			if (compute(mb << 20, s, s, 0, &g))
				continue;
			uint32_t spz = s * s;
			CHECK(g.main_blkaddr % (spz * 512) == g.segment0_blkaddr % (spz * 512));
			CHECK(g.ssa_blkaddr + g.segment_count_ssa * 512 == g.main_blkaddr);
			CHECK((uint64_t)g.segment_count_ssa * 512 >= g.segment_count_main);
			CHECK((uint64_t)g.segment_count_sit / 2 * 512 * 55 >= g.segment_count);
			CHECK(g.user_block_count < (uint64_t)g.segment_count_main * 512);
			CHECK(g.sit_bitmap_bytes + g.nat_bitmap_bytes <=
			      3900 + g.cp_payload * 4096u);
			for (int i = 0; i < 6; i++) {
				CHECK(g.cur_seg[i] < g.segment_count_main);
				for (int j = i + 1; j < 6; j++)
					CHECK(g.cur_seg[i] != g.cur_seg[j]);
			}
		}
	}

	/* errors, never crashes */
	CHECK_EQ(compute(1 << 20, 1, 1, 0, &g), F2_ETOOSMALL);
	CHECK_EQ(compute(0, 1, 1, 0, &g), F2_ETOOSMALL);
	CHECK_EQ(compute(1ull << 30, 0, 1, 0, &g), F2_EBADOPT);
	CHECK_EQ(compute(1ull << 30, 1, 0, 0, &g), F2_EBADOPT);
	CHECK_EQ(compute(1ull << 30, 1, 1, 100, &g), F2_EBADOPT);
	CHECK_EQ(compute(64ull << 40, 1, 1, 0, &g), F2_ETOOBIG);
	CHECK_EQ(compute(64ull << 20, 512, 1, 0, &g), F2_ETOOSMALL);
	UNIT_DONE();
}
