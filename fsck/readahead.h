/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readahead.h - block reads for the tree walk through a small read-ahead
 * window: a miss reads RA_BLOCKS blocks at once, so walking node and
 * dentry blocks that lie in order costs one system call per window.
 */
#ifndef FSCK_READAHEAD_H
#define FSCK_READAHEAD_H
#include <stdint.h>
#include "f2/fs.h"

#define RA_BLOCKS	32

struct ra_window {
	uint64_t start;		/* first block held, UINT64_MAX when empty */
	uint32_t count;
	uint8_t *buf;		/* RA_BLOCKS blocks */
};

int ra_init(struct ra_window *w);
void ra_free(struct ra_window *w);
/* Read block blkaddr of fs into out (4096 bytes); errors as f2_fs_read_block. */
int ra_read(struct f2_fs *fs, struct ra_window *w, uint64_t blkaddr, void *out);
#endif
