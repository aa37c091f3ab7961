/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io.c - the generic part of the I/O layer: handle allocation, closing a
 * stack of backends, block helpers and f2_io_open(), which builds the
 * unix -> record -> fault stack from the environment.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "f2/errors.h"
#include "f2/format.h"
#include "io_private.h"

struct f2_io *f2_io_alloc(const struct f2_io_ops *ops, uint64_t size,
			  const char *name, struct f2_io *lower)
{
	struct f2_io *io = calloc(1, sizeof(*io));

	if (!io)
		return NULL;
	io->name = strdup(name ? name : ops->name);
	if (!io->name) {
		free(io);
		return NULL;
	}
	io->ops = ops;
	io->size = size;
	io->lower = lower;
	return io;
}

void f2_io_free(struct f2_io *io)
{
	if (!io)
		return;
	free(io->name);
	free(io);
}

/* Each backend's close releases its own state; the stack is walked here. */
void f2_io_close(struct f2_io *io)
{
	while (io) {
		struct f2_io *lower = io->lower;

		if (io->ops->close)
			io->ops->close(io);
		f2_io_free(io);
		io = lower;
	}
}

static int block_offset(uint64_t blkaddr, uint64_t *off)
{
	if (blkaddr > UINT64_MAX / F2_BLKSIZE)
		return F2_ERANGE;
	*off = blkaddr * F2_BLKSIZE;
	return 0;
}

int f2_io_read_block(struct f2_io *io, uint64_t blkaddr, void *buf)
{
	uint64_t off;
	int ret = block_offset(blkaddr, &off);

	return ret ? ret : f2_io_read(io, off, buf, F2_BLKSIZE);
}

int f2_io_write_block(struct f2_io *io, uint64_t blkaddr, const void *buf)
{
	uint64_t off;
	int ret = block_offset(blkaddr, &off);

	return ret ? ret : f2_io_write(io, off, buf, F2_BLKSIZE);
}

/* An unset or empty variable both mean "not requested". */
static const char *env_value(const char *var)
{
	const char *v = getenv(var);

	return v && *v ? v : NULL;
}

int f2_io_open(const char *path, int flags, struct f2_io **out)
{
	const char *logpath = env_value("F2_IO_RECORD");
	const char *spec = env_value("F2_IO_FAULT");
	struct f2_io *io, *top;
	int ret;

	*out = NULL;
	/* A bad spec must not cost the device open or a truncated log. */
	if (spec && (ret = f2_io_fault_spec_check(spec)))
		return ret;
	ret = f2_io_open_unix(path, flags, &io);
	if (ret)
		return ret;
	/* Read-only opens write nothing: never truncate a log for them. */
	if (logpath && (flags & F2_IO_RDWR)) {
		ret = f2_io_open_record(io, logpath, &top);
		if (ret)
			goto fail;
		io = top;
	}
	if (spec) {
		ret = f2_io_open_fault(io, spec, &top);
		if (ret)
			goto fail;
		io = top;
	}
	*out = io;
	return 0;
fail:
	f2_io_close(io);
	return ret;
}
