/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparse.c - the backend for Android sparse images (format: sparse_private.h).
 *
 * Reading serves the image from the index of its chunks (sparse_index.c);
 * the file is never changed in place.  A read-write open (4096-byte blocks
 * only) keeps every change in an overlay: an unlinked temporary file in
 * $TMPDIR (else /tmp) holding written blocks at their own offsets, and two
 * bitmaps, the blocks the overlay holds and the blocks zeroed or discarded
 * (discard leaves zeroes).  A write of part of a block first reads the
 * whole block as it stands.
 *
 * Commit: a flush with changes pending writes the whole image as a new
 * sparse file (sparse_encode.c) beside the original, fsyncs it and
 * renames it over the original, then serves from it with an empty
 * overlay.  So the file is always either the image as of some flush or
 * the one before it: a tool killed at any moment leaves the last
 * committed image, never a torn one, and what a flush returned 0 for is
 * on disk.  Close commits pending changes as well, but close cannot
 * report an error: writers flush last (every commit path in the library
 * does).  A new image (f2_io_new_sparse) is created by its first flush,
 * or by close if anything was written: a tool that fails before writing
 * leaves no file.  Each commit rewrites the image, so a commit costs a read and a
 * write of the image's data.  The rename replaces the directory entry:
 * the directory must be writable, hard links to the old file keep the old
 * image, and a symlink's target is what gets replaced.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/falloc.h>

#include "f2/errors.h"
#include "io_private.h"
#include "sparse_private.h"

enum { ST_BASE, ST_HELD, ST_ZERO };	/* where a block's contents are */

struct sparse_priv {
	struct sp_index idx;	/* the committed image */
	int base_fd;		/* its file; -1 for a new image not yet committed */
	bool writable;
	/* read-write opens only */
	char *path;		/* where commits go (symlinks resolved) */
	mode_t mode;		/* permissions of the committed file */
	bool keep_owner;	/* give it the owner of the file it replaces */
	uid_t uid;
	gid_t gid;
	int over_fd;		/* the overlay: written blocks at their offsets */
	uint64_t *held;		/* blocks the overlay holds */
	uint64_t *zeroed;	/* blocks that read as zeroes */
	bool dirty;		/* changed since the last commit */
	bool fresh;		/* a new image: no file yet */
};

static struct sparse_priv *priv_of(struct f2_io *io)
{
	return io->priv;
}

/* ---- block state bitmaps ------------------------------------------------ */

static size_t map_words(uint32_t nblocks)
{
	return ((size_t)nblocks + 63) / 64;
}

static int state_of(const struct sparse_priv *p, uint64_t b)
{
	uint64_t bit = 1ull << (b & 63);

	if (p->zeroed[b >> 6] & bit)
		return ST_ZERO;
	return p->held[b >> 6] & bit ? ST_HELD : ST_BASE;
}

/* Mark n blocks from first as held by the overlay or zeroed (the two
 * never overlap). */
static void mark(struct sparse_priv *p, uint64_t first, uint64_t n, int st)
{
	uint64_t *set = st == ST_HELD ? p->held : p->zeroed;
	uint64_t *clear = st == ST_HELD ? p->zeroed : p->held;

	while (n) {
		uint64_t w = first >> 6, bit = first & 63;
		uint64_t k = 64 - bit < n ? 64 - bit : n;
		uint64_t mask = (k == 64 ? ~0ull : ((1ull << k) - 1)) << bit;

		set[w] |= mask;
		clear[w] &= ~mask;
		first += k;
		n -= k;
	}
}

/* How many blocks from b (at least 1, at most max) share b's state. */
static uint64_t same_run(const struct sparse_priv *p, uint64_t b, uint64_t max)
{
	int st = state_of(p, b);
	uint64_t n = 1;

	while (n < max) {
		uint64_t at = b + n;

		if (!(at & 63) && max - n >= 64) {
			uint64_t z = p->zeroed[at >> 6], h = p->held[at >> 6];

			if ((st == ST_BASE && !(z | h)) || (st == ST_ZERO && z == ~0ull) ||
			    (st == ST_HELD && h == ~0ull)) {
				n += 64;
				continue;
			}
		}
		if (state_of(p, at) != st)
			break;
		n++;
	}
	return n;
}

/* ---- the I/O operations ------------------------------------------------- */

static int do_read(struct sparse_priv *p, uint64_t off, void *buf, size_t len)
{
	uint8_t *out = buf;

	if (!p->writable)
		return sp_index_read(&p->idx, p->base_fd, off, buf, len);
	while (len) {
		uint64_t b = off / SP_BLK, in = off % SP_BLK;
		uint64_t run = same_run(p, b, (in + len + SP_BLK - 1) / SP_BLK);
		size_t n = run * SP_BLK - in < len ? (size_t)(run * SP_BLK - in) : len;
		int ret = 0;

		switch (state_of(p, b)) {
		case ST_ZERO:
			memset(out, 0, n);
			break;
		case ST_HELD:
			ret = sp_pread_all(p->over_fd, out, n, off);
			break;
		default:
			ret = sp_index_read(&p->idx, p->base_fd, off, out, n);
		}
		if (ret)
			return ret;
		out += n;
		off += n;
		len -= n;
	}
	return 0;
}

static int sparse_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	return do_read(priv_of(io), off, buf, len);
}

static int check_write(struct f2_io *io, uint64_t off, uint64_t len)
{
	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	return priv_of(io)->writable ? 0 : -EBADF;
}

/* Whole blocks into the overlay. */
static int put_blocks(struct sparse_priv *p, uint64_t b, const void *data, uint64_t n)
{
	int ret = sp_pwrite_all(p->over_fd, data, n * SP_BLK, b * SP_BLK);

	if (!ret)
		mark(p, b, n, ST_HELD);
	return ret;
}

static int do_write(struct sparse_priv *p, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *src = buf;

	p->dirty = true;
	while (len) {
		uint64_t b = off / SP_BLK, in = off % SP_BLK;
		size_t n;
		int ret;

		if (in || len < SP_BLK) {
			uint8_t blk[SP_BLK];

			n = SP_BLK - in < len ? SP_BLK - in : len;
			ret = do_read(p, b * SP_BLK, blk, SP_BLK);
			memcpy(blk + in, src, n);
			if (!ret)
				ret = put_blocks(p, b, blk, 1);
		} else {
			n = len / SP_BLK * SP_BLK;
			ret = put_blocks(p, b, src, n / SP_BLK);
		}
		if (ret)
			return ret;
		src += n;
		off += n;
		len -= n;
	}
	return 0;
}

static int sparse_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	int ret = check_write(io, off, len);

	return ret ? ret : do_write(priv_of(io), off, buf, len);
}

/* Zero and discard: whole blocks are marked, partial ones written. */
static int sparse_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	static const uint8_t zero[SP_BLK];
	struct sparse_priv *p = priv_of(io);
	uint64_t head, first, n;
	int ret = check_write(io, off, len);

	if (ret || !len)
		return ret;
	head = off % SP_BLK ? SP_BLK - off % SP_BLK : 0;
	if (head > len)
		head = len;
	if (head && (ret = do_write(p, off, zero, head)))
		return ret;
	off += head;
	len -= head;
	first = off / SP_BLK;
	n = len / SP_BLK;
	if (n) {
		p->dirty = true;
		mark(p, first, n, ST_ZERO);
		/* free the overlay's copies; only space is at stake */
		(void)fallocate(p->over_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)(first * SP_BLK), (off_t)(n * SP_BLK));
	}
	off += n * SP_BLK;
	len -= n * SP_BLK;
	return len ? do_write(p, off, zero, len) : 0;
}

/* ---- commit ------------------------------------------------------------- */

/* The encoder's view of the current contents (sparse_encode.c). */
static int src_run(void *ctx, uint64_t blk, uint64_t max, struct sp_run *r)
{
	struct sparse_priv *p = ctx;
	const struct sp_extent *e;

	memset(r, 0, sizeof(*r));
	r->count = same_run(p, blk, max);
	switch (state_of(p, blk)) {
	case ST_ZERO:
		r->type = SP_DONT_CARE;
		return 0;
	case ST_HELD:
		r->type = SP_RAW;
		return 0;
	}
	e = sp_index_find(&p->idx, blk);
	if (e->first + e->count - blk < r->count)
		r->count = e->first + e->count - blk;
	r->type = e->type;
	memcpy(r->fill, e->fill, 4);
	return 0;
}

static int src_read(void *ctx, uint64_t blk, uint32_t n, void *buf)
{
	return do_read(ctx, blk * SP_BLK, buf, (size_t)n * SP_BLK);
}

/* fsync the directory holding path, so a rename in it is durable. */
static int sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, ret = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return ret;
}

/* Fresh, empty bitmaps for nblocks (calloc: untouched pages cost nothing). */
static int new_maps(uint32_t nblocks, uint64_t **held, uint64_t **zeroed)
{
	size_t words = map_words(nblocks) ? map_words(nblocks) : 1;

	*held = calloc(words, sizeof(uint64_t));
	*zeroed = calloc(words, sizeof(uint64_t));
	if (*held && *zeroed)
		return 0;
	free(*held);
	free(*zeroed);
	return -ENOMEM;
}

static int commit(struct sparse_priv *p)
{
	struct sp_source src = { .ctx = p, .run = src_run, .read = src_read };
	struct sp_index nidx = { 0 };
	uint64_t *held = NULL, *zeroed = NULL;
	size_t tlen = strlen(p->path) + sizeof(".tmp.XXXXXX");
	char *tmp = malloc(tlen);
	int fd = -1, ret = -ENOMEM;

	if (!tmp)
		return ret;
	snprintf(tmp, tlen, "%s.tmp.XXXXXX", p->path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		free(tmp);
		return ret;
	}
	/* best effort: only root may give a file away */
	if (p->keep_owner)
		(void)!fchown(fd, p->uid, p->gid);
	ret = fchmod(fd, p->mode) ? -errno : 0;
	if (!ret)
		ret = sp_encode(fd, p->idx.nblocks, &src);
	if (!ret && fsync(fd))
		ret = -errno;
	/* what we wrote must read back as a valid image before it replaces one */
	if (!ret)
		ret = sp_index_parse(fd, &nidx);
	if (!ret)
		ret = new_maps(p->idx.nblocks, &held, &zeroed);
	if (!ret && rename(tmp, p->path))
		ret = -errno;
	if (ret) {
		sp_index_free(&nidx);
		close(fd);
		unlink(tmp);
		free(tmp);
		return ret;
	}
	free(tmp);
	/* serve from the new file, with an empty overlay */
	if (p->base_fd >= 0)
		close(p->base_fd);
	p->base_fd = fd;
	sp_index_free(&p->idx);
	p->idx = nidx;
	free(p->held);
	free(p->zeroed);
	p->held = held;
	p->zeroed = zeroed;
	p->dirty = p->fresh = false;
	(void)ftruncate(p->over_fd, 0);
	return sync_dir(p->path);
}

static int sparse_flush(struct f2_io *io)
{
	struct sparse_priv *p = priv_of(io);

	return p->writable && (p->dirty || p->fresh) ? commit(p) : 0;
}

static void free_priv(struct sparse_priv *p)
{
	if (p->base_fd >= 0)
		close(p->base_fd);
	if (p->over_fd >= 0)
		close(p->over_fd);
	sp_index_free(&p->idx);
	free(p->held);
	free(p->zeroed);
	free(p->path);
	free(p);
}

static void sparse_close(struct f2_io *io)
{
	struct sparse_priv *p = priv_of(io);

	/* no way to report a failure here: see the header comment */
	if (p->writable && p->dirty)
		(void)commit(p);
	free_priv(p);
}

static const struct f2_io_ops sparse_ops = {
	.name = "sparse",
	.read = sparse_read,
	.write = sparse_write,
	.flush = sparse_flush,
	.discard = sparse_zero,
	.zero = sparse_zero,
	.close = sparse_close,
};

/* ---- opening ------------------------------------------------------------ */

/* path with symlinks resolved; a path that does not exist yet keeps its
 * last component, under its resolved directory. */
static int resolve(const char *path, char **out)
{
	char *dir, *base, *rdir;
	size_t len;

	*out = realpath(path, NULL);
	if (*out)
		return 0;
	if (errno != ENOENT)
		return -errno;
	dir = strdup(path);
	base = strdup(path);
	rdir = dir ? realpath(dirname(dir), NULL) : NULL;
	if (!rdir || !base) {
		int ret = dir && base ? -errno : -ENOMEM;

		free(rdir);
		free(dir);
		free(base);
		return ret;
	}
	len = strlen(rdir) + strlen(path) + 2;
	*out = malloc(len);
	if (*out)
		snprintf(*out, len, "%s/%s", rdir, basename(base));
	free(rdir);
	free(dir);
	free(base);
	return *out ? 0 : -ENOMEM;
}

/* The overlay file: created and unlinked at once. */
static int open_overlay(void)
{
	const char *d = getenv("TMPDIR");
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/f2sparse.XXXXXX", d && *d ? d : "/tmp") >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

/* The read-write state: overlay, bitmaps, where to commit; st is the
 * file to be replaced (NULL: a new one, made with mode). */
static int setup_rw(struct sparse_priv *p, const char *path, const struct stat *st,
		    mode_t mode)
{
	int ret = resolve(path, &p->path);

	if (ret)
		return ret;
	p->writable = true;
	p->mode = (st ? st->st_mode : mode) & 07777;
	if (st) {
		p->keep_owner = true;
		p->uid = st->st_uid;
		p->gid = st->st_gid;
	}
	p->over_fd = open_overlay();
	if (p->over_fd < 0)
		return p->over_fd;
	return new_maps(p->idx.nblocks, &p->held, &p->zeroed);
}

static int finish_open(struct sparse_priv *p, const char *path, struct f2_io **out)
{
	struct f2_io *io = f2_io_alloc(&sparse_ops, (uint64_t)p->idx.nblocks * p->idx.blk_sz,
				       path, NULL);

	if (!io) {
		free_priv(p);
		return -ENOMEM;
	}
	io->priv = p;
	*out = io;
	return 0;
}

static struct sparse_priv *new_priv(void)
{
	struct sparse_priv *p = calloc(1, sizeof(*p));

	if (p)
		p->base_fd = p->over_fd = -1;
	return p;
}

int f2_io_open_sparse(const char *path, int flags, struct f2_io **out)
{
	struct sparse_priv *p;
	struct stat st;
	int ret;

	*out = NULL;
	if (flags & ~(F2_IO_RDWR | F2_IO_EXCL | F2_IO_DIRECT | F2_IO_STREAM | F2_IO_BEHIND))
		return F2_EBADOPT;
	p = new_priv();
	if (!p)
		return -ENOMEM;
	/* opened for writing when asked, so permissions fail here; the file
	 * itself is only ever read */
	p->base_fd = open(path, O_CLOEXEC | (flags & F2_IO_RDWR ? O_RDWR : O_RDONLY));
	if (p->base_fd < 0 || fstat(p->base_fd, &st))
		ret = -errno;
	else
		ret = sp_index_parse(p->base_fd, &p->idx);
	if (!ret && (flags & F2_IO_RDWR)) {
		/* the overlay and the encoder work in 4096-byte blocks */
		ret = p->idx.blk_sz == SP_BLK ? setup_rw(p, path, &st, 0) : F2_EUNSUPP;
	}
	if (ret) {
		free_priv(p);
		return ret;
	}
	return finish_open(p, path, out);
}

int f2_io_new_sparse(const char *path, uint64_t size, struct f2_io **out)
{
	struct sparse_priv *p;
	struct stat st, *old = NULL;
	mode_t mode = 0;
	int ret;

	*out = NULL;
	if (size % SP_BLK)
		return F2_EBADOPT;
	if (size / SP_BLK > UINT32_MAX)
		return F2_ETOOBIG;
	if (stat(path, &st) == 0) {
		/* the rename would replace a device node, a directory... */
		if (!S_ISREG(st.st_mode))
			return F2_EUNSUPP;
		if (access(path, W_OK))
			return -errno;
		old = &st;
	} else if (errno == ENOENT) {
		mode_t mask = umask(0);

		umask(mask);
		mode = 0666 & ~mask;
	} else {
		return -errno;
	}
	p = new_priv();
	if (!p)
		return -ENOMEM;
	ret = sp_index_empty(SP_BLK, (uint32_t)(size / SP_BLK), &p->idx);
	if (!ret)
		ret = setup_rw(p, path, old, mode);
	if (ret) {
		free_priv(p);
		return ret;
	}
	p->fresh = true;	/* the file is written at the first flush */
	return finish_open(p, path, out);
}

int f2_io_is_sparse(const char *path)
{
	struct stat st;
	int fd, ret;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = sp_has_magic(fd);
	close(fd);
	return ret;
}
