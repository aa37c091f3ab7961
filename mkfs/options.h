/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h - mkfs.f2fs command line. */
#ifndef MKFS_OPTIONS_H
#define MKFS_OPTIONS_H
#include <stdint.h>
#include "f2/mkfs.h"
#include "populate.h"

struct mkfs_cmd {
	struct f2_mkfs_opts fs;
	const char *devices[F2_MAX_DEVICES];
	uint32_t ndevs;
	uint64_t wanted_sectors;	/* trailing argument, 0 = whole device */
	uint32_t wanted_sector_size;	/* -w */
	uint64_t sparse_size;		/* -S: bytes of the Android sparse image, 0 = none */
	int force, quiet, debug, zero_seed, have_uuid;
	int64_t fixed_time;		/* -T, -1 = now */
	const char *uuid_text;
	struct pop_opts pop;		/* --root DIR and its options */
	const char *compress_opt;	/* a --compress-* option given, for the check */
	int populate_only;		/* --populate: no format, copy into device */
};

/* Parse argv; returns 0, 1 after --help/-V (exit 0), or -1 on error. */
int mkfs_parse(int argc, char **argv, struct mkfs_cmd *c);
void mkfs_usage(FILE *out);
#endif
