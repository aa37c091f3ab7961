/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gc_report.h - the gc.f2fs report, as text or as one JSON object. */
#ifndef GC_REPORT_H
#define GC_REPORT_H
#include <stdint.h>
#include <stdio.h>
#include "f2/gc.h"
#include "gc_cmd.h"

/* What the owner check of the victims' valid blocks found. */
struct gc_owner_stats {
	int done;			/* the check ran */
	uint64_t alive_data, alive_node;	/* blocks to move */
	uint64_t stale, bad;		/* valid in the SIT but not pointed at */
	uint64_t nodes_updated;		/* owner nodes rewritten for moved data */
	char first_bad[F2_WHY_LEN + 80];
};

/* The numbers both reports print. */
struct gc_numbers {
	uint64_t moved, written, reclaimed;
	double wa;		/* written / reclaimed; < 0 when nothing is reclaimed */
};
void gc_numbers(const struct f2_gc_map *m, const struct f2_gc_plan *p,
		const struct gc_owner_stats *st, struct gc_numbers *n);

void gc_report_text(FILE *out, const struct gc_cmd *c, const struct f2_fs *fs,
		    const struct f2_gc_map *m, const struct f2_gc_plan *p,
		    const struct gc_owner_stats *st);
void gc_report_json(FILE *out, const struct gc_cmd *c, const struct f2_fs *fs,
		    const struct f2_gc_map *m, const struct f2_gc_plan *p,
		    const struct gc_owner_stats *st);

#endif
