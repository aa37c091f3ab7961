// SPDX-License-Identifier: GPL-2.0-or-later
/* concat.c - several devices seen as one address space (mkfs -c volumes). */
#include <stdlib.h>
#include "f2/errors.h"
#include "f2/format.h"
#include "io_private.h"

struct concat {
	uint32_t n;
	struct f2_io *dev[F2_MAX_DEVICES];
	uint64_t start[F2_MAX_DEVICES], len[F2_MAX_DEVICES];
};

typedef int (*span_fn)(struct f2_io *dev, uint64_t off, uint8_t *buf, uint64_t len);

/* Split [off, off+len) at device boundaries and call fn on each piece. */
static int each_span(struct f2_io *io, uint64_t off, uint8_t *buf, uint64_t len, span_fn fn)
{
	struct concat *c = io->priv;

	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	for (uint32_t i = 0; i < c->n && len; i++) {
		if (off >= c->start[i] + c->len[i])
			continue;
		uint64_t in = off - c->start[i];
		uint64_t n = c->len[i] - in < len ? c->len[i] - in : len;
		int err = fn(c->dev[i], in, buf, n);

		if (err)
			return err;
		off += n;
		len -= n;
		if (buf)
			buf += n;
	}
	return 0;
}

static int span_read(struct f2_io *d, uint64_t off, uint8_t *buf, uint64_t len)
{
	return f2_io_read(d, off, buf, (size_t)len);
}
static int span_write(struct f2_io *d, uint64_t off, uint8_t *buf, uint64_t len)
{
	return f2_io_write(d, off, buf, (size_t)len);
}
static int span_discard(struct f2_io *d, uint64_t off, uint8_t *buf, uint64_t len)
{
	(void)buf;
	return f2_io_discard(d, off, len);
}
static int span_zero(struct f2_io *d, uint64_t off, uint8_t *buf, uint64_t len)
{
	(void)buf;
	return f2_io_zero(d, off, len);
}

static int c_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	return each_span(io, off, buf, len, span_read);
}
static int c_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	return each_span(io, off, (uint8_t *)buf, len, span_write);
}
static int c_discard(struct f2_io *io, uint64_t off, uint64_t len)
{
	return each_span(io, off, NULL, len, span_discard);
}
static int c_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	return each_span(io, off, NULL, len, span_zero);
}
static int c_flush(struct f2_io *io)
{
	struct concat *c = io->priv;
	int err = 0;

	for (uint32_t i = 0; i < c->n; i++) {
		int e = f2_io_flush(c->dev[i]);

		if (!err)
			err = e;
	}
	return err;
}
static void c_close(struct f2_io *io)
{
	struct concat *c = io->priv;

	for (uint32_t i = 0; i < c->n; i++)
		f2_io_close(c->dev[i]);
	free(c);
}

static const struct f2_io_ops concat_ops = {
	.name = "concat", .read = c_read, .write = c_write, .flush = c_flush,
	.discard = c_discard, .zero = c_zero, .close = c_close,
};

int f2_io_open_concat(struct f2_io **devs, const uint64_t *lens, uint32_t n,
		      struct f2_io **out)
{
	struct concat *c;
	uint64_t total = 0;

	if (n < 1 || n > F2_MAX_DEVICES)
		return F2_EBADOPT;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -12;
	c->n = n;
	for (uint32_t i = 0; i < n; i++) {
		if (lens[i] > devs[i]->size) {
			free(c);
			return F2_ERANGE;
		}
		c->dev[i] = devs[i];
		c->start[i] = total;
		c->len[i] = lens[i];
		total += lens[i];
	}
	*out = f2_io_alloc(&concat_ops, total, devs[0]->name, NULL);
	if (!*out) {
		free(c);
		return -12;
	}
	(*out)->priv = c;
	return 0;
}
