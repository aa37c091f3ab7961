// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc/predict.c - what cleaning a list of victims leaves (f2_gc_predict):
 * the run replayed on counts, without reading a block.  Data blocks go
 * to the cold data log and node blocks (at the checkpoints, when the
 * engine writes them back) to the node log of their segment's type; each
 * log first fills what is left of its segment, then takes a free section
 * (LFS) or, when the allocation mode asks for SSR (auto: the driver's
 * need_SSR on the free sections, a dirty node section while data moved
 * since the last checkpoint, and the reserved sections), the partly valid
 * segment the engine would take (engine/ssr.c: fewest valid blocks of the
 * log's type, then of the others of its class; never a victim or a
 * current section).  Checkpoints come where gc.f2fs puts them: every
 * cp_every victims, before a victim the free segments cannot take, and
 * at the end; each frees the victims cleaned before it and gives every
 * full log its next segment.  A log the checkpoint left in SSR mode goes
 * on filling its segment, except under LFS, where the engine gives it a
 * free one at the first checkpoint.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/engine.h"
#include "f2/gc.h"

struct slog {
	uint32_t segno;		/* F2_NULL_SEGNO: none */
	uint32_t room;		/* blocks it can still take in segno */
	uint32_t sec_left;	/* free segments after segno in its fresh section */
	uint32_t added;		/* blocks written into its first segment */
	uint8_t ssr, fresh, left_first;
};

struct sim {
	const struct f2_gc_map *m;
	const struct f2_gc_target *t;
	struct f2_gc_plan *p;
	uint8_t *avoid;		/* per section: a victim */
	uint32_t *cand;		/* SSR candidates, by type then (valid, segno) */
	uint32_t nc, pos[F2_NR_CURSEG], end[F2_NR_CURSEG];
	uint32_t late[F2_NR_CURSEG], late_valid[F2_NR_CURSEG], nlate;	/* first segments left */
	int late_type[F2_NR_CURSEG];
	uint8_t *used;		/* per segment: an SSR target already */
	uint32_t *sec_add;	/* per section: blocks SSR wrote */
	struct slog log[F2_NR_CURSEG];
	int64_t free_secs, free_segs;
	uint64_t fresh_blocks;
	int dirty;		/* data moved since the last checkpoint */
};

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cur_section(const struct sim *s, uint32_t segno)
{
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (s->log[t].segno != F2_NULL_SEGNO &&
		    s->log[t].segno / s->m->segs_per_sec == segno / s->m->segs_per_sec)
			return 1;
	return 0;
}

/* The engine's choice among segments of SIT type type: the fewest valid
 * blocks, ties to the lower segment; F2_NULL_SEGNO if none.  A segment
 * taken once is used up (its log leaves it full). */
static uint32_t best_of_type(struct sim *s, int type, uint32_t *valid)
{
	const struct f2_gc_map *m = s->m;
	uint32_t best = F2_NULL_SEGNO, bv = F2_BLKS_PER_SEG;

	for (uint32_t k = s->pos[type]; k < s->end[type]; k++) {
		uint32_t seg = s->cand[k];

		if (s->used[seg] || f2_test_bit_lsb(s->avoid, seg / m->segs_per_sec) ||
		    cur_section(s, seg))
			continue;
		best = seg;
		bv = m->seg_valid[seg];
		break;
	}
	for (uint32_t k = 0; k < s->nlate; k++) {
		uint32_t seg = s->late[k], lv = s->late_valid[k];

		if (s->late_type[k] != type || s->used[seg] || !lv || lv >= F2_BLKS_PER_SEG ||
		    f2_test_bit_lsb(s->avoid, seg / m->segs_per_sec) || cur_section(s, seg))
			continue;
		if (lv < bv || (lv == bv && seg < best)) {
			best = seg;
			bv = lv;
		}
	}
	*valid = bv;
	return best;
}

/* The segment the engine's SSR would give log t (engine/ssr.c's order). */
static uint32_t ssr_pick(struct sim *s, int t, uint32_t *valid)
{
	int first = t >= F2_CURSEG_HOT_NODE ? F2_CURSEG_HOT_NODE : F2_CURSEG_HOT_DATA;
	int order[3], n = 0;

	order[n++] = t;
	for (int k = 0; k < 3; k++) {
		int u = t - first >= 1 ? first + 2 - k : first + k;

		if (u != t)
			order[n++] = u;
	}
	for (int k = 0; k < n; k++) {
		uint32_t seg = best_of_type(s, order[k], valid);

		if (seg != F2_NULL_SEGNO) {
			s->used[seg] = 1;
			return seg;
		}
	}
	return F2_NULL_SEGNO;
}

static int want_ssr(const struct sim *s)
{
	if (s->m->lfs_only)
		return 0;
	if (s->t->alloc == F2_ALLOC_SSR)
		return 1;
	if (s->t->alloc != F2_ALLOC_AUTO)
		return 0;
	return s->free_secs <= (int64_t)(s->dirty ? 1 : 0) + 2 * (int64_t)s->m->rsvd_secs;
}

/* Log t needs a new segment. */
static void next_segment(struct sim *s, int t)
{
	struct slog *l = &s->log[t];
	uint32_t seg, valid;

	/* a log leaving an SSR segment leaves it without a free slot */
	if (!l->left_first && l->segno < s->m->nsegs && !l->ssr) {
		l->left_first = 1;
		s->late[s->nlate] = l->segno;
		s->late_type[s->nlate] = t;
		s->late_valid[s->nlate++] = s->m->seg_valid[l->segno] + l->added;
	}
	if (want_ssr(s) && (seg = ssr_pick(s, t, &valid)) != F2_NULL_SEGNO) {
		l->segno = seg;
		l->room = F2_BLKS_PER_SEG - valid;
		l->ssr = 1;
		l->fresh = 0;
		s->p->ssr_segs++;
		return;
	}
	l->ssr = 0;
	l->room = F2_BLKS_PER_SEG;
	s->free_segs--;
	if (l->fresh && l->sec_left) {
		l->sec_left--;
		l->segno++;
		return;
	}
	s->free_secs--;
	s->p->secs_filled++;
	l->fresh = 1;
	l->sec_left = s->m->segs_per_sec - 1;
	/* somewhere free: never a candidate, never a current section of the map */
	l->segno = F2_NULL_SEGNO - 1 - (uint32_t)t;
}

static void place(struct sim *s, int t, uint64_t n)
{
	struct slog *l = &s->log[t];

	while (n) {
		uint64_t take;

		if (!l->room)
			next_segment(s, t);
		take = n < l->room ? n : l->room;
		l->room -= (uint32_t)take;
		n -= take;
		if (l->ssr) {
			s->p->ssr_blocks += take;
			if (l->segno < s->m->nsegs)
				s->sec_add[l->segno / s->m->segs_per_sec] += (uint32_t)take;
		} else if (l->fresh) {
			s->fresh_blocks += take;
		} else {
			l->added += (uint32_t)take;
		}
	}
}

/* A checkpoint after victims [from, to): node blocks written back, full
 * logs rolled, the victims freed. */
static void checkpoint(struct sim *s, uint32_t from, uint32_t to,
		       const uint64_t pend[F2_NR_CURSEG])
{
	for (int t = F2_CURSEG_HOT_NODE; t < F2_NR_CURSEG; t++)
		place(s, t, pend[t]);
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (!s->log[t].room)
			next_segment(s, t);
	s->free_secs += to - from;
	s->free_segs += (int64_t)(to - from) * s->m->segs_per_sec;
	s->dirty = 0;
}

static int sim_init(struct sim *s, const struct f2_gc_map *m, const struct f2_gc_target *t,
		    const struct f2_gc_victim *v, uint32_t n, struct f2_gc_plan *p)
{
	uint64_t *keys;

	memset(s, 0, sizeof(*s));
	s->m = m;
	s->t = t;
	s->p = p;
	s->avoid = calloc(m->nsecs / 8 + 1, 1);
	s->cand = malloc((m->nsegs + 1) * sizeof(*s->cand));
	s->sec_add = calloc(m->nsecs + 1, sizeof(*s->sec_add));
	s->used = calloc(m->nsegs + 1, 1);
	if (!s->avoid || !s->cand || !s->sec_add || !s->used)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		f2_set_bit_lsb(s->avoid, v[i].secno);
	for (int k = 0; k < F2_NR_CURSEG; k++) {
		struct slog *l = &s->log[k];

		l->segno = m->log[k].segno;
		l->ssr = m->log[k].ssr && t->alloc != F2_ALLOC_LFS && !m->lfs_only;
		if (m->log[k].ssr)
			l->room = l->ssr ? m->log[k].ssr_room : 0;
		else
			l->room = m->log[k].blkoff < F2_BLKS_PER_SEG ?
				  F2_BLKS_PER_SEG - m->log[k].blkoff : 0;
	}
	keys = malloc((m->nsegs + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	/* by type, then valid blocks, then segment */
	for (uint32_t seg = 0; seg < m->nsegs; seg++)
		if (m->seg_valid[seg] && m->seg_valid[seg] < F2_BLKS_PER_SEG &&
		    m->seg_type[seg] < F2_NR_CURSEG && !cur_section(s, seg))
			keys[s->nc++] = (uint64_t)m->seg_type[seg] << 48 |
					(uint64_t)m->seg_valid[seg] << 32 | seg;
	qsort(keys, s->nc, sizeof(*keys), u64_cmp);
	for (uint32_t i = 0; i < s->nc; i++)
		s->cand[i] = (uint32_t)keys[i];
	free(keys);
	for (uint32_t i = 0; i < s->nc; i++) {
		int ty = m->seg_type[s->cand[i]];

		if (!s->end[ty])
			s->pos[ty] = i;
		s->end[ty] = i + 1;
	}
	s->free_secs = p->free_before;
	s->free_segs = m->free_segs;
	return 0;
}

static void sim_free(struct sim *s)
{
	free(s->avoid);
	free(s->cand);
	free(s->sec_add);
	free(s->used);
}

/* hist_after: victims free, SSR targets with what they took, the fresh
 * sections full but the last, which holds the rest. */
static void hist_after(struct sim *s, const struct f2_gc_victim *v, uint32_t n)
{
	const struct f2_gc_map *m = s->m;
	struct f2_gc_plan *p = s->p;
	uint32_t bps = m->blocks_per_sec;
	uint64_t rest = s->fresh_blocks;

	memcpy(p->hist_after, p->hist_before, sizeof(p->hist_after));
	for (uint32_t i = 0; i < n; i++) {
		p->hist_after[f2_gc_hist_bucket(v[i].valid, bps)]--;
		p->hist_after[0]++;
	}
	for (uint32_t sec = 0; sec < m->nsecs; sec++) {
		uint32_t add = s->sec_add[sec], old = m->secs[sec].valid;

		if (!add || m->secs[sec].state == F2_GC_SEC_CURRENT)
			continue;
		p->hist_after[f2_gc_hist_bucket(old, bps)]--;
		p->hist_after[f2_gc_hist_bucket(old + add > bps ? bps : old + add, bps)]++;
	}
	for (uint32_t k = 0; k < p->secs_filled; k++) {
		uint64_t b = rest > bps ? bps : rest;

		rest -= b;
		p->hist_after[0]--;
		p->hist_after[f2_gc_hist_bucket(b ? (uint32_t)b : 1, bps)]++;
	}
}

int f2_gc_predict(const struct f2_gc_map *m, const struct f2_gc_target *t,
		  const struct f2_gc_victim *v, uint32_t n, struct f2_gc_plan *p, uint32_t *done)
{
	uint32_t every = t->cp_every ? t->cp_every : F2_GC_CP_EVERY, since = 0, last_cp = 0, i;
	uint64_t pend[F2_NR_CURSEG] = { 0 };
	struct sim s;
	int err = sim_init(&s, m, t, v, n, p);

	p->secs_filled = p->ssr_segs = 0;
	p->ssr_blocks = p->blocks_moved = p->node_blocks_moved = 0;
	if (err) {
		sim_free(&s);
		return err;
	}
	for (i = 0; i < n; i++) {
		const struct f2_gc_sec *sec = &m->secs[v[i].secno];
		uint64_t need = (v[i].valid + F2_BLKS_PER_SEG - 1) / F2_BLKS_PER_SEG +
				2ull * m->segs_per_sec;
		uint64_t data = 0;

		if (s.free_segs < (int64_t)need && since) {
			checkpoint(&s, last_cp, i, pend);
			memset(pend, 0, sizeof(pend));
			last_cp = i;
			since = 0;
		}
		if (s.free_segs < (int64_t)need)
			break;
		for (uint32_t k = 0; k < m->segs_per_sec; k++) {
			uint32_t seg = v[i].secno * m->segs_per_sec + k;
			uint8_t ty = m->seg_type[seg];

			if (ty >= F2_CURSEG_HOT_NODE && ty < F2_NR_CURSEG)
				pend[ty] += m->seg_valid[seg];
			else
				data += m->seg_valid[seg];
		}
		/* the first block moved turns its owner node dirty after it
		 * has its new address; need_SSR counts that node from then */
		if (data) {
			place(&s, F2_CURSEG_COLD_DATA, 1);
			s.dirty = 1;
			place(&s, F2_CURSEG_COLD_DATA, data - 1);
		}
		p->blocks_moved += sec->valid;
		p->node_blocks_moved += sec->valid_node;
		since++;
		if (since >= every && i + 1 < n) {
			checkpoint(&s, last_cp, i + 1, pend);
			memset(pend, 0, sizeof(pend));
			last_cp = i + 1;
			since = 0;
		}
	}
	if (i)
		checkpoint(&s, last_cp, i, pend);
	p->free_after = s.free_secs < 0 ? 0 : (uint32_t)s.free_secs;
	hist_after(&s, v, i);
	if (done)
		*done = i;
	sim_free(&s);
	return 0;
}
