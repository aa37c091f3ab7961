/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_private.h - helpers shared by the I/O backends (not installed).
 */
#ifndef F2_IO_PRIVATE_H
#define F2_IO_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "f2/io.h"

/* Zero-fill chunk used by the write-zeroes fallbacks. */
#define F2_IO_ZERO_CHUNK	(1u << 20)

/*
 * Allocate a handle with a copy of name; the backend sets priv afterwards.
 * Returns NULL when out of memory.
 */
struct f2_io *f2_io_alloc(const struct f2_io_ops *ops, uint64_t size,
			  const char *name, struct f2_io *lower);
/* Free the handle itself (name included) without touching priv or lower. */
void f2_io_free(struct f2_io *io);

/* The whole of [off, off + len) of fd read into rbuf, or written from wbuf
 * (rbuf NULL), retrying EINTR and continuing after short transfers (at
 * most 1 GiB a call); 0, -errno, or F2_ESHORTIO at end of file. */
int f2_fd_xfer(int fd, uint64_t off, void *rbuf, const void *wbuf, size_t len);

/* 0 if spec is a valid F2_IO_FAULT spec, else F2_EBADOPT. */
int f2_io_fault_spec_check(const char *spec);

/* True if [off, off + len) lies inside the device, without overflow. */
static inline bool f2_io_in_range(const struct f2_io *io, uint64_t off, uint64_t len)
{
	return off <= io->size && len <= io->size - off;
}

#endif /* F2_IO_PRIVATE_H */
