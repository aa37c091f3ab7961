// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_gc.c - the victim costs and the planner of lib/gc/victim.c on
 * hand-made section maps: greedy and cost-benefit values worked out by
 * hand from the Linux 6.1 formula (age bounds, max == min, sections of
 * several segments), ordering and ties, the three targets, the
 * predicted free sections and the histogram buckets.
 */
#include <stdint.h>
#include "f2/gc.h"
#include "unit.h"

static struct f2_gc_sec secs[8];

static void map_init(struct f2_gc_map *m, uint32_t n, uint32_t sps)
{
	memset(m, 0, sizeof(*m));
	memset(secs, 0, sizeof(secs));
	m->nsecs = n;
	m->segs_per_sec = sps;
	m->blocks_per_sec = sps * 512;
	m->secs = secs;
}

static void set(struct f2_gc_map *m, uint32_t s, uint32_t valid, uint64_t mtime, int state)
{
	secs[s].valid = valid;
	secs[s].mtime = mtime;
	secs[s].state = (uint8_t)state;
	m->count[state]++;
	m->valid_blocks += valid;
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
	map_init(&m, 6, 1);
	m.min_mtime = 100;
	m.max_mtime = 200;
	set(&m, 0, 256, 100, F2_GC_SEC_DIRTY);	/* u 50, age 100 */
	set(&m, 1, 256, 200, F2_GC_SEC_DIRTY);	/* u 50, age 0 */
	set(&m, 2, 100, 150, F2_GC_SEC_DIRTY);	/* u 19, age 50 */
	set(&m, 3, 0, 0, F2_GC_SEC_FREE);
	set(&m, 4, 512, 120, F2_GC_SEC_FULL);
	set(&m, 5, 3, 100, F2_GC_SEC_CURRENT);
	/* 100 * 50 * 100 / 150 = 3333 */
	CHECK_EQ(f2_gc_cost(&m, 0, F2_GC_COST_BENEFIT), UINT32_MAX - 3333);
	CHECK_EQ(f2_gc_cost(&m, 1, F2_GC_COST_BENEFIT), UINT32_MAX);
	/* u = 100 * 100 >> 9 = 19; 100 * 81 * 50 / 119 = 3403 */
	CHECK_EQ(f2_gc_cost(&m, 2, F2_GC_COST_BENEFIT), UINT32_MAX - 3403);
	CHECK_EQ(f2_gc_cost(&m, 2, F2_GC_GREEDY), 100);

	memset(&t, 0, sizeof(t));
	t.policy = F2_GC_COST_BENEFIT;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.nvictims, 3);	/* free, full and current sections are not */
	CHECK_EQ(p.v[0].secno, 2);
	CHECK_EQ(p.v[1].secno, 0);
	CHECK_EQ(p.v[2].secno, 1);
	CHECK_EQ(p.blocks_moved, 612);
	CHECK_EQ(p.secs_filled, 2);
	CHECK_EQ(p.free_before, 1);
	CHECK_EQ(p.free_after, 1 + 3 - 2);
	CHECK(p.reached);
	/* histogram (current section left out): before free 1, 19.5% 1,
	 * 50% 2, full 1; after: free 2, full 1 + 1, the rest (100) 1 */
	CHECK_EQ(p.hist_before[0], 1);
	CHECK_EQ(p.hist_before[2], 1);
	CHECK_EQ(p.hist_before[5], 2);
	CHECK_EQ(p.hist_before[11], 1);
	CHECK_EQ(p.hist_after[0], 2);
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
	t.free_secs = 2;
	CHECK(!f2_gc_plan(&m, &t, &p));
	/* after section 2: 1 free + 1 - ceil(100/512) = 1; after section 0:
	 * 1 + 2 - ceil(356/512) = 2: reached */
	CHECK_EQ(p.nvictims, 2);
	CHECK_EQ(p.free_after, 2);
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
	t.max_secs = 0;
	t.util_set = 1;
	t.util_pct = 40;
	CHECK(!f2_gc_plan(&m, &t, &p));
	CHECK_EQ(p.nvictims, 0);	/* already 1127 / (5 * 512) = 44% */
	CHECK(p.reached);
	f2_gc_plan_free(&p);
	t.util_pct = 55;
	CHECK(!f2_gc_plan(&m, &t, &p));
	/* victims 2, 0: free 1 + 2 - ceil(356/512) = 2, used 4: 55.0% */
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
	UNIT_DONE();
}
