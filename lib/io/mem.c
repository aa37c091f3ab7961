/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem.c - an in-memory device for unit tests and fuzzing.  Discard and zero
 * both leave zeroes, so results never depend on leftover contents.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2/errors.h"
#include "io_private.h"

static int mem_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	memcpy(buf, (uint8_t *)io->priv + off, len);
	return 0;
}

static int mem_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	memcpy((uint8_t *)io->priv + off, buf, len);
	return 0;
}

static int mem_flush(struct f2_io *io)
{
	(void)io;
	return 0;
}

static int mem_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	memset((uint8_t *)io->priv + off, 0, len);
	return 0;
}

static void mem_close(struct f2_io *io)
{
	free(io->priv);
}

static const struct f2_io_ops mem_ops = {
	.name = "mem",
	.read = mem_read,
	.write = mem_write,
	.flush = mem_flush,
	.discard = mem_zero,
	.zero = mem_zero,
	.close = mem_close,
};

int f2_io_open_mem(uint64_t size, struct f2_io **out)
{
	struct f2_io *io;

	*out = NULL;
	if (size > SIZE_MAX)
		return F2_ETOOBIG;
	io = f2_io_alloc(&mem_ops, size, "mem", NULL);
	if (!io)
		return -ENOMEM;
	/* calloc(0) may return NULL: always allocate at least one byte. */
	io->priv = calloc(size ? size : 1, 1);
	if (!io->priv) {
		f2_io_free(io);
		return -ENOMEM;
	}
	*out = io;
	return 0;
}
