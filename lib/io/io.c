/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io.c - the generic part of the I/O layer: handle allocation, closing a
 * stack of backends, block helpers and f2_io_open(), which builds the
 * unix (or sparse) -> record -> fault stack from the environment,
 * f2_io_create_sparse(), the same over a new sparse image, and
 * f2_io_open_joined(), the same over the join of a multi-device volume.
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "f2/errors.h"
#include "f2/format.h"
#include "io_private.h"

int f2_fd_xfer(int fd, uint64_t off, void *rbuf, const void *wbuf, size_t len)
{
	for (size_t done = 0; done < len;) {
		size_t chunk = len - done < (1u << 30) ? len - done : (1u << 30);
		ssize_t n = rbuf ? pread(fd, (uint8_t *)rbuf + done, chunk, (off_t)(off + done)) :
				   pwrite(fd, (const uint8_t *)wbuf + done, chunk,
					  (off_t)(off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return F2_ESHORTIO;
		done += (size_t)n;
	}
	return 0;
}

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

/*
 * Stack the recorder (for read-write opens) and the fault backend on io,
 * as F2_IO_RECORD and F2_IO_FAULT ask; io is n devices of lens[] joined.
 * On failure io is closed.
 */
static int stack_env(struct f2_io *io, int flags, const uint64_t *lens, uint32_t n,
		     struct f2_io **out)
{
	const char *logpath = env_value("F2_IO_RECORD");
	const char *spec = env_value("F2_IO_FAULT");
	struct f2_io *top;
	int ret;

	/* Read-only opens write nothing: never truncate a log for them. */
	if (logpath && (flags & F2_IO_RDWR)) {
		ret = f2_io_open_record_joined(io, logpath, lens, n, &top);
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

/* A bad F2_IO_FAULT spec must not cost a device open or a truncated log. */
static int spec_check(void)
{
	const char *spec = env_value("F2_IO_FAULT");

	return spec ? f2_io_fault_spec_check(spec) : 0;
}

int f2_io_open(const char *path, int flags, struct f2_io **out)
{
	struct f2_io *io;
	int ret;

	*out = NULL;
	ret = spec_check();
	/* a path that cannot be probed is left for the unix open to report */
	if (!ret)
		ret = f2_io_is_sparse(path) == 1 ? f2_io_open_sparse(path, flags, &io) :
						   f2_io_open_unix(path, flags, &io);
	return ret ? ret : stack_env(io, flags, &io->size, 1, out);
}

int f2_io_create_sparse(const char *path, uint64_t size, struct f2_io **out)
{
	struct f2_io *io;
	int ret;

	*out = NULL;
	ret = spec_check();
	if (!ret)
		ret = f2_io_new_sparse(path, size, &io);
	return ret ? ret : stack_env(io, F2_IO_RDWR, &io->size, 1, out);
}

int f2_io_open_joined(struct f2_io **devs, const uint64_t *lens, uint32_t n, struct f2_io **out)
{
	struct f2_io *io;
	int ret;

	*out = NULL;
	ret = spec_check();
	if (!ret)
		ret = f2_io_open_concat(devs, lens, n, &io);
	if (ret) {
		for (uint32_t i = 0; i < n; i++)
			if (devs[i])
				f2_io_close(devs[i]);
		return ret;
	}
	return stack_env(io, F2_IO_RDWR, lens, n, out);
}
