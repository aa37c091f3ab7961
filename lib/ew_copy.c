// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ew_copy.c - block copies to freshly allocated addresses, in runs of
 * consecutive addresses (ew_copy.h): gc's moves and the roll-forward's
 * data copies.
 */
#include <errno.h>
#include <stdlib.h>
#include "f2/errors.h"
#include "f2/io.h"
#include "engine_int.h"
#include "ew_copy.h"

int ew_copy_init(struct ew_copy *c)
{
	c->buf = malloc((size_t)EW_COPY_RUN * F2_BLKSIZE);
	c->src = malloc(EW_COPY_RUN * sizeof(*c->src));
	c->wn = 0;
	if (c->buf && c->src)
		return 0;
	free(c->buf);
	free(c->src);
	return -ENOMEM;
}

int ew_copy_flush(struct f2_wfs *w, struct ew_copy *c)
{
	struct f2_io *io = w->fs->io;
	uint32_t n = c->wn, j;
	int err;

	c->wn = 0;
	for (uint32_t i = 0; i < n; i = j) {
		for (j = i + 1; j < n && c->src[j] == c->src[j - 1] + 1; j++)
			;
		err = f2_io_read(io, (uint64_t)c->src[i] * F2_BLKSIZE,
				 c->buf + (size_t)i * F2_BLKSIZE, (size_t)(j - i) * F2_BLKSIZE);
		if (err)
			return ew_fail(w, err, "blocks %u-%u (to copy): read failed: %s", c->src[i],
				       c->src[j - 1], f2_strerror(err));
	}
	err = n ? f2_io_write(io, (uint64_t)c->wstart * F2_BLKSIZE, c->buf,
			      (size_t)n * F2_BLKSIZE) : 0;
	if (err)
		return ew_fail(w, err, "blocks %u-%u (copies): write failed: %s", c->wstart,
			       c->wstart + n - 1, f2_strerror(err));
	return 0;
}

int ew_copy_add(struct f2_wfs *w, struct ew_copy *c, uint32_t src, uint32_t naddr)
{
	int err;

	if (c->wn && (naddr != c->wstart + c->wn || c->wn == EW_COPY_RUN) &&
	    (err = ew_copy_flush(w, c)))
		return err;
	if (!c->wn)
		c->wstart = naddr;
	c->src[c->wn++] = src;
	return 0;
}

void ew_copy_free(struct ew_copy *c)
{
	free(c->buf);
	free(c->src);
}
