// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - resize.f2fs's report: old and new geometry, what lies past a
 * new end and must move, and after a run what moved; text or JSON. */
#include "support/json.h"
#include "resize_cmd.h"

static const char *kind_name(int kind)
{
	return kind == F2_RESIZE_SHRINK ? "shrink" : kind == F2_RESIZE_GROW ? "grow" : "none";
}

static void report_json(FILE *out, const struct rs_cmd *c, const struct f2_resize_plan *p,
			const struct f2_resize_stats *st, int err, const char *why)
{
	fprintf(out, "{\"device\":");
	sup_json_cstr(out, c->device);
	fprintf(out, ",\"dry_run\":%s,\"kind\":\"%s\"", c->dry_run ? "true" : "false",
		kind_name(p->kind));
	fprintf(out, ",\"old\":{\"block_count\":%llu,\"main_segments\":%u,\"sections\":%u}",
		(unsigned long long)p->old_blocks, p->old_main, p->old_secs);
	fprintf(out, ",\"new\":{\"block_count\":%llu,\"main_segments\":%u,\"sections\":%u,"
		"\"segment_count\":%u,\"max_main_segments\":%u,\"clamped\":%s,"
		"\"overprovision_ratio\":%.3f,\"reserved_segments\":%u,\"overprov_segments\":%u,"
		"\"user_block_count\":%llu}", (unsigned long long)p->new_blocks, p->new_main,
		p->new_secs, p->new_segment_count, p->max_main, p->clamped ? "true" : "false",
		p->ratio, p->rsvd, p->ovp, (unsigned long long)p->user_blocks);
	fprintf(out, ",\"relocate\":");
	if (p->relocate)
		fprintf(out, "{\"placement\":\"%s\",\"shift_segments\":%u,\"main_delta_segments\":%d,"
			"\"segment0_blkaddr\":%u,\"segment_count_sit\":%u,"
			"\"segment_count_nat\":%u,\"segment_count_ssa\":%u,\"cp_payload\":%u}",
			p->home ? "mkfs" : "main_start", p->shift, p->delta, p->seg0, p->sit_segs,
			p->nat_segs, p->ssa_segs, p->cp_payload);
	else
		fprintf(out, "null");
	fprintf(out, ",\"in_place_because\":");
	if (p->in_place)
		sup_json_cstr(out, p->in_place);
	else
		fprintf(out, "null");
	fprintf(out, ",\"valid_blocks\":%llu", (unsigned long long)p->valid_blocks);
	fprintf(out, ",\"move\":{\"data\":%llu,\"node\":%llu,\"blocks\":%llu,\"tail_sections_used\":%u,"
		"\"tail_current_segments\":%u,\"free_sections_below\":%u,\"sections_needed\":%u}",
		(unsigned long long)p->move_data, (unsigned long long)p->move_node,
		(unsigned long long)(p->move_data + p->move_node), p->tail_secs_used,
		p->tail_cursegs, p->free_head_secs, p->need_secs);
	if (st)
		fprintf(out, ",\"moved\":{\"data\":%llu,\"node\":%llu,\"blocks\":%llu,"
			"\"nodes_dirtied\":%llu,\"skipped\":%llu,\"checkpoints\":%u,"
			"\"zones_reset\":%llu}",
			(unsigned long long)st->data_moved, (unsigned long long)st->node_moved,
			(unsigned long long)(st->data_moved + st->node_moved),
			(unsigned long long)st->nodes_dirtied, (unsigned long long)st->skipped,
			st->checkpoints, (unsigned long long)st->zones_reset);
	fprintf(out, ",\"error\":");
	if (err)
		sup_json_cstr(out, why);
	else
		fprintf(out, "null");
	fprintf(out, "}\n");
}

void rs_report(FILE *out, const struct rs_cmd *c, const struct f2_resize_plan *p,
	       const struct f2_resize_stats *st, int err, const char *why)
{
	if (c->json) {
		report_json(out, c, p, st, err, why);
		return;
	}
	if (p->kind == F2_RESIZE_NONE && !err) {
		fprintf(out, "%s: the main area stays %u segments: nothing to do\n", c->device,
			p->old_main);
		return;
	}
	fprintf(out, "%s: %s%s: %llu -> %llu blocks, main area %u -> %u segments (%u -> %u "
		"sections)\n", c->device, c->dry_run ? "plan to " : "", kind_name(p->kind),
		(unsigned long long)p->old_blocks, (unsigned long long)p->new_blocks,
		p->old_main, p->new_main, p->old_secs, p->new_secs);
	if (p->clamped)
		fprintf(out, "  -s: stopped at the %u main segments the SIT and SSA address\n",
			p->max_main);
	if (p->relocate && p->home)
		fprintf(out, "  new metadata areas at block %u, where mkfs puts them (the main "
			"area starts %d segments earlier): SIT %u, NAT %u, SSA %u segments\n",
			p->seg0, -p->delta, p->sit_segs, p->nat_segs, p->ssa_segs);
	else if (p->relocate)
		fprintf(out, "  new metadata areas at block %u (the first %u main segments): SIT %u, "
			"NAT %u, SSA %u segments\n", p->seg0, p->shift, p->sit_segs, p->nat_segs,
			p->ssa_segs);
	else if (p->in_place && p->kind != F2_RESIZE_NONE)
		fprintf(out, "  in place (%s)\n", p->in_place);
	if (p->ovp)
		fprintf(out, "  overprovision %.2f%%: %u segments (%u reserved), user blocks %llu, "
			"valid blocks %llu\n", p->ratio, p->ovp, p->rsvd,
			(unsigned long long)p->user_blocks, (unsigned long long)p->valid_blocks);
	if ((p->keep_lo || p->keep_hi < p->old_main) && (p->move_data || p->move_node || c->debug))
		fprintf(out, "  %s: %llu blocks to move (%llu data, %llu node) from "
			"%u sections; %u free sections %s, %u needed\n",
			!p->shift ? "past the new end" : p->keep_hi < p->old_main ?
			"past the new end and in the main area's first segments" :
			"in the main area's first segments",
			(unsigned long long)(p->move_data + p->move_node),
			(unsigned long long)p->move_data, (unsigned long long)p->move_node,
			p->tail_secs_used, p->free_head_secs, !p->shift ? "below it" :
			p->keep_hi < p->old_main ? "between them" : "after them",
			p->need_secs);
	if (st)
		fprintf(out, "  moved %llu blocks (%llu data, %llu node), %llu node writes, %u "
			"checkpoints\n", (unsigned long long)(st->data_moved + st->node_moved),
			(unsigned long long)st->data_moved, (unsigned long long)st->node_moved,
			(unsigned long long)st->nodes_dirtied, st->checkpoints);
	if (st && st->zones_reset)
		fprintf(out, "  zones reset: %llu\n", (unsigned long long)st->zones_reset);
}
