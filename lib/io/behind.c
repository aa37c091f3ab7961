/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * behind.c - write-behind with O_DIRECT and io_uring (behind.h).
 *
 * SLOTS chunks of CHUNK bytes each.  A chunk is FREE, OPEN (taking
 * writes: a write at or inside its extent lands in its buffer) or BUSY
 * (submitted, its buffer the kernel's until the completion).  At most
 * OPEN_MAX chunks are open at once, one per stream of neighbouring writes
 * (a data log, a node log); a full chunk, or the oldest open one when
 * another is needed, is submitted.  A write that overlaps a chunk it
 * cannot join drains everything first: rare, and the simple way to keep
 * chunks disjoint.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2/errors.h"
#include "behind.h"
#include "io_private.h"

#ifdef HAVE_URING
#include <liburing.h>

#define SLOTS		16
#define CHUNK		(1u << 20)
#define OPEN_MAX	4

enum { FREE, OPEN, BUSY };

struct slot {
	uint8_t *buf;
	uint64_t off;
	size_t len;
	uint64_t seq;		/* opening order: the oldest open goes first */
	int state;
};

struct f2_behind {
	struct io_uring ring;
	int dfd;		/* O_DIRECT */
	int cfd;		/* the caller's buffered descriptor */
	int direct;		/* 0 once the kernel refused a direct write */
	int err;		/* first error, sticky */
	unsigned busy;
	uint64_t seq;
	uint8_t *mem;
	struct slot s[SLOTS];
};

static int overlaps(const struct slot *s, uint64_t off, uint64_t len)
{
	return s->state != FREE && off < s->off + s->len && s->off < off + len;
}

static void fail(struct f2_behind *b, int err)
{
	if (!b->err)
		b->err = err;
}

/* Through the cache: a chunk the kernel would not take directly. */
static void write_cached(struct f2_behind *b, struct slot *s, size_t done)
{
	int err = f2_fd_xfer(b->cfd, s->off + done, NULL, s->buf + done, s->len - done);

	if (err)
		fail(b, err);
}

static void submit(struct f2_behind *b, struct slot *s)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&b->ring);
	int r;

	if (!b->direct || !sqe) {
		write_cached(b, s, 0);
		s->state = FREE;
		return;
	}
	io_uring_prep_write(sqe, b->dfd, s->buf, (unsigned)s->len, s->off);
	io_uring_sqe_set_data64(sqe, (uint64_t)(s - b->s));
	r = io_uring_submit(&b->ring);
	if (r != 1) {
		/* not queued: the slot is still ours */
		write_cached(b, s, 0);
		s->state = FREE;
		return;
	}
	s->state = BUSY;
	b->busy++;
}

/* Wait for one completion and retire its chunk. */
static void reap_one(struct f2_behind *b)
{
	struct io_uring_cqe *cqe;
	struct slot *s;
	int r;

	do
		r = io_uring_wait_cqe(&b->ring, &cqe);
	while (r == -EINTR);
	if (r) {
		/* the ring itself failed: nothing more will complete */
		fail(b, r);
		for (int i = 0; i < SLOTS; i++)
			if (b->s[i].state == BUSY)
				b->s[i].state = FREE;
		b->busy = 0;
		return;
	}
	s = &b->s[io_uring_cqe_get_data64(cqe) % SLOTS];
	r = cqe->res;
	io_uring_cqe_seen(&b->ring, cqe);
	if (r == -EINVAL || r == -EOPNOTSUPP) {
		b->direct = 0;		/* this file takes no direct writes */
		write_cached(b, s, 0);
	} else if (r < 0) {
		fail(b, r);
	} else if ((size_t)r < s->len) {
		write_cached(b, s, (size_t)r);	/* a short write: the rest */
	}
	s->state = FREE;
	b->busy--;
}

/* The oldest open chunk (NULL if none), and how many are open. */
static struct slot *oldest_open(struct f2_behind *b, int *open)
{
	struct slot *old = NULL;

	*open = 0;
	for (int i = 0; i < SLOTS; i++)
		if (b->s[i].state == OPEN) {
			(*open)++;
			if (!old || b->s[i].seq < old->seq)
				old = &b->s[i];
		}
	return old;
}

static int drain(struct f2_behind *b)
{
	struct slot *old;
	int open;

	while ((old = oldest_open(b, &open)))
		submit(b, old);
	while (b->busy)
		reap_one(b);
	return b->err;
}

/* A free slot, submitting or waiting as needed. */
static struct slot *take_slot(struct f2_behind *b)
{
	for (;;) {
		struct slot *free_s = NULL;
		int open;
		struct slot *old = oldest_open(b, &open);

		for (int i = 0; i < SLOTS && !free_s; i++)
			if (b->s[i].state == FREE)
				free_s = &b->s[i];
		if (free_s && open < OPEN_MAX)
			return free_s;
		if (old && (open >= OPEN_MAX || !b->busy))
			submit(b, old);
		else
			reap_one(b);
	}
}

/* The open chunk that [off, ...) extends or lands inside, if any. */
static struct slot *joinable(struct f2_behind *b, uint64_t off)
{
	for (int i = 0; i < SLOTS; i++) {
		struct slot *s = &b->s[i];

		if (s->state == OPEN && off >= s->off && off <= s->off + s->len &&
		    off < s->off + CHUNK)
			return s;
	}
	return NULL;
}

static int overlaps_other(const struct f2_behind *b, const struct slot *self, uint64_t off,
			  uint64_t len)
{
	for (int i = 0; i < SLOTS; i++)
		if (&b->s[i] != self && overlaps(&b->s[i], off, len))
			return 1;
	return 0;
}

int f2_behind_write(struct f2_behind *b, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *src = buf;

	if (off % F2_BEHIND_ALIGN || len % F2_BEHIND_ALIGN)
		return -EINVAL;
	while (len && !b->err) {
		struct slot *s = joinable(b, off);
		size_t n = (s ? s->off : off) + CHUNK - off;

		if (n > len)
			n = len;
		if (overlaps_other(b, s, off, n)) {
			drain(b);	/* the simple way to keep chunks disjoint */
			continue;
		}
		if (!s) {
			s = take_slot(b);
			s->state = OPEN;
			s->off = off;
			s->len = 0;
			s->seq = b->seq++;
		}
		memcpy(s->buf + (off - s->off), src, n);
		if (off + n > s->off + s->len)
			s->len = (size_t)(off + n - s->off);
		if (s->len == CHUNK)
			submit(b, s);
		off += n;
		src += n;
		len -= n;
	}
	return b->err;
}

int f2_behind_settle(struct f2_behind *b, uint64_t off, uint64_t len)
{
	if (overlaps_other(b, NULL, off, len))
		drain(b);
	return b->err;
}

int f2_behind_drain(struct f2_behind *b)
{
	return drain(b);
}

/* Direct I/O works here: a direct read of the first block succeeds. */
static int direct_works(int dfd)
{
	void *blk = aligned_alloc(F2_BEHIND_ALIGN, F2_BEHIND_ALIGN);
	int ok = blk && pread(dfd, blk, F2_BEHIND_ALIGN, 0) >= 0;

	free(blk);
	return ok;
}

int f2_behind_open(const char *path, int cache_fd, struct f2_behind **out)
{
	struct f2_behind *b;

	*out = NULL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->cfd = cache_fd;
	b->direct = 1;
	b->dfd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (b->dfd < 0 || !direct_works(b->dfd))
		goto unsupported;
	b->mem = aligned_alloc(F2_BEHIND_ALIGN, (size_t)SLOTS * CHUNK);
	if (!b->mem)
		goto unsupported;
	if (io_uring_queue_init(SLOTS, &b->ring, 0))
		goto unsupported;
	for (int i = 0; i < SLOTS; i++)
		b->s[i].buf = b->mem + (size_t)i * CHUNK;
	*out = b;
	return 0;
unsupported:
	if (b->dfd >= 0)
		close(b->dfd);
	free(b->mem);
	free(b);
	return F2_EUNSUPP;
}

void f2_behind_close(struct f2_behind *b)
{
	if (!b)
		return;
	drain(b);
	io_uring_queue_exit(&b->ring);
	close(b->dfd);
	free(b->mem);
	free(b);
}

#else /* !HAVE_URING: every open refuses, and the caller writes through the cache */

int f2_behind_open(const char *path, int cache_fd, struct f2_behind **out)
{
	(void)path;
	(void)cache_fd;
	*out = NULL;
	return F2_EUNSUPP;
}

int f2_behind_write(struct f2_behind *b, uint64_t off, const void *buf, size_t len)
{
	(void)b; (void)off; (void)buf; (void)len;
	return F2_EUNSUPP;
}

int f2_behind_settle(struct f2_behind *b, uint64_t off, uint64_t len)
{
	(void)b; (void)off; (void)len;
	return 0;
}

int f2_behind_drain(struct f2_behind *b)
{
	(void)b;
	return 0;
}

void f2_behind_close(struct f2_behind *b)
{
	(void)b;
}
#endif
