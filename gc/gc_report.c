// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc_report.c - the gc.f2fs report: the volume's sections before, the
 * victims, the predicted cost (blocks moved, blocks written, write
 * amplification = blocks written per block reclaimed) and the histogram
 * of section utilisation before and predicted after.
 */
#include "f2/fs.h"
#include "support/json.h"
#include "gc_report.h"

static const char *const bucket_name[F2_GC_HIST] = {
	"free", "<=10%", "<=20%", "<=30%", "<=40%", "<=50%",
	"<=60%", "<=70%", "<=80%", "<=90%", "<100%", "full",
};

static const char *policy_name(enum f2_gc_policy p)
{
	return p == F2_GC_COST_BENEFIT ? "cost-benefit" : "greedy";
}

static const char *alloc_name(int a)
{
	return a == F2_ALLOC_LFS ? "lfs" : a == F2_ALLOC_SSR ? "ssr" : "auto";
}

void gc_numbers(const struct f2_gc_map *m, const struct f2_gc_plan *p,
		const struct gc_owner_stats *st, struct gc_numbers *n)
{
	uint64_t span = (uint64_t)p->nvictims * m->blocks_per_sec;

	n->moved = st->done ? st->alive_data + st->alive_node : p->blocks_moved;
	n->written = n->moved + (st->done ? st->nodes_updated : 0);
	n->reclaimed = span > n->moved ? span - n->moved : 0;
	n->wa = n->reclaimed ? (double)n->written / (double)n->reclaimed : -1.0;
}

static void describe_target(FILE *out, const struct f2_gc_target *t)
{
	const char *sep = "";

	if (t->free_secs) {
		fprintf(out, "%u free sections", t->free_secs);
		sep = ", ";
	}
	if (t->util_set) {
		fprintf(out, "%sused sections %u%% full", sep, t->util_pct);
		sep = ", ";
	}
	if (!t->free_secs && !t->util_set)
		fprintf(out, "every partly valid section");
	if (t->max_secs)
		fprintf(out, ", at most %u sections", t->max_secs);
}

void gc_report_text(FILE *out, const struct gc_cmd *c, const struct f2_fs *fs,
		    const struct f2_gc_map *m, const struct f2_gc_plan *p,
		    const struct gc_owner_stats *st)
{
	struct gc_numbers n;
	uint32_t show;

	(void)fs;
	gc_numbers(m, p, st, &n);
	fprintf(out, "%s: %u sections of %u segment%s, policy %s, alloc %s%s\n", c->device,
		m->nsecs, m->segs_per_sec, m->segs_per_sec == 1 ? "" : "s",
		policy_name(c->target.policy), alloc_name(c->alloc),
		c->dry_run ? " (dry run: nothing is written)" : "");
	fprintf(out, "sections: %u free, %u partly valid, %u full, %u current; %llu valid blocks\n",
		m->count[F2_GC_SEC_FREE], m->count[F2_GC_SEC_DIRTY], m->count[F2_GC_SEC_FULL],
		m->count[F2_GC_SEC_CURRENT], (unsigned long long)m->valid_blocks);
	fprintf(out, "target: ");
	describe_target(out, &c->target);
	fputc('\n', out);
	if (!m->count[F2_GC_SEC_DIRTY])
		fprintf(out, "nothing to clean: no section is partly valid\n");
	else if (!p->nvictims)
		fprintf(out, "nothing to clean: the target is already met\n");
	if (p->nvictims) {
		show = c->verbose || p->nvictims <= 20 ? p->nvictims : 20;
		fprintf(out, "victims: %u sections, in cleaning order\n", p->nvictims);
		fprintf(out, "  %8s %10s %6s %5s %10s\n", "section", "segment", "valid", "util", "cost");
		for (uint32_t i = 0; i < show; i++)
			fprintf(out, "  %8u %10u %6u %4u%% %10u\n", p->v[i].secno,
				p->v[i].secno * m->segs_per_sec, p->v[i].valid,
				f2_gc_util(m, p->v[i].secno), p->v[i].cost);
		if (show < p->nvictims)
			fprintf(out, "  ... %u more (-v lists them all)\n", p->nvictims - show);
	}
	if (st->done) {
		fprintf(out, "owners: %llu data and %llu node blocks alive, %llu stale, %llu bad\n",
			(unsigned long long)st->alive_data, (unsigned long long)st->alive_node,
			(unsigned long long)st->stale, (unsigned long long)st->bad);
		if (st->bad)
			fprintf(out, "  first bad: %s\n", st->first_bad);
	}
	fprintf(out, "%s: %u sections cleaned, %llu blocks moved",
		c->dry_run ? "predicted" : "result", p->nvictims,
		(unsigned long long)n.moved);
	if (st->done)
		fprintf(out, ", %llu owner nodes rewritten", (unsigned long long)st->nodes_updated);
	fprintf(out, "\n  %llu blocks written, %llu blocks reclaimed, write amplification ",
		(unsigned long long)n.written, (unsigned long long)n.reclaimed);
	if (n.wa < 0)
		fprintf(out, "-\n");
	else
		fprintf(out, "%.3f\n", n.wa);
	fprintf(out, "  moved blocks into %u free sections and %llu blocks of %u partly valid "
		"segments (SSR)\n", p->secs_filled, (unsigned long long)p->ssr_blocks, p->ssr_segs);
	fprintf(out, "  free sections %u -> %u (%s)\n", p->free_before, p->free_after,
		p->reached ? "target reached" : "target not reachable");
	fprintf(out, "section utilisation (sections without a current segment):\n  %-6s %8s %8s\n",
		"", "before", c->dry_run ? "after" : "now");
	for (unsigned b = 0; b < F2_GC_HIST; b++)
		fprintf(out, "  %-6s %8u %8u\n", bucket_name[b], p->hist_before[b], p->hist_after[b]);
}

void gc_report_json(FILE *out, const struct gc_cmd *c, const struct f2_fs *fs,
		    const struct f2_gc_map *m, const struct f2_gc_plan *p,
		    const struct gc_owner_stats *st)
{
	struct gc_numbers n;

	(void)fs;
	gc_numbers(m, p, st, &n);
	fprintf(out, "{\"device\":");
	sup_json_cstr(out, c->device);
	fprintf(out, ",\"policy\":\"%s\",\"alloc\":\"%s\",\"dry_run\":%s",
		policy_name(c->target.policy), alloc_name(c->alloc), c->dry_run ? "true" : "false");
	fprintf(out, ",\"geometry\":{\"sections\":%u,\"segs_per_sec\":%u,\"blocks_per_section\":%u}",
		m->nsecs, m->segs_per_sec, m->blocks_per_sec);
	fprintf(out, ",\"target\":{\"free_sections\":");
	if (c->target.free_secs)
		fprintf(out, "%u", c->target.free_secs);
	else
		fprintf(out, "null");
	fprintf(out, ",\"utilization\":");
	if (c->target.util_set)
		fprintf(out, "%u", c->target.util_pct);
	else
		fprintf(out, "null");
	fprintf(out, ",\"max_sections\":");
	if (c->target.max_secs)
		fprintf(out, "%u", c->target.max_secs);
	else
		fprintf(out, "null");
	fprintf(out, "},\"before\":{\"free_sections\":%u,\"dirty_sections\":%u,\"full_sections\":%u,"
		"\"current_sections\":%u,\"valid_blocks\":%llu,\"min_mtime\":%llu,\"max_mtime\":%llu}",
		m->count[F2_GC_SEC_FREE], m->count[F2_GC_SEC_DIRTY], m->count[F2_GC_SEC_FULL],
		m->count[F2_GC_SEC_CURRENT], (unsigned long long)m->valid_blocks,
		(unsigned long long)m->min_mtime, (unsigned long long)m->max_mtime);
	fprintf(out, ",\"victims\":[");
	for (uint32_t i = 0; i < p->nvictims; i++)
		fprintf(out, "%s{\"section\":%u,\"segment\":%u,\"valid\":%u,\"utilization\":%u,"
			"\"cost\":%u}", i ? "," : "", p->v[i].secno, p->v[i].secno * m->segs_per_sec,
			p->v[i].valid, f2_gc_util(m, p->v[i].secno), p->v[i].cost);
	fprintf(out, "],\"owners\":");
	if (st->done) {
		fprintf(out, "{\"alive_data\":%llu,\"alive_node\":%llu,\"stale\":%llu,\"bad\":%llu,"
			"\"nodes_updated\":%llu,\"first_bad\":",
			(unsigned long long)st->alive_data, (unsigned long long)st->alive_node,
			(unsigned long long)st->stale, (unsigned long long)st->bad,
			(unsigned long long)st->nodes_updated);
		if (st->bad)
			sup_json_cstr(out, st->first_bad);
		else
			fprintf(out, "null");
		fputc('}', out);
	} else {
		fprintf(out, "null");
	}
	fprintf(out, ",\"%s\":{\"sections_cleaned\":%u,", c->dry_run ? "predicted" : "result",
		p->nvictims);
	fprintf(out, "\"blocks_moved\":%llu,"
		"\"sit_valid_blocks\":%llu,\"sit_node_blocks\":%llu,\"blocks_written\":%llu,"
		"\"blocks_reclaimed\":%llu,\"write_amplification\":",
		(unsigned long long)n.moved, (unsigned long long)p->blocks_moved,
		(unsigned long long)p->node_blocks_moved, (unsigned long long)n.written,
		(unsigned long long)n.reclaimed);
	if (n.wa < 0)
		fprintf(out, "null");
	else
		fprintf(out, "%.6f", n.wa);
	fprintf(out, ",\"free_sections_before\":%u,\"free_sections_after\":%u,"
		"\"sections_filled\":%u,\"ssr_segments\":%u,\"ssr_blocks\":%llu,"
		"\"target_reached\":%s}",
		p->free_before, p->free_after, p->secs_filled, p->ssr_segs,
		(unsigned long long)p->ssr_blocks, p->reached ? "true" : "false");
	fprintf(out, ",\"histogram\":{\"buckets\":[");
	for (unsigned b = 0; b < F2_GC_HIST; b++)
		fprintf(out, "%s\"%s\"", b ? "," : "", bucket_name[b]);
	fprintf(out, "],\"before\":[");
	for (unsigned b = 0; b < F2_GC_HIST; b++)
		fprintf(out, "%s%u", b ? "," : "", p->hist_before[b]);
	fprintf(out, "],\"after\":[");
	for (unsigned b = 0; b < F2_GC_HIST; b++)
		fprintf(out, "%s%u", b ? "," : "", p->hist_after[b]);
	fprintf(out, "]}}\n");
}
