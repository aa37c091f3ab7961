/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gc_cmd.h - the gc.f2fs command line, parsed. */
#ifndef GC_CMD_H
#define GC_CMD_H
#include <stdint.h>
#include <stdio.h>
#include "f2/gc.h"
#include "f2/engine.h"

struct gc_cmd {
	const char *device;
	struct f2_gc_target target;
	int dry_run;
	int json;
	int verbose;		/* list every victim (text output) */
	int progress;		/* -1 auto (stderr is a terminal), 0 off, 1 on */
	int no_owners;		/* -n: skip the owner check of every block */
	uint32_t cp_every;	/* sections between checkpoints of a real run (0:
				 * F2_GC_CP_EVERY, or _ZONED on a zoned volume) */
	int alloc;		/* enum f2_alloc_mode: where moved blocks go */
};

void gc_usage(FILE *out);
/* 0 to run, 1 when done (--help, -V), -1 on a usage error (reported). */
int gc_parse(int argc, char **argv, struct gc_cmd *c);

#endif
