// SPDX-License-Identifier: GPL-2.0-or-later
/* readahead.c - block reads through a read-ahead window (see readahead.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/io.h"
#include "readahead.h"

int ra_init(struct ra_window *w)
{
	w->start = UINT64_MAX;
	w->count = 0;
	w->buf = malloc((size_t)RA_BLOCKS * F2_BLKSIZE);
	return w->buf ? 0 : -ENOMEM;
}

void ra_free(struct ra_window *w)
{
	free(w->buf);
	w->buf = NULL;
}

int ra_read(struct f2_fs *fs, struct ra_window *w, uint64_t blkaddr, void *out)
{
	uint64_t n, start;

	if (w->start != UINT64_MAX && blkaddr >= w->start && blkaddr < w->start + w->count) {
		memcpy(out, w->buf + (size_t)(blkaddr - w->start) * F2_BLKSIZE, F2_BLKSIZE);
		return 0;
	}
	if (blkaddr >= fs->block_count)
		return f2_fs_read_block(fs, blkaddr, out);	/* the library's error */
	/* an aligned window serves walks that go up and walks that go down */
	start = blkaddr - blkaddr % RA_BLOCKS;
	n = fs->block_count - start;
	if (n > RA_BLOCKS)
		n = RA_BLOCKS;
	w->start = UINT64_MAX;
	if (f2_io_read(fs->io, start * F2_BLKSIZE, w->buf, (size_t)n * F2_BLKSIZE))
		return f2_fs_read_block(fs, blkaddr, out);	/* one block, with the reason */
	w->start = start;
	w->count = (uint32_t)n;
	memcpy(out, w->buf + (size_t)(blkaddr - start) * F2_BLKSIZE, F2_BLKSIZE);
	return 0;
}
