/* SPDX-License-Identifier: GPL-2.0-or-later */
/* f2/mkfs.h - writing a new, empty file system. */
#ifndef F2_MKFS_H
#define F2_MKFS_H
#include <stdint.h>
#include "f2/geometry.h"
#include "f2/sb.h"

struct f2_io;

struct f2_mkfs_opts {
	struct f2_geom_params geom;
	struct f2_sb_opts sb;
	uint32_t root_uid, root_gid;
	uint64_t timestamp;	/* inode times */
	uint64_t cp_ver;	/* version of the first checkpoint (odd) */
	int discard;		/* -t 1: discard the device first */
};

/*
 * Format io (all devices as one address space) with geometry g.
 * Order keeps an interrupted run harmless: the old superblocks are
 * cleared first, the new ones written last after a flush.
 */
int f2_mkfs_write(struct f2_io *io, const struct f2_mkfs_opts *o,
		  const struct f2_geom *g, struct f2_super *sb_out,
		  f2_warn_fn warn, void *ctx);
#endif
