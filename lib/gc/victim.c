// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc/victim.c - per-section utilisation from the SIT, the greedy and
 * cost-benefit costs of the Linux 6.1 driver, and the planner that orders
 * victims for a target (see f2/gc.h for the formulas).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/gc.h"

void f2_gc_map_free(struct f2_gc_map *m)
{
	free(m->secs);
	free(m->seg_valid);
	free(m->seg_type);
	memset(m, 0, sizeof(*m));
}

int f2_gc_map_build(struct f2_fs *fs, struct f2_gc_map *m)
{
	uint32_t sps = f2_le32(fs->sb.segs_per_sec);
	uint64_t elapsed;

	memset(m, 0, sizeof(*m));
	if (!fs->cp)
		return f2_fs_fail(fs, F2_ENOCP, "cleaning needs a checkpoint");
	if (!sps || sps > fs->main_segs)
		return f2_fs_fail(fs, F2_ECORRUPT, "superblock: segs_per_sec %u with %u main segments",
				  sps, fs->main_segs);
	m->segs_per_sec = sps;
	m->blocks_per_sec = sps * F2_BLKS_PER_SEG;
	m->nsecs = fs->main_segs / sps;
	m->nsegs = fs->main_segs;
	m->rsvd_secs = f2_le32(fs->cp->rsvd_segment_count) / sps;
	m->lfs_only = !!(fs->features & (F2_FEAT_BLKZONED | F2_FEAT_RO));
	m->secs = calloc(m->nsecs ? m->nsecs : 1, sizeof(*m->secs));
	m->seg_valid = calloc(m->nsegs + 1, sizeof(*m->seg_valid));
	m->seg_type = calloc(m->nsegs + 1, 1);
	if (!m->secs || !m->seg_valid || !m->seg_type) {
		f2_gc_map_free(m);
		return -ENOMEM;
	}
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		m->log[t].segno = fs->curseg[t].segno;
		m->log[t].blkoff = fs->curseg[t].blkoff;
		m->log[t].ssr = fs->curseg[t].alloc_type == F2_SSR;
	}
	m->min_mtime = UINT64_MAX;
	m->max_mtime = 0;
	for (uint32_t sec = 0; sec < m->nsecs; sec++) {
		struct f2_gc_sec *s = &m->secs[sec];
		uint64_t msum = 0;
		int current = 0;

		for (uint32_t i = 0; i < sps; i++) {
			uint32_t segno = sec * sps + i;
			struct f2_sit_info si;
			int r = f2_sit_get(fs, segno, &si);

			if (r) {
				f2_gc_map_free(m);
				return r;
			}
			if (si.vblocks > F2_BLKS_PER_SEG) {
				f2_gc_map_free(m);
				return f2_fs_fail(fs, F2_ERANGE, "segno %u: SIT says %u valid blocks (> %u)",
						  segno, si.vblocks, F2_BLKS_PER_SEG);
			}
			s->valid += si.vblocks;
			if (si.type >= F2_CURSEG_HOT_NODE)
				s->valid_node += si.vblocks;
			msum += si.mtime;
			m->seg_valid[segno] = (uint16_t)si.vblocks;
			m->seg_type[segno] = si.type;
			r = f2_curseg_of(fs, segno);
			if (r >= 0)
				current = 1;
			else if (!si.vblocks)
				m->free_segs++;
			for (int t = 0; t < F2_NR_CURSEG; t++) {
				struct f2_gc_log *l = &m->log[t];

				if (l->segno != segno || !l->ssr)
					continue;
				for (uint32_t off = l->blkoff; off < F2_BLKS_PER_SEG; off++)
					l->ssr_room += !f2_test_bit_msb(si.valid_map, off);
			}
		}
		s->mtime = msum / sps;
		if (s->mtime < m->min_mtime)
			m->min_mtime = s->mtime;
		if (s->mtime > m->max_mtime)
			m->max_mtime = s->mtime;
		if (current)
			s->state = F2_GC_SEC_CURRENT;
		else if (!s->valid)
			s->state = F2_GC_SEC_FREE;
		else if (s->valid == m->blocks_per_sec)
			s->state = F2_GC_SEC_FULL;
		else
			s->state = F2_GC_SEC_DIRTY;
		m->count[s->state]++;
		m->valid_blocks += s->valid;
	}
	/* the driver starts max_mtime at the checkpoint's elapsed time */
	elapsed = f2_le64(fs->cp->elapsed_time);
	if (elapsed > m->max_mtime)
		m->max_mtime = elapsed;
	if (m->min_mtime == UINT64_MAX)
		m->min_mtime = 0;
	return 0;
}

uint32_t f2_gc_cost(const struct f2_gc_map *m, uint32_t secno, enum f2_gc_policy policy)
{
	const struct f2_gc_sec *s = &m->secs[secno];
	uint64_t vper, u, age = 0, mtime = s->mtime;

	if (policy == F2_GC_GREEDY)
		return s->valid;
	vper = s->valid / m->segs_per_sec;	/* valid blocks per segment */
	u = (vper * 100) >> F2_LOG_BLKS_PER_SEG;
	if (m->max_mtime != m->min_mtime && mtime >= m->min_mtime && mtime <= m->max_mtime)
		age = 100 - (100 * (mtime - m->min_mtime)) / (m->max_mtime - m->min_mtime);
	return UINT32_MAX - (uint32_t)((100 * (100 - u) * age) / (100 + u));
}

unsigned f2_gc_hist_bucket(uint32_t valid, uint32_t blocks_per_sec)
{
	if (!valid)
		return 0;
	if (valid >= blocks_per_sec)
		return F2_GC_HIST - 1;
	/* (0,10%] -> 1, (10,20%] -> 2, ..., (90,100%) -> 10 */
	return (unsigned)(((uint64_t)valid * 10 + blocks_per_sec - 1) / blocks_per_sec);
}

struct cand {
	uint32_t cost, secno;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	return x->secno < y->secno ? -1 : x->secno > y->secno;
}

void f2_gc_plan_free(struct f2_gc_plan *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* Predicted state after cleaning the first k candidates that move `moved`. */
static uint32_t filled_secs(uint64_t moved, uint32_t bps)
{
	return (uint32_t)((moved + bps - 1) / bps);
}

static int target_met(const struct f2_gc_map *m, const struct f2_gc_target *t,
		      uint32_t free_now)
{
	int any = 0;

	if (t->free_secs) {
		any = 1;
		if (free_now < t->free_secs)
			return 0;
	}
	if (t->util_set) {
		uint64_t used = m->nsecs > free_now ? m->nsecs - free_now : 0;

		any = 1;
		/* average utilisation of the sections in use, in percent */
		if (used && m->valid_blocks * 100 < (uint64_t)t->util_pct * used * m->blocks_per_sec)
			return 0;
	}
	return any;
}

/* Predict the first k candidates of c into p (victims filled); *done gets
 * how many the run would clean. */
static int try_k(const struct f2_gc_map *m, const struct f2_gc_target *t, const struct cand *c,
		 uint32_t k, struct f2_gc_plan *p, uint32_t *done)
{
	for (uint32_t i = 0; i < k; i++) {
		p->v[i].secno = c[i].secno;
		p->v[i].valid = m->secs[c[i].secno].valid;
		p->v[i].cost = c[i].cost;
	}
	p->nvictims = k;
	if (!k) {
		p->free_after = p->free_before;
		p->secs_filled = p->ssr_segs = 0;
		p->ssr_blocks = p->blocks_moved = p->node_blocks_moved = 0;
		memcpy(p->hist_after, p->hist_before, sizeof(p->hist_after));
		*done = 0;
		return 0;
	}
	return f2_gc_predict(m, t, p->v, k, p, done);
}

int f2_gc_plan(const struct f2_gc_map *m, const struct f2_gc_target *t, struct f2_gc_plan *p)
{
	uint32_t nc = 0, bps = m->blocks_per_sec, kmax, k, done = 0;
	uint64_t moved = 0;
	struct cand *c;
	int err;

	memset(p, 0, sizeof(*p));
	c = malloc((m->count[F2_GC_SEC_DIRTY] ? m->count[F2_GC_SEC_DIRTY] : 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (uint32_t s = 0; s < m->nsecs; s++) {
		if (m->secs[s].state != F2_GC_SEC_CURRENT)
			p->hist_before[f2_gc_hist_bucket(m->secs[s].valid, bps)]++;
		if (m->secs[s].state == F2_GC_SEC_DIRTY && nc < m->count[F2_GC_SEC_DIRTY]) {
			c[nc].secno = s;
			c[nc].cost = f2_gc_cost(m, s, t->policy);
			nc++;
		}
	}
	p->free_before = m->count[F2_GC_SEC_FREE];
	qsort(c, nc, sizeof(*c), cand_cmp);
	p->v = malloc((nc ? nc : 1) * sizeof(*p->v));
	if (!p->v) {
		free(c);
		return -ENOMEM;
	}
	kmax = t->max_secs && t->max_secs < nc ? t->max_secs : nc;
	if (!t->free_secs && !t->util_set) {
		/* every candidate (up to max_secs) */
		err = try_k(m, t, c, kmax, p, &done);
		goto out;
	}
	/* a first guess from packing the moved blocks into new sections,
	 * then the prediction decides: the fewest victims that meet the
	 * target, or all that may be taken */
	for (k = 0; k < kmax && !target_met(m, t, (uint32_t)(p->free_before + k -
						 filled_secs(moved, bps))); k++)
		moved += m->secs[c[k].secno].valid;
	err = try_k(m, t, c, k, p, &done);
	while (!err && k < kmax && !target_met(m, t, p->free_after))
		err = try_k(m, t, c, ++k, p, &done);
	while (!err && k > 0) {
		struct f2_gc_plan q = *p;

		err = try_k(m, t, c, k - 1, &q, &done);
		if (err || !target_met(m, t, q.free_after))
			break;
		*p = q;
		k--;
	}
	if (!err)
		err = try_k(m, t, c, k, p, &done);
out:
	/* the rest of the candidates, for a run that falls short */
	for (uint32_t i = done; i < nc; i++) {
		p->v[i].secno = c[i].secno;
		p->v[i].valid = m->secs[c[i].secno].valid;
		p->v[i].cost = c[i].cost;
	}
	p->ncand = nc;
	free(c);
	if (err)
		return err;
	p->nvictims = done;	/* the run stops where free space runs out */
	p->reached = target_met(m, t, p->free_after);
	if (!t->free_secs && !t->util_set)	/* "everything": met when no candidate is left */
		p->reached = p->nvictims == nc;
	return 0;
}
