// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc_main.c - gc.f2fs: refuse a mounted device, read the SIT, plan the
 * victims for the target with the chosen policy, check the owner of every
 * valid block of the victims, and report (text or JSON).  Moving blocks
 * needs the write engine and is not implemented yet: without -n the tool
 * says so and exits 8.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/gc.h"
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

int main(int argc, char **argv)
{
	struct gc_cmd c;
	struct f2_fs *fs = NULL;
	struct f2_gc_map m;
	struct f2_gc_plan p;
	struct gc_owner_stats st;
	int r, rc;

	r = gc_parse(argc, argv, &c);
	if (r)
		return r > 0 ? GC_EXIT_OK : GC_EXIT_USAGE;
	if (c.progress < 0)
		c.progress = isatty(STDERR_FILENO) && !c.json;
	rc = gc_open_ro("gc.f2fs", c.device, &fs);
	if (rc)
		return rc;
	if (!c.dry_run) {
		fprintf(stderr, "gc.f2fs: not implemented yet: moving blocks needs the write engine "
			"(use -n to see what cleaning would do)\n");
		f2_fs_close(fs);
		return GC_EXIT_ERROR;
	}
	r = f2_gc_map_build(fs, &m);
	if (r) {
		fprintf(stderr, "gc.f2fs: %s: reading the SIT: %s\n", c.device,
			fs->why[0] ? fs->why : f2_strerror(r));
		f2_fs_close(fs);
		return GC_EXIT_ERROR;
	}
	r = f2_gc_plan(&m, &c.target, &p);
	if (r) {
		fprintf(stderr, "gc.f2fs: planning: %s\n", f2_strerror(r));
		f2_gc_map_free(&m);
		f2_fs_close(fs);
		return GC_EXIT_ERROR;
	}
	memset(&st, 0, sizeof(st));
	if (!c.no_owners) {
		r = scan_owners(fs, &m, &p, c.progress, &st);
		if (r) {
			fprintf(stderr, "gc.f2fs: %s: checking owners: %s\n", c.device,
				fs->why[0] ? fs->why : f2_strerror(r));
			rc = GC_EXIT_ERROR;
		}
	}
	if (!rc) {
		if (c.json)
			gc_report_json(stdout, &c, fs, &m, &p, &st);
		else
			gc_report_text(stdout, &c, fs, &m, &p, &st);
		if ((c.target.free_secs || c.target.util_set) && !p.reached)
			rc = GC_EXIT_TARGET;
	}
	f2_gc_plan_free(&p);
	f2_gc_map_free(&m);
	f2_fs_close(fs);
	return rc;
}
