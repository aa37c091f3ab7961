// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * batchread.c - reading runs of host files with one io_uring submission
 * each (batchread.h).  Each file is opened and checked (regular, no
 * holes, at most a fixed size), packed into an arena, and read with one
 * request per file; the submission goes to the block layer as one plug,
 * so files lying next to each other on the disk become one request.  Two
 * arenas: the run being copied and the next run of the same directory,
 * read meanwhile.  A file the batch did not read whole is left to the
 * caller.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "batchread.h"

#ifdef HAVE_URING
#include <liburing.h>

#define BATCH_ARENA	(16u << 20)	/* bytes read in one batch, at most */
#define BATCH_FILE_MAX	(4u << 20)	/* larger files: the caller reads them */

struct entry {
	size_t off, len;		/* in the arena */
	int fd;				/* open while its read is in flight */
	int ok;				/* read whole */
	struct stat st;
};

/* One batch: a run of names[base..base+n) of one directory's list. */
struct set {
	char *arena;
	char *const *names;
	size_t base, n;
	unsigned pending;		/* reads submitted, not yet completed */
	struct entry e[POP_BATCH_MAX];
};

/* Close set t's files: they stay open until it is reused, for the
 * caller's fstat and xattr reads (pop_batch_file). */
static void close_set(struct set *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].fd >= 0) {
			close(t->e[i].fd);
			t->e[i].fd = -1;
		}
	t->n = 0;
}

/* user_data of a warming statx (set reads carry the set in bit 32) */
#define WARM_TAG	(1ull << 40)

/* Two sets: the current one, whose files are being copied, and the next
 * run of the same directory, read meanwhile.  The run after that has its
 * inodes looked up ahead (statx in the kernel's workers), so the next
 * start's opens find them cached instead of each waiting for the disk. */
struct pop_batch {
	struct io_uring ring;
	struct set set[2];
	int cur;
	unsigned warming;		/* statx in flight */
	int unsubmitted;		/* a submission failed: its entries wait in the ring */
	int broken;			/* the ring failed: nothing is batched any more */
	struct statx wst[POP_BATCH_MAX];	/* their results, unused */
	char (*wpath)[PATH_MAX];	/* their paths, read at submission */
};

struct pop_batch *pop_batch_new(void)
{
	struct pop_batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->set[0].arena = malloc(BATCH_ARENA);
	b->set[1].arena = malloc(BATCH_ARENA);
	b->wpath = malloc(POP_BATCH_MAX * sizeof(*b->wpath));
	if (!b->set[0].arena || !b->set[1].arena || !b->wpath ||
	    io_uring_queue_init(4 * POP_BATCH_MAX, &b->ring, 0) < 0) {
		free(b->set[0].arena);
		free(b->set[1].arena);
		free(b->wpath);
		free(b);
		return NULL;
	}
	return b;
}

/* Wait until set k (2: the warming statx) has nothing in flight
 * (completions of the others are booked as they come). */
static void drain(struct pop_batch *b, int k)
{
	unsigned *left = k < 2 ? &b->set[k].pending : &b->warming;

	while (*left) {
		struct io_uring_cqe *cqe;

		/* what a failed submission left queued goes first: completions
		 * are only waited for what the kernel has */
		if (b->unsubmitted && io_uring_submit(&b->ring) >= 0)
			b->unsubmitted = 0;
		if (b->unsubmitted || io_uring_wait_cqe(&b->ring, &cqe) < 0) {
			/* no completion can be waited for: nothing of it is read */
			for (int j = 0; j < 2; j++) {
				for (size_t i = 0; i < b->set[j].n; i++)
					b->set[j].e[i].ok = 0;
				b->set[j].pending = 0;
			}
			b->warming = 0;
			b->broken = 1;
			break;
		}
		uint64_t d = io_uring_cqe_get_data64(cqe);

		if (d & WARM_TAG) {
			if (b->warming)
				b->warming--;
			io_uring_cqe_seen(&b->ring, cqe);
			continue;
		}
		struct set *o = &b->set[d >> 32 & 1];
		size_t i = (size_t)(d & 0xffffffffu);

		if (i < o->n && cqe->res >= 0 && (size_t)cqe->res == o->e[i].len)
			o->e[i].ok = 1;
		if (o->pending)
			o->pending--;
		io_uring_cqe_seen(&b->ring, cqe);
	}
}

void pop_batch_free(struct pop_batch *b)
{
	if (!b)
		return;
	drain(b, 0);
	drain(b, 1);
	drain(b, 2);
	close_set(&b->set[0]);
	close_set(&b->set[1]);
	io_uring_queue_exit(&b->ring);
	free(b->set[0].arena);
	free(b->set[1].arena);
	free(b->wpath);
	free(b);
}

/* Look up the inodes of names[i..] (at most POP_BATCH_MAX) ahead, in the
 * kernel's workers; nothing waits for them but pop_batch_free. */
static void warm(struct pop_batch *b, const char *dir, char *const *names, size_t i, size_t n)
{
	unsigned k = 0;

	if (b->warming || b->broken)
		return;		/* the last lot is still being looked up, or no ring */
	for (; i < n && k < POP_BATCH_MAX; i++) {
		struct io_uring_sqe *sqe;

		if (!pop_name_is_reg(names[i]) ||
		    (size_t)snprintf(b->wpath[k], PATH_MAX, "%s/%s", dir, names[i]) >= PATH_MAX)
			break;
		sqe = io_uring_get_sqe(&b->ring);
		if (!sqe)
			break;
		io_uring_prep_statx(sqe, AT_FDCWD, b->wpath[k], AT_SYMLINK_NOFOLLOW,
				    STATX_BASIC_STATS, &b->wst[k]);
		io_uring_sqe_set_data64(sqe, WARM_TAG | k);
		k++;
	}
	if (k) {
		b->warming = k;
		if (io_uring_submit(&b->ring) < 0)
			b->unsubmitted = 1;
	}
}

/* What open_entry found: read here, read by the caller (not a regular
 * file, too large for any batch, holes), or a batch file with no room
 * left in this one. */
enum { ENT_READ, ENT_CALLER, ENT_NO_ROOM };

/* Open name in directory dfd for the batch (e->fd, -1 when it is not a
 * regular file). */
static int open_entry(int dfd, const char *name, struct entry *e, size_t room)
{
	e->fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
	if (e->fd < 0)
		e->fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (e->fd < 0)
		return ENT_CALLER;
	if (fstat(e->fd, &e->st) || !S_ISREG(e->st.st_mode)) {
		close(e->fd);
		e->fd = -1;
		return ENT_CALLER;
	}
	e->len = (size_t)e->st.st_size;
	if (e->st.st_size > BATCH_FILE_MAX || (off_t)e->st.st_blocks * 512 < e->st.st_size)
		return ENT_CALLER;
	return e->len <= room ? ENT_READ : ENT_NO_ROOM;
}

/* Open the run of regular files at names[i..] (at most POP_BATCH_MAX,
 * as many as the arena takes) into set k and submit their reads. */
static void start(struct pop_batch *b, int k, const char *dir, char *const *names, size_t i,
		  size_t n)
{
	struct set *t = &b->set[k];
	size_t used = 0;
	int dfd;

	drain(b, k);
	close_set(t);
	t->names = names;
	t->base = i;
	dfd = b->broken ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (dfd >= 0 && i + t->n < n && t->n < POP_BATCH_MAX &&
	       pop_name_is_reg(names[i + t->n])) {
		struct entry *e = &t->e[t->n];
		struct io_uring_sqe *sqe;
		int got;

		memset(e, 0, sizeof(*e));
		got = open_entry(dfd, names[i + t->n], e, BATCH_ARENA - used);
		if (got == ENT_NO_ROOM) {
			close(e->fd);	/* the next run starts with it */
			break;
		}
		t->n++;
		if (got == ENT_CALLER)
			continue;
		e->off = used;
		used += e->len;
		if (!e->len) {
			e->ok = 1;
			continue;
		}
		sqe = io_uring_get_sqe(&b->ring);
		if (!sqe) {
			if (io_uring_submit(&b->ring) < 0)
				b->unsubmitted = 1;
			sqe = io_uring_get_sqe(&b->ring);
		}
		if (!sqe)
			continue;	/* left to the caller */
		io_uring_prep_read(sqe, e->fd, t->arena + e->off, (unsigned)e->len, 0);
		io_uring_sqe_set_data64(sqe, (uint64_t)k << 32 | (t->n - 1));
		t->pending++;
	}
	if (dfd >= 0)
		close(dfd);
	/* refused: the reads stay queued (they cannot be taken back), the
	 * next drain submits them again or gives the whole run up */
	if (t->pending && io_uring_submit(&b->ring) < 0)
		b->unsubmitted = 1;
	if (!t->n && i < n) {
		/* not even the first file: a run of one, left to the caller */
		memset(&t->e[0], 0, sizeof(t->e[0]));
		t->e[0].fd = -1;
		t->n = 1;
	}
}

size_t pop_batch_at(struct pop_batch *b, const char *dir, char *const *names, size_t i, size_t n)
{
	struct set *next = &b->set[!b->cur], *cur;

	if (next->names == names && next->base == i && next->n) {
		b->cur = !b->cur;	/* read ahead: the next run */
	} else {
		start(b, b->cur, dir, names, i, n);
	}
	cur = &b->set[b->cur];
	drain(b, b->cur);
	/* the run after this one, read while this one is copied, and the
	 * inodes of the run after that */
	if (cur->base + cur->n < n && pop_name_is_reg(names[cur->base + cur->n])) {
		start(b, !b->cur, dir, names, cur->base + cur->n, n);
		warm(b, dir, names, next->base + next->n, n);
	} else {
		next->names = NULL;
	}
	return cur->n;
}

int pop_batch_file(const struct pop_batch *b, size_t i, struct stat *st, int *fd)
{
	const struct set *t;

	if (!b)
		return 0;
	t = &b->set[b->cur];
	if (i >= t->n || t->e[i].fd < 0)
		return 0;
	*st = t->e[i].st;
	*fd = t->e[i].fd;
	return 1;
}

int pop_batch_get(const struct pop_batch *b, size_t i, const struct stat *st,
		  const void **buf, size_t *len)
{
	const struct set *t;
	const struct entry *e;

	if (!b)
		return 0;
	t = &b->set[b->cur];
	if (i >= t->n)
		return 0;
	e = &t->e[i];
	if (!e->ok || e->st.st_dev != st->st_dev || e->st.st_ino != st->st_ino ||
	    e->st.st_size != st->st_size || e->st.st_mtim.tv_sec != st->st_mtim.tv_sec ||
	    e->st.st_mtim.tv_nsec != st->st_mtim.tv_nsec)
		return 0;
	*buf = t->arena + e->off;
	*len = e->len;
	return 1;
}

#else /* no liburing: every file read by the caller */

struct pop_batch *pop_batch_new(void)
{
	return NULL;
}

void pop_batch_free(struct pop_batch *b)
{
	(void)b;
}

size_t pop_batch_at(struct pop_batch *b, const char *dir, char *const *names, size_t i, size_t n)
{
	(void)b;
	(void)dir;
	(void)names;
	return i < n ? 1 : 0;
}

int pop_batch_file(const struct pop_batch *b, size_t i, struct stat *st, int *fd)
{
	(void)b;
	(void)i;
	(void)st;
	(void)fd;
	return 0;
}

int pop_batch_get(const struct pop_batch *b, size_t i, const struct stat *st,
		  const void **buf, size_t *len)
{
	(void)b;
	(void)i;
	(void)st;
	(void)buf;
	(void)len;
	return 0;
}
#endif
