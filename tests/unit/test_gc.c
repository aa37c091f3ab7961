// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_gc.c - the victim costs and the planner of lib/gc/victim.c on
 * hand-made section maps: greedy and cost-benefit values worked out by
 * hand from the Linux 6.1 formula (age bounds, max == min, sections of
 * several segments), ordering and ties, the three targets, the
 * predicted free sections and the histogram buckets.
 */
#include <stdint.h>
#include "f2/engine.h"
#include "f2/gc.h"
#include "unit.h"

static struct f2_gc_sec secs[8];
static uint16_t seg_valid[32];
static uint8_t seg_type[32];

/* Every log in section 5, with room, but the cold data log's segment
 * full: moved data goes to free sections (reserved sections 0: auto is
 * LFS). */
static void map_init(struct f2_gc_map *m, uint32_t n, uint32_t sps)
{
	memset(m, 0, sizeof(*m));
	memset(secs, 0, sizeof(secs));
	memset(seg_valid, 0, sizeof(seg_valid));
	memset(seg_type, 0, sizeof(seg_type));
	m->nsecs = n;
	m->nsegs = n * sps;
	m->segs_per_sec = sps;
	m->blocks_per_sec = sps * 512;
	m->secs = secs;
	m->seg_valid = seg_valid;
	m->seg_type = seg_type;
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		m->log[t].segno = 5 * sps;
		m->log[t].blkoff = t == F2_CURSEG_COLD_DATA ? 512 : 0;
	}
}

static void set(struct f2_gc_map *m, uint32_t s, uint32_t valid, uint64_t mtime, int state)
{
	secs[s].valid = valid;
	secs[s].mtime = mtime;
	secs[s].state = (uint8_t)state;
	m->count[state]++;
	m->valid_blocks += valid;
	for (uint32_t k = 0; k < m->segs_per_sec; k++) {
		uint32_t v = valid > 512 ? 512 : valid;

		seg_valid[s * m->segs_per_sec + k] = (uint16_t)v;
		seg_type[s * m->segs_per_sec + k] = F2_CURSEG_COLD_DATA;
		valid -= v;
		if (state == F2_GC_SEC_FREE)
			m->free_segs++;
	}
}

int main(void)
{
	struct f2_gc_map m;
	struct f2_gc_plan p;
	struct f2_gc_target t;

	/* histogram buckets */
	CHECK_EQ(f2_gc_hist_bucket(0, 512), 0);
	CHECK_EQ(f2_gc_hist_bucket(1, 512), 1);
	CHECK_EQ(f2_gc_hist_bucket(51, 512), 1);	/* 9.96% */
	CHECK_EQ(f2_gc_hist_bucket(52, 512), 2);	/* 10.2% */
	CHECK_EQ(f2_gc_hist_bucket(511, 512), 10);
	CHECK_EQ(f2_gc_hist_bucket(512, 512), 11);
	CHECK_EQ(f2_gc_hist_bucket(1023, 1024), 10);

	/* cost-benefit: min 100, max 200 */
	map_init(&m, 8, 1);
	m.min_mtime = 100;
	m.max_mtime = 200;
	set(&m, 0, 256, 100, F2_GC_SEC_DIRTY);	/* u 50, age 100 */
	set(&m, 1, 256, 200, F2_GC_SEC_DIRTY);	/* u 50, age 0 */
	set(&m, 2, 100, 150, F2_GC_SEC_DIRTY);	/* u 19, age 50 */
	set(&m, 3, 0, 0, F2_GC_SEC_FREE);
	set(&m, 4, 512, 120, F2_GC_SEC_FULL);
	set(&m, 5, 3, 100, F2_GC_SEC_CURRENT);
	set(&m, 6, 0, 0, F2_GC_SEC_FREE);
	set(&m, 7, 0, 0, F2_GC_SEC_FREE);
	/* 100 * 50 * 100 / 150 = 3333 */
	CHECK_EQ(f2_gc_cost(&m, 0, F2_GC_COST_BENEFIT), UINT32_MAX - 3333);
	CHECK_EQ(f2_gc_cost(&m, 1, F2_GC_COST_BENEFIT), UINT32_MAX);
	/* u = 100 * 100 >> 9 = 19; 100 * 81 * 50 / 119 = 3403 */
	CHECK_EQ(f2_gc_cost(&m, 2, F2_GC_COST_BENEFIT), UINT32_MAX - 3403);
	CHECK_EQ(f2_gc_cost(&m, 2, F2_GC_GREEDY), 100);

	memset(&t, 0, sizeof(t));
	t.policy = F2_GC_COST_BENEFIT;
	t.alloc = F2_ALLOC_LFS;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.nvictims, 3);	/* free, full and current sections are not */
	CHECK_EQ(p.v[0].secno, 2);
	CHECK_EQ(p.v[1].secno, 0);
	CHECK_EQ(p.v[2].secno, 1);
	CHECK_EQ(p.blocks_moved, 612);
	CHECK_EQ(p.secs_filled, 2);
	CHECK_EQ(p.free_before, 3);
	CHECK_EQ(p.free_after, 3 + 3 - 2);
	CHECK(p.reached);
	/* histogram (current section left out): before free 3, 19.5% 1,
	 * 50% 2, full 1; after: free 4, full 1 + 1, the rest (100) 1 */
	CHECK_EQ(p.hist_before[0], 3);
	CHECK_EQ(p.hist_before[2], 1);
	CHECK_EQ(p.hist_before[5], 2);
	CHECK_EQ(p.hist_before[11], 1);
	CHECK_EQ(p.hist_after[0], 4);
	CHECK_EQ(p.hist_after[11], 2);
	CHECK_EQ(p.hist_after[2], 1);
	f2_gc_plan_free(&p);

	/* greedy: fewest valid first, ties by section number */
	t.policy = F2_GC_GREEDY;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.v[0].secno, 2);
	CHECK_EQ(p.v[1].secno, 0);
	CHECK_EQ(p.v[2].secno, 1);
	f2_gc_plan_free(&p);

	/* targets: free sections */
	t.free_secs = 4;
	CHECK(!f2_gc_plan(&m, &t, &p));
	/* after section 2: 3 free + 1 - ceil(100/512) = 3; after section 0:
	 * 3 + 2 - ceil(356/512) = 4: reached */
	CHECK_EQ(p.nvictims, 2);
	CHECK_EQ(p.free_after, 4);
	CHECK(p.reached);
	f2_gc_plan_free(&p);
	t.free_secs = 50;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.nvictims, 3);
	CHECK(!p.reached);
	f2_gc_plan_free(&p);
	/* max sections */
	t.free_secs = 0;
	t.max_secs = 2;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.nvictims, 2);
	CHECK(!p.reached);	/* "every candidate" was the target */
	f2_gc_plan_free(&p);
	/* utilisation: 1127 valid blocks in 5 used sections = 44% */
	CHECK_EQ(m.nsecs - m.count[F2_GC_SEC_FREE], 5);
	t.max_secs = 0;
	t.util_set = 1;
	t.util_pct = 40;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.nvictims, 0);	/* already 1127 / (5 * 512) = 44% */
	CHECK(p.reached);
	f2_gc_plan_free(&p);
	t.util_pct = 55;
	CHECK(!f2_gc_plan(&m, &t, &p));
	/* victims 2, 0: free 3 + 2 - ceil(356/512) = 4, used 4: 55.0% */
	CHECK_EQ(p.nvictims, 2);
	CHECK(p.reached);
	f2_gc_plan_free(&p);

	/* max == min: age 0, every candidate costs UINT32_MAX */
	m.min_mtime = m.max_mtime = 7;
	CHECK_EQ(f2_gc_cost(&m, 0, F2_GC_COST_BENEFIT), UINT32_MAX);

	/* sections of 4 segments: u from the valid blocks per segment */
	map_init(&m, 2, 4);
	m.min_mtime = 0;
	m.max_mtime = 100;
	set(&m, 0, 1024, 0, F2_GC_SEC_DIRTY);	/* 256 per segment: u 50, age 100 */
	CHECK_EQ(f2_gc_cost(&m, 0, F2_GC_COST_BENEFIT), UINT32_MAX - 3333);

	/* SSR: the moved blocks fill the holes of the partly valid segments
	 * that are no victims, fewest valid first, and no section is taken */
	map_init(&m, 8, 1);
	set(&m, 6, 0, 0, F2_GC_SEC_FREE);
	set(&m, 7, 0, 0, F2_GC_SEC_FREE);
	set(&m, 0, 100, 0, F2_GC_SEC_DIRTY);
	set(&m, 1, 300, 0, F2_GC_SEC_DIRTY);
	set(&m, 2, 200, 0, F2_GC_SEC_DIRTY);
	set(&m, 3, 0, 0, F2_GC_SEC_FREE);
	set(&m, 4, 350, 0, F2_GC_SEC_DIRTY);
	set(&m, 5, 3, 0, F2_GC_SEC_CURRENT);
	memset(&t, 0, sizeof(t));
	t.policy = F2_GC_GREEDY;
	t.alloc = F2_ALLOC_SSR;
	t.max_secs = 1;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.nvictims, 1);
	CHECK_EQ(p.v[0].secno, 0);
	/* 100 blocks into section 2 (200 valid, the fewest but the victim) */
	CHECK_EQ(p.ssr_segs, 1);
	CHECK_EQ(p.ssr_blocks, 100);
	CHECK_EQ(p.secs_filled, 0);
	CHECK_EQ(p.free_after, 4);
	f2_gc_plan_free(&p);
	/* two victims (0, 2): 300 blocks, 212 into section 1 and 88 into 4 */
	t.max_secs = 2;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.ssr_segs, 2);
	CHECK_EQ(p.ssr_blocks, 300);
	CHECK_EQ(p.free_after, 5);
	CHECK_EQ(p.hist_after[11], 1);	/* section 1 full */
	f2_gc_plan_free(&p);
	/* LFS on the same: one section taken */
	t.alloc = F2_ALLOC_LFS;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.ssr_segs, 0);
	CHECK_EQ(p.secs_filled, 1);
	CHECK_EQ(p.free_after, 4);
	f2_gc_plan_free(&p);
	/* auto: SSR only when free sections <= dirty nodes + 2 x reserved */
	t.alloc = F2_ALLOC_AUTO;
	m.rsvd_secs = 2;	/* 3 free <= 0 dirty node sections + 4: SSR */
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.secs_filled, 0);
	CHECK_EQ(p.ssr_blocks, 300);
	f2_gc_plan_free(&p);
	m.rsvd_secs = 0;	/* 3 free > 1 + 0: LFS */
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.secs_filled, 1);
	CHECK_EQ(p.ssr_blocks, 0);
	f2_gc_plan_free(&p);
	UNIT_DONE();
}
