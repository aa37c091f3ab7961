// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/ssr.c - slack space recycling (f2/engine.h): when a log should
 * take a partly valid segment instead of a free one (the Linux 6.1
 * driver's need_SSR), which one (its get_ssr_segment: the victim search
 * in SSR mode, greedy on the blocks valid at the last checkpoint), and
 * which of its slots may be written (free now and at the last checkpoint).
 * The per-segment state kept here is the valid count and type the last
 * checkpoint recorded (3 bytes a segment); segments the engine has
 * touched are read from its SIT entries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "internal.h"

struct eng_ssr {
	uint8_t mode;		/* enum f2_alloc_mode */
	uint16_t *ckpt_valid;	/* per segment, at the last checkpoint */
	uint8_t *type;		/* per segment, at opening (untouched ones) */
	uint8_t *avoid;		/* per section: never an SSR target */
};

void eng_ssr_free(struct eng_ssr *s)
{
	if (!s)
		return;
	free(s->ckpt_valid);
	free(s->type);
	free(s->avoid);
	free(s);
}

uint16_t eng_ssr_next_free(const struct eng_sit *e, uint32_t off)
{
	for (; off < F2_BLKS_PER_SEG; off++)
		if (!f2_test_bit_msb(e->map, off) && !f2_test_bit_msb(e->ckpt_map, off))
			return (uint16_t)off;
	return F2_BLKS_PER_SEG;
}

struct load {
	struct eng_ssr *s;
	int bad;
	uint32_t bad_segno;
};

static int load_one(void *ctx, const struct f2_sit_info *si)
{
	struct load *l = ctx;

	if (si->vblocks > F2_BLKS_PER_SEG || si->type >= F2_NR_CURSEG) {
		l->bad = 1;
		l->bad_segno = si->segno;
		return 1;
	}
	l->s->ckpt_valid[si->segno] = (uint16_t)si->vblocks;
	l->s->type[si->segno] = si->type;
	return 0;
}

/* A log the checkpoint left in SSR mode goes on filling its segment. */
static int resume_logs(struct f2_engine *w)
{
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		struct eng_curseg *c = &w->cur[t];
		const struct f2_curseg_info *ci = &w->fs->curseg[t];
		struct eng_sit *e;
		int err;

		if (ci->alloc_type != F2_SSR || c->segno != ci->segno || c->ssr ||
		    c->blkoff != F2_BLKS_PER_SEG || ci->blkoff >= F2_BLKS_PER_SEG)
			continue;
		err = eng_sit_entry(w, c->segno, &e);
		if (err)
			return err;
		c->ssr = 1;
		c->blkoff = eng_ssr_next_free(e, ci->blkoff);
	}
	return 0;
}

int f2_engine_set_alloc(struct f2_engine *w, enum f2_alloc_mode mode)
{
	struct f2_fs *fs = w->fs;
	uint32_t nsec = fs->main_segs / w->segs_per_sec;
	struct eng_ssr *s;
	struct load l = { 0 };
	int err;

	if (mode != F2_ALLOC_LFS && mode != F2_ALLOC_SSR && mode != F2_ALLOC_AUTO)
		return eng_fail(w, F2_EBADOPT, "allocation mode %d", (int)mode);
	if (fs->features & (F2_FEAT_BLKZONED | F2_FEAT_RO)) {
		if (mode == F2_ALLOC_SSR)
			return eng_fail(w, F2_EUNSUPP, "SSR on a %s volume: the driver writes it "
					"log-structured only",
					(fs->features & F2_FEAT_RO) ? "read-only" : "zoned");
		mode = F2_ALLOC_LFS;
	}
	eng_ssr_free(w->ssr);
	w->ssr = NULL;
	if (mode == F2_ALLOC_LFS)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->mode = (uint8_t)mode;
	s->ckpt_valid = calloc(fs->main_segs + 1, sizeof(*s->ckpt_valid));
	s->type = calloc(fs->main_segs + 1, 1);
	s->avoid = calloc(nsec / 8 + 1, 1);
	if (!s->ckpt_valid || !s->type || !s->avoid) {
		eng_ssr_free(s);
		return -ENOMEM;
	}
	l.s = s;
	err = f2_sit_iter(fs, load_one, &l);
	if (l.bad) {
		eng_ssr_free(s);
		return eng_fail(w, F2_ECORRUPT, "segment %u: SIT entry out of range", l.bad_segno);
	}
	if (err) {
		eng_ssr_free(s);
		return eng_fail(w, err, "reading the SIT: %s", fs->why);
	}
	w->ssr = s;
	eng_ssr_committed(w);	/* the segments the engine touched already */
	return resume_logs(w);
}

int f2_engine_alloc_avoid(struct f2_engine *w, uint32_t secno)
{
	if (secno >= w->fs->main_segs / w->segs_per_sec)
		return eng_fail(w, F2_ERANGE, "section %u beyond the main area", secno);
	if (w->ssr)
		f2_set_bit_lsb(w->ssr->avoid, secno);
	return 0;
}

void eng_ssr_committed(struct f2_engine *w)
{
	size_t pos = 0;
	struct eng_sit **v;

	while ((v = f2_map_next(&w->sit, &pos, NULL))) {
		struct eng_sit *e = *v;

		memcpy(e->ckpt_map, e->map, sizeof(e->ckpt_map));
		e->ckpt_vblocks = e->vblocks;
		if (w->ssr && e->segno < w->fs->main_segs)
			w->ssr->ckpt_valid[e->segno] = e->vblocks;
	}
}

/* Blocks of the engine's dirty cache of one kind, in sections (rounded
 * up), as the driver's get_blocktype_secs. */
static uint32_t dirty_secs(const struct f2_engine *w, const struct f2_map *m)
{
	uint64_t n = 0, bps = (uint64_t)w->segs_per_sec * F2_BLKS_PER_SEG;
	size_t pos = 0;
	struct eng_blk **v;

	while ((v = f2_map_next(m, &pos, NULL)))
		n += (*v)->dirty != 0;
	return (uint32_t)((n + bps - 1) / bps);
}

int eng_ssr_wanted(struct f2_engine *w, int t)
{
	uint32_t rsvd;

	(void)t;
	if (!w->ssr)
		return 0;
	if (w->ssr->mode == F2_ALLOC_SSR)
		return 1;
	/* need_SSR: min_ssr_sections is the reserved sections, as mounted */
	rsvd = w->rsvd_segs / w->segs_per_sec;
	return eng_free_secs(w) <= dirty_secs(w, &w->nodes) + 2 * dirty_secs(w, &w->dblks) +
				   2 * rsvd;
}

/* Section of segno holds a current segment. */
static int cur_section(const struct f2_engine *w, uint32_t segno)
{
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (w->cur[t].segno != F2_NULL_SEGNO &&
		    w->cur[t].segno / w->segs_per_sec == segno / w->segs_per_sec)
			return 1;
	return 0;
}

/* The best segment of SIT type want: the fewest blocks valid at the last
 * checkpoint (below 512), among segments partly valid now with a slot
 * free both now and then; ties: the lower segment.  UINT32_MAX: none. */
static uint32_t best_of_type(struct f2_engine *w, uint8_t want)
{
	const struct eng_ssr *s = w->ssr;
	uint32_t best = F2_NULL_SEGNO, best_cost = F2_BLKS_PER_SEG;

	for (uint32_t segno = 0; segno < w->fs->main_segs; segno++) {
		uint32_t cost = s->ckpt_valid[segno], vblocks;
		const struct eng_sit *e;
		uint8_t type;

		if (cost >= best_cost)
			continue;
		e = f2_pmap_get(&w->sit, segno);
		type = e ? e->type : s->type[segno];
		vblocks = e ? e->vblocks : cost;
		if (type != want || !vblocks || vblocks >= F2_BLKS_PER_SEG)
			continue;
		if (f2_test_bit_lsb(s->avoid, segno / w->segs_per_sec) || cur_section(w, segno))
			continue;
		if (e && eng_ssr_next_free(e, 0) >= F2_BLKS_PER_SEG)
			continue;
		best = segno;
		best_cost = cost;
	}
	return best;
}

int eng_ssr_pick(struct f2_engine *w, int t, uint32_t *segno)
{
	int node = t >= F2_CURSEG_HOT_NODE, first = node ? F2_CURSEG_HOT_NODE : F2_CURSEG_HOT_DATA;
	int order[3], n = 0;

	if (!w->ssr)
		return 0;
	/* the log's own type, then the others of its class: coldest first
	 * for warm and cold logs, hottest first for hot ones */
	order[n++] = t;
	for (int k = 0; k < 3; k++) {
		int u = t - first >= 1 ? first + 2 - k : first + k;

		if (u != t)
			order[n++] = u;
	}
	for (int k = 0; k < n; k++) {
		uint32_t s = best_of_type(w, (uint8_t)order[k]);

		if (s != F2_NULL_SEGNO) {
			*segno = s;
			return 1;
		}
	}
	return 0;
}
