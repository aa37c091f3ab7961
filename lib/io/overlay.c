// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * overlay.c - a few blocks held in memory over a device the caller keeps:
 * reads of those blocks come from memory, everything else reaches the
 * device.  While capturing, writes land in memory only (a checkpoint pack
 * built to open a volume whose own is lost, never written); afterwards
 * writes pass through, and a passing write to a held block updates the
 * memory copy too.  Closing the overlay leaves the device open.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2/errors.h"
#include "f2/format.h"
#include "io_private.h"

#define OVERLAY_MAX	64	/* blocks held: a checkpoint pack */

struct overlay_priv {
	struct f2_io *dev;	/* not owned */
	int capture;
	uint32_t n;
	uint64_t blk[OVERLAY_MAX];
	uint8_t *data[OVERLAY_MAX];
};

static int find(const struct overlay_priv *p, uint64_t blk)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (p->blk[i] == blk)
			return (int)i;
	return -1;
}

/* Hold blk with contents buf (a new block, or a new copy). */
static int hold(struct overlay_priv *p, uint64_t blk, const void *buf)
{
	int i = find(p, blk);

	if (i < 0) {
		if (p->n == OVERLAY_MAX)
			return F2_ENOSPC;
		p->data[p->n] = malloc(F2_BLKSIZE);
		if (!p->data[p->n])
			return -ENOMEM;
		p->blk[p->n] = blk;
		i = (int)p->n++;
	}
	memcpy(p->data[i], buf, F2_BLKSIZE);
	return 0;
}

static int ov_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	struct overlay_priv *p = io->priv;
	int err;

	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	err = f2_io_read(p->dev, off, buf, len);
	if (err)
		return err;
	for (uint32_t i = 0; i < p->n; i++) {
		uint64_t b0 = p->blk[i] * F2_BLKSIZE, b1 = b0 + F2_BLKSIZE;
		uint64_t s = off > b0 ? off : b0, e = off + len < b1 ? off + len : b1;

		if (s < e)
			memcpy((uint8_t *)buf + (s - off), p->data[i] + (s - b0), e - s);
	}
	return 0;
}

/* A write into held blocks updates them; the parts outside go to the
 * device unless capturing (then a write must be whole blocks). */
static int ov_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	struct overlay_priv *p = io->priv;
	int err;

	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	if (p->capture) {
		if (off % F2_BLKSIZE || len % F2_BLKSIZE)
			return F2_EBADOPT;
		for (size_t d = 0; d < len; d += F2_BLKSIZE) {
			err = hold(p, (off + d) / F2_BLKSIZE, (const uint8_t *)buf + d);
			if (err)
				return err;
		}
		return 0;
	}
	for (uint32_t i = 0; i < p->n; i++) {
		uint64_t b0 = p->blk[i] * F2_BLKSIZE, b1 = b0 + F2_BLKSIZE;
		uint64_t s = off > b0 ? off : b0, e = off + len < b1 ? off + len : b1;

		if (s < e)
			memcpy(p->data[i] + (s - b0), (const uint8_t *)buf + (s - off), e - s);
	}
	return f2_io_write(p->dev, off, buf, len);
}

static int ov_flush(struct f2_io *io)
{
	struct overlay_priv *p = io->priv;

	return p->capture ? 0 : f2_io_flush(p->dev);
}

static int ov_discard(struct f2_io *io, uint64_t off, uint64_t len)
{
	struct overlay_priv *p = io->priv;

	return p->capture ? F2_EBADOPT : f2_io_discard(p->dev, off, len);
}

static int ov_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	struct overlay_priv *p = io->priv;

	return p->capture ? F2_EBADOPT : f2_io_zero(p->dev, off, len);
}

static void ov_close(struct f2_io *io)
{
	struct overlay_priv *p = io->priv;

	for (uint32_t i = 0; i < p->n; i++)
		free(p->data[i]);
	free(p);
}

static const struct f2_io_ops overlay_ops = {
	.name = "overlay",
	.read = ov_read,
	.write = ov_write,
	.flush = ov_flush,
	.discard = ov_discard,
	.zero = ov_zero,
	.close = ov_close,
};

int f2_io_open_overlay(struct f2_io *dev, struct f2_io **out)
{
	struct overlay_priv *p = calloc(1, sizeof(*p));
	struct f2_io *io;

	if (!p)
		return -ENOMEM;
	io = f2_io_alloc(&overlay_ops, dev->size, dev->name, NULL);
	if (!io) {
		free(p);
		return -ENOMEM;
	}
	p->dev = dev;
	io->priv = p;
	*out = io;
	return 0;
}

void f2_io_overlay_capture(struct f2_io *io, int on)
{
	((struct overlay_priv *)io->priv)->capture = on;
}
