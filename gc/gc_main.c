// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc_main.c - gc.f2fs: refuse a mounted device, read the SIT, plan the
 * victims for the target with the chosen policy, check the owner of every
 * valid block of the victims, and report (text or JSON); without -n, move
 * the victims' blocks through the write engine (lib/gc/move.c) with a
 * checkpoint every --checkpoint-every sections and at the end, then report
 * what the volume looks like after.  On zoned volumes the engine is
 * opened with the zones (f2_engine_open_zoned): logs start in empty zones,
 * cleaned sections are reset after the checkpoint that frees them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/gc.h"
#include "f2/engine.h"
#include "f2/io.h"
#include "common.h"
#include "gc_cmd.h"
#include "gc_report.h"

/* Owner scan of the victims: counts, and the nids touched. */
struct scan {
	struct gc_owner_stats *st;
	uint32_t *data_nids, *node_nids;
	size_t ndata, nnode, cap_data, cap_node;
	int err;
};

static int push(uint32_t **a, size_t *n, size_t *cap, uint32_t v)
{
	if (*n && (*a)[*n - 1] == v)
		return 0;	/* runs of one owner: keep the array small */
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		uint32_t *na = realloc(*a, nc * sizeof(**a));

		if (!na)
			return -ENOMEM;
		*a = na;
		*cap = nc;
	}
	(*a)[(*n)++] = v;
	return 0;
}

static int on_block(void *ctx, const struct f2_gc_block *b)
{
	struct scan *s = ctx;

	switch (b->owner) {
	case F2_GC_ALIVE:
		if (b->is_node) {
			s->st->alive_node++;
			return push(&s->node_nids, &s->nnode, &s->cap_node, b->nid);
		}
		s->st->alive_data++;
		return push(&s->data_nids, &s->ndata, &s->cap_data, b->nid);
	case F2_GC_STALE:
		s->st->stale++;
		break;
	default:
		if (!s->st->bad++)
			snprintf(s->st->first_bad, sizeof(s->st->first_bad), "block %llu: %s",
				 (unsigned long long)b->blkaddr, b->why);
		break;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static size_t uniq(uint32_t *a, size_t n)
{
	size_t k = 0;

	if (!n)
		return 0;
	qsort(a, n, sizeof(*a), cmp_u32);
	for (size_t i = 1; i < n; i++)
		if (a[i] != a[k])
			a[++k] = a[i];
	return k + 1;
}

/* Read the owner of every valid block of the victims. */
static int scan_owners(struct f2_fs *fs, const struct f2_gc_map *m, const struct f2_gc_plan *p,
		       int progress, struct gc_owner_stats *st)
{
	struct scan s = { .st = st };
	int r = 0;

	memset(st, 0, sizeof(*st));
	for (uint32_t i = 0; !r && i < p->nvictims; i++) {
		if (progress && (i % 16 == 0 || i + 1 == p->nvictims))
			fprintf(stderr, "\rgc.f2fs: checking owners: section %u of %u", i + 1,
				p->nvictims);
		r = f2_gc_section_blocks(fs, m, p->v[i].secno, on_block, &s);
	}
	if (progress && p->nvictims)
		fputc('\n', stderr);
	if (!r) {
		size_t nd = uniq(s.data_nids, s.ndata), nn = uniq(s.node_nids, s.nnode), j = 0;

		/* a data block's owner node is rewritten, unless it moves anyway */
		for (size_t i = 0; i < nd; i++) {
			while (j < nn && s.node_nids[j] < s.data_nids[i])
				j++;
			if (j >= nn || s.node_nids[j] != s.data_nids[i])
				st->nodes_updated++;
		}
		st->done = 1;
	}
	free(s.data_nids);
	free(s.node_nids);
	return r;
}

/* The plan's "after" from the volume as it now is (a real run). */
static void actual_after(const struct gc_cmd *c, const struct f2_gc_map *m2,
			 struct f2_gc_plan *p)
{
	uint64_t used;

	memset(p->hist_after, 0, sizeof(p->hist_after));
	for (uint32_t s = 0; s < m2->nsecs; s++)
		if (m2->secs[s].state != F2_GC_SEC_CURRENT)
			p->hist_after[f2_gc_hist_bucket(m2->secs[s].valid, m2->blocks_per_sec)]++;
	p->free_after = m2->count[F2_GC_SEC_FREE];
	used = m2->nsecs - p->free_after;
	if (c->target.free_secs || c->target.util_set)
		p->reached = (!c->target.free_secs || p->free_after >= c->target.free_secs) &&
			     (!c->target.util_set || !used ||
			      m2->valid_blocks * 100 >= (uint64_t)c->target.util_pct * used *
							 m2->blocks_per_sec);
}

/* The target is met by what the engine has committed. */
static int engine_met(const struct gc_cmd *c, const struct f2_fs *fs, struct f2_engine *w)
{
	const struct f2_gc_target *t = &c->target;
	struct f2_engine_stats ws;
	uint64_t sps = f2_le32(fs->sb.segs_per_sec), nsecs = fs->main_segs / sps, used;

	f2_engine_stats(w, &ws);
	used = nsecs > ws.free_secs ? nsecs - ws.free_secs : 0;
	if (t->free_secs && ws.free_secs < t->free_secs)
		return 0;
	if (t->util_set && used &&
	    ws.valid_blocks * 100 < (uint64_t)t->util_pct * used * sps * F2_BLKS_PER_SEG)
		return 0;
	return 1;
}

/* Move the victims (*done of them: fewer when free space runs out; more
 * when the target is not met after them, as long as candidates remain);
 * 0 or GC_EXIT_ERROR (reported). */
static int run_moves(const struct gc_cmd *c, struct f2_fs *fs, struct f2_gc_plan *p,
		     struct f2_gc_move_stats *ms, uint32_t *done, uint64_t *resets)
{
	struct f2_engine *w = NULL;
	char why[F2_WHY_LEN + 64];
	int r = f2_engine_open_zoned(fs, c->device, &w, why, sizeof(why));
	uint32_t i = 0, since_cp = 0;

	memset(ms, 0, sizeof(*ms));
	if (r) {
		fprintf(stderr, "gc.f2fs: %s: opening the write engine: %s\n", c->device, why);
		return GC_EXIT_ERROR;
	}
	/* moved blocks never go into a victim, cleaned or still to come */
	r = f2_engine_set_alloc(w, (enum f2_alloc_mode)c->alloc);
	for (uint32_t k = 0; !r && k < p->nvictims; k++)
		r = f2_engine_alloc_avoid(w, p->v[k].secno);
	if (r) {
		fprintf(stderr, "gc.f2fs: %s: --alloc: %s\n", c->device, f2_engine_why(w));
		f2_engine_close(w);
		return GC_EXIT_ERROR;
	}
	for (; !r && i < p->nvictims; i++) {
		struct f2_engine_stats ws;
		/* room for this victim's blocks plus a section of slack per log
		 * type; else commit first, so the victims cleaned so far are free */
		uint64_t need = (p->v[i].valid + F2_BLKS_PER_SEG - 1) / F2_BLKS_PER_SEG +
				2ull * f2_le32(fs->sb.segs_per_sec);

		f2_engine_stats(w, &ws);
		if (ws.free_segs < need && since_cp) {
			r = f2_gc_checkpoint(w);
			since_cp = 0;
			f2_engine_stats(w, &ws);
		}
		if (!r && ws.free_segs < need) {
			fprintf(stderr, "%sgc.f2fs: %s: stopping after %u sections: %u free segments, "
				"section %u needs %llu\n", c->progress ? "\n" : "", c->device, i,
				ws.free_segs, p->v[i].secno, (unsigned long long)need);
			break;
		}
		if (c->progress)
			fprintf(stderr, "\rgc.f2fs: cleaning section %u of %u", i + 1, p->nvictims);
		r = f2_gc_move_section(w, p->v[i].secno, ms);
		since_cp++;
		if (!r && since_cp >= c->cp_every && i + 1 < p->nvictims) {
			r = f2_gc_checkpoint(w);
			since_cp = 0;
		}
		/* short of the target (the plan does not count the owner nodes
		 * that moving data rewrites): the next candidate too */
		if (!r && i + 1 == p->nvictims && p->nvictims < p->ncand &&
		    (c->target.free_secs || c->target.util_set)) {
			r = f2_gc_checkpoint(w);
			since_cp = 0;
			if (!r && !engine_met(c, fs, w))
				r = f2_engine_alloc_avoid(w, p->v[p->nvictims++].secno);
		}
	}
	*done = i;
	if (!r)
		r = f2_gc_checkpoint(w);
	if (c->progress && p->nvictims)
		fputc('\n', stderr);
	*resets = f2_engine_zones_reset(w);
	{
		struct f2_engine_stats ws;

		f2_engine_stats(w, &ws);
		p->ssr_segs = (uint32_t)ws.ssr_segs;
		p->ssr_blocks = ws.ssr_blocks;
		p->secs_filled = (uint32_t)((ws.new_segs + f2_le32(fs->sb.segs_per_sec) - 1) /
					    f2_le32(fs->sb.segs_per_sec));
	}
	if (r) {
		fprintf(stderr, "gc.f2fs: %s: cleaning section %u: %s; the volume keeps its last "
			"checkpoint\n", c->device, i ? p->v[i - 1].secno : 0,
			f2_engine_why(w)[0] ? f2_engine_why(w) : f2_strerror(r));
		f2_engine_close(w);
		return GC_EXIT_ERROR;
	}
	f2_engine_close(w);
	return 0;
}

int main(int argc, char **argv)
{
	struct gc_cmd c;
	struct f2_fs *fs = NULL;
	struct f2_io *io = NULL;
	struct f2_gc_map m, m2;
	struct f2_gc_plan p;
	struct gc_owner_stats st;
	struct f2_gc_move_stats ms;
	uint64_t resets = 0;
	int zoned = 0, r, rc;

	r = gc_parse(argc, argv, &c);
	if (r)
		return r > 0 ? GC_EXIT_OK : GC_EXIT_USAGE;
	if (c.progress < 0)
		c.progress = isatty(STDERR_FILENO) && !c.json;
	rc = c.dry_run ? gc_open_ro("gc.f2fs", c.device, &fs) :
			 gc_open_rw("gc.f2fs", c.device, &io, &fs);
	if (rc)
		return rc;
	if (!c.dry_run && (rc = gc_check_clean("gc.f2fs", c.device, fs)))
		goto out_fs;
	zoned = !c.dry_run && (fs->features & F2_FEAT_BLKZONED);
	if (!c.cp_every)
		c.cp_every = (fs->features & F2_FEAT_BLKZONED) ? F2_GC_CP_EVERY_ZONED : F2_GC_CP_EVERY;
	c.target.cp_every = c.cp_every;	/* the plan predicts the run */
	r = f2_gc_map_build(fs, &m);
	if (r) {
		fprintf(stderr, "gc.f2fs: %s: reading the SIT: %s\n", c.device,
			fs->why[0] ? fs->why : f2_strerror(r));
		rc = GC_EXIT_ERROR;
		goto out_fs;
	}
	r = f2_gc_plan(&m, &c.target, &p);
	if (r) {
		fprintf(stderr, "gc.f2fs: planning: %s\n", f2_strerror(r));
		rc = GC_EXIT_ERROR;
		goto out_map;
	}
	memset(&st, 0, sizeof(st));
	if (c.dry_run && !c.no_owners) {
		r = scan_owners(fs, &m, &p, c.progress, &st);
		if (r) {
			fprintf(stderr, "gc.f2fs: %s: checking owners: %s\n", c.device,
				fs->why[0] ? fs->why : f2_strerror(r));
			rc = GC_EXIT_ERROR;
		}
	}
	if (!rc && !c.dry_run && p.nvictims) {
		uint32_t done = 0;

		rc = run_moves(&c, fs, &p, &ms, &done, &resets);
		if (!rc && done < p.nvictims)
			p.nvictims = done;	/* report what was cleaned */
		f2_fs_close(fs);
		f2_io_close(io);
		fs = NULL;
		io = NULL;
		if (!rc)
			rc = gc_open_ro("gc.f2fs", c.device, &fs);
		if (!rc) {
			r = f2_gc_map_build(fs, &m2);
			if (r) {
				fprintf(stderr, "gc.f2fs: %s: reading the SIT after cleaning: %s\n",
					c.device, fs->why[0] ? fs->why : f2_strerror(r));
				rc = GC_EXIT_ERROR;
			} else {
				actual_after(&c, &m2, &p);
				f2_gc_map_free(&m2);
				st.done = 1;
				st.alive_data = ms.data_moved;
				st.alive_node = ms.node_moved;
				st.stale = ms.skipped;
				st.nodes_updated = ms.nodes_dirtied > ms.node_moved ?
						   ms.nodes_dirtied - ms.node_moved : 0;
			}
		}
	}
	if (!rc) {
		if (c.json)
			gc_report_json(stdout, &c, fs, &m, &p, &st);
		else
			gc_report_text(stdout, &c, fs, &m, &p, &st);
		if (zoned && !c.json)
			printf("zones reset: %llu\n", (unsigned long long)resets);
		if ((c.target.free_secs || c.target.util_set) && !p.reached)
			rc = GC_EXIT_TARGET;
	}
	f2_gc_plan_free(&p);
out_map:
	f2_gc_map_free(&m);
out_fs:
	f2_fs_close(fs);
	if (io)
		f2_io_close(io);
	return rc;
}
