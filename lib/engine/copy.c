// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/copy.c - block copies to freshly allocated addresses, in runs of
 * consecutive addresses (engine/copy.h): gc's moves and the roll-forward's
 * data copies.
 */
#include <errno.h>
#include <stdlib.h>
#include "f2/errors.h"
#include "f2/io.h"
#include "internal.h"
#include "copy.h"

int eng_copy_init(struct eng_copy *c)
{
	c->buf = malloc((size_t)ENG_COPY_RUN * F2_BLKSIZE);
	c->src = malloc(ENG_COPY_RUN * sizeof(*c->src));
	c->wn = 0;
	if (c->buf && c->src)
		return 0;
	free(c->buf);
	free(c->src);
	return -ENOMEM;
}

int eng_copy_flush(struct f2_engine *w, struct eng_copy *c)
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
			return eng_fail(w, err, "blocks %u-%u (to copy): read failed: %s", c->src[i],
				       c->src[j - 1], f2_strerror(err));
	}
	err = n ? f2_io_write(io, (uint64_t)c->wstart * F2_BLKSIZE, c->buf,
			      (size_t)n * F2_BLKSIZE) : 0;
	if (err)
		return eng_fail(w, err, "blocks %u-%u (copies): write failed: %s", c->wstart,
			       c->wstart + n - 1, f2_strerror(err));
	return 0;
}

int eng_copy_add(struct f2_engine *w, struct eng_copy *c, uint32_t src, uint32_t naddr)
{
	int err;

	if (c->wn && (naddr != c->wstart + c->wn || c->wn == ENG_COPY_RUN) &&
	    (err = eng_copy_flush(w, c)))
		return err;
	if (!c->wn)
		c->wstart = naddr;
	c->src[c->wn++] = src;
	return 0;
}

void eng_copy_free(struct eng_copy *c)
{
	free(c->buf);
	free(c->src);
}
