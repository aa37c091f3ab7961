/* SPDX-License-Identifier: GPL-2.0-or-later */
/* resize_cmd.h - resize.f2fs's options, exit codes and report. */
#ifndef RESIZE_CMD_H
#define RESIZE_CMD_H
#include <stdint.h>
#include <stdio.h>
#include "f2/resize.h"
#include "support/exitcodes.h"

enum {
	RS_EXIT_OK = FSCK_EXIT_OK,
	RS_EXIT_REFUSED = 1,	/* the data does not fit: nothing written */
	RS_EXIT_ERROR = FSCK_EXIT_OPERATIONAL,	/* error, busy, not supported */
	RS_EXIT_USAGE = FSCK_EXIT_USAGE,
};

struct rs_cmd {
	const char *device;
	uint64_t target_sectors;	/* 512-byte sectors; 0: the device size */
	double overprovision;		/* -o; 0: as mkfs picks */
	int safe, force, debug, dry_run, json;
};

void rs_usage(FILE *out);
/* 0 to run, 1 when done (--help, -V), -1 on a usage error (reported). */
int rs_parse(int argc, char **argv, struct rs_cmd *c);

/* The report: the plan, and after a run what it moved (st may be NULL);
 * err/why: a refusal or failure (0: none). */
void rs_report(FILE *out, const struct rs_cmd *c, const struct f2_resize_plan *p,
	       const struct f2_resize_stats *st, int err, const char *why);
#endif
