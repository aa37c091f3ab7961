/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reseed.h - tune.f2fs -U: every inode's checksum under a new seed. */
#ifndef TUNE_RESEED_H
#define TUNE_RESEED_H
#include <stdint.h>

struct f2_fs;
struct f2_io;

struct reseed_stats {
	uint64_t inodes;	/* inode blocks with a checksum */
	uint64_t rewritten;	/* of them, written (checksum changed) */
};

/*
 * Rewrite in place, through io, the checksum of every inode block the NAT
 * of fs names (reachable or not) with seed (crc32 of the new uuid), in
 * block order; with dry_run only count.  0, or an error with the reason
 * in why.
 */
int reseed_inodes(struct f2_fs *fs, struct f2_io *io, uint32_t seed, int dry_run,
		  struct reseed_stats *st, char *why, size_t len);
#endif
