/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * behind.h - write-behind for the unix backend (F2_IO_BEHIND): whole-block
 * writes are copied into a few staging chunks, neighbours merged, and
 * written with O_DIRECT through io_uring while the caller goes on.  The
 * page cache is bypassed (no copy into it, nothing left for the flush to
 * write), and the device works beside the CPU.  Not installed.
 *
 * Ordering: no two staged or in-flight chunks ever overlap (a write over
 * an in-flight one waits for it), and callers settle a range before any
 * other access to it (buffered reads and writes, discards), so every read
 * sees the last write.  Errors are sticky: after a failed write every
 * later write, settle and drain fails with the first error.
 */
#ifndef F2_IO_BEHIND_H
#define F2_IO_BEHIND_H

#include <stddef.h>
#include <stdint.h>

#define F2_BEHIND_ALIGN	4096u	/* offsets and lengths it takes */

struct f2_behind;

/* Open path again with O_DIRECT; F2_EUNSUPP when the file system or the
 * build (no liburing) cannot, and the caller writes through the cache. */
int f2_behind_open(const char *path, int ro_fd, struct f2_behind **out);
/* Stage buf for [off, off + len); both multiples of F2_BEHIND_ALIGN. */
int f2_behind_write(struct f2_behind *b, uint64_t off, const void *buf, size_t len);
/* Nothing staged or in flight overlaps [off, off + len) afterwards. */
int f2_behind_settle(struct f2_behind *b, uint64_t off, uint64_t len);
/* Everything staged is written; the first error of any write. */
int f2_behind_drain(struct f2_behind *b);
/* Drain (errors are lost: drain first) and free. */
void f2_behind_close(struct f2_behind *b);

#endif
