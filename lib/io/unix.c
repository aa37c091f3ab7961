/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unix.c - the backend for block devices and regular files.
 *
 * Reads and writes loop until done (retrying EINTR); end-of-file inside the
 * device is F2_ESHORTIO.  The size is fixed at open (st_size or
 * BLKGETSIZE64) and nothing ever reaches past it, so a file never grows.
 * On a zoned block device a discard resets the write pointers of the
 * sequential zones wholly inside the range (lib/io/zoned.c).  Opened with
 * F2_IO_STREAM, a buffered write of at least WRITEBACK_MIN bytes has its
 * writeback started at once (sync_file_range, a hint: a flush still waits
 * for it and reports its errors), so the device writes while the caller
 * computes the next one.  Opened with F2_IO_BEHIND (and not zoned), whole
 * blocks are written behind with O_DIRECT (behind.c); every other access
 * first settles the range it touches, and a flush drains everything.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "f2/errors.h"
#include "f2/zoned.h"
#include "behind.h"
#include "io_private.h"

/* Writes at least this large get their writeback started at once. */
#define WRITEBACK_MIN	(64u << 10)

struct unix_priv {
	int fd;
	bool blkdev;
	bool writable;
	bool stream;		/* F2_IO_STREAM, and not O_DIRECT */
	bool zoned;		/* zoned block device: discard resets zones */
	uint32_t sector;	/* logical sector size of a block device */
	struct f2_behind *wb;	/* F2_IO_BEHIND, when the file takes it */
};

static struct unix_priv *priv_of(struct f2_io *io)
{
	return io->priv;
}

/* Nothing written behind overlaps [off, off + len) afterwards. */
static int settle(struct unix_priv *u, uint64_t off, uint64_t len)
{
	return u->wb ? f2_behind_settle(u->wb, off, len) : 0;
}

static int unix_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	struct unix_priv *u = priv_of(io);
	int ret;

	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	ret = settle(u, off, len);
	return ret ? ret : f2_fd_xfer(u->fd, off, buf, NULL, len);
}

static int write_all(int fd, uint64_t off, const void *buf, size_t len)
{
	return f2_fd_xfer(fd, off, NULL, buf, len);
}

/* Common checks of every modifying call. */
static int check_write(struct f2_io *io, uint64_t off, uint64_t len)
{
	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	if (!priv_of(io)->writable)
		return -EBADF;
	return 0;
}

static int unix_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	struct unix_priv *u = priv_of(io);
	int ret = check_write(io, off, len);

	if (!ret && u->wb && len && off % F2_BEHIND_ALIGN == 0 && len % F2_BEHIND_ALIGN == 0)
		return f2_behind_write(u->wb, off, buf, len);
	if (!ret)
		ret = settle(u, off, len);
	if (!ret)
		ret = write_all(u->fd, off, buf, len);
	/* not on zoned devices: their writes must reach the zones in order,
	 * which only the kernel's own writeback is relied on for here */
	if (!ret && len >= WRITEBACK_MIN && u->stream && !u->zoned)
		(void)sync_file_range(u->fd, (off_t)off, (off_t)len, SYNC_FILE_RANGE_WRITE);
	return ret;
}

static int unix_flush(struct f2_io *io)
{
	struct unix_priv *u = priv_of(io);
	int ret = u->wb ? f2_behind_drain(u->wb) : 0;

	return ret ? ret : fsync(u->fd) ? -errno : 0;
}

/* The last fallback: write zeroes in F2_IO_ZERO_CHUNK pieces. */
static int write_zeroes(int fd, uint64_t off, uint64_t len)
{
	/* Aligned, so the fallback also works for F2_IO_DIRECT. */
	void *zero = aligned_alloc(4096, F2_IO_ZERO_CHUNK);
	int ret = 0;

	if (!zero)
		return -ENOMEM;
	memset(zero, 0, F2_IO_ZERO_CHUNK);
	while (len && !ret) {
		size_t n = len < F2_IO_ZERO_CHUNK ? len : F2_IO_ZERO_CHUNK;

		ret = write_all(fd, off, zero, n);
		off += n;
		len -= n;
	}
	free(zero);
	return ret;
}

/* fallocate(), retrying EINTR; 0 or -errno. */
static int do_fallocate(int fd, int mode, uint64_t off, uint64_t len)
{
	while (fallocate(fd, mode, off, len)) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

static bool unsupported(int err)
{
	return err == -EOPNOTSUPP || err == -ENOSYS || err == -ENOTTY;
}

/* BLKDISCARD/BLKZEROOUT on a sector-aligned range: 0 or -errno. */
static int blk_ioctl(int fd, unsigned long req, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	while (ioctl(fd, req, range)) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

static int unix_discard(struct f2_io *io, uint64_t off, uint64_t len)
{
	struct unix_priv *u = priv_of(io);
	int ret = check_write(io, off, len);

	if (!ret)
		ret = settle(u, off, len);
	if (ret || !len)
		return ret;
	if (u->zoned) {
		/* Sequential zones are emptied by a write-pointer reset. */
		ret = f2_zoned_reset_range(u->fd, off, len, NULL);
	} else if (u->blkdev) {
		/* Shrink to whole sectors: discard is only a hint. */
		uint64_t s = u->sector, end = (off + len) / s * s;

		off = (off + s - 1) / s * s;
		if (end <= off)
			return 0;
		ret = blk_ioctl(u->fd, BLKDISCARD, off, end - off);
	} else {
		ret = do_fallocate(u->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len);
	}
	return unsupported(ret) ? 0 : ret;
}

static int unix_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	struct unix_priv *u = priv_of(io);
	int ret = check_write(io, off, len);

	if (!ret)
		ret = settle(u, off, len);
	if (ret || !len)
		return ret;
	if (u->blkdev) {
		if (off % u->sector == 0 && len % u->sector == 0 &&
		    blk_ioctl(u->fd, BLKZEROOUT, off, len) == 0)
			return 0;
	} else {
		/* A hole reads back as zeroes and frees the blocks. */
		ret = do_fallocate(u->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len);
		if (!unsupported(ret))
			return ret;
		ret = do_fallocate(u->fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, off, len);
		if (!unsupported(ret))
			return ret;
	}
	return write_zeroes(u->fd, off, len);
}

static void unix_close(struct f2_io *io)
{
	struct unix_priv *u = priv_of(io);

	f2_behind_close(u->wb);
	close(u->fd);
	free(u);
}

/* Holes of a regular file (SEEK_DATA); a device has none. */
static int unix_data_at(struct f2_io *io, uint64_t off, uint64_t *next)
{
	struct unix_priv *u = priv_of(io);
	off_t d;

	*next = off;
	if (u->blkdev || off >= io->size)
		return 0;
	if (u->wb && f2_behind_drain(u->wb))
		return 0;	/* "data here": the safe answer */
	d = lseek(u->fd, (off_t)off, SEEK_DATA);
	if (d >= 0)
		*next = (uint64_t)d;
	else if (errno == ENXIO)
		*next = io->size;	/* only a hole up to the end */
	return 0;
}

static const struct f2_io_ops unix_ops = {
	.name = "unix",
	.read = unix_read,
	.write = unix_write,
	.flush = unix_flush,
	.discard = unix_discard,
	.zero = unix_zero,
	.close = unix_close,
	.data_at = unix_data_at,
};

/* Size and sector size of the open fd; F2_EUNSUPP for other file types. */
static int probe(int fd, struct unix_priv *u, uint64_t *size)
{
	struct stat st;
	int sector;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISREG(st.st_mode)) {
		*size = st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return F2_EUNSUPP;
	u->blkdev = true;
	if (ioctl(fd, BLKGETSIZE64, size))
		return -errno;
	if (ioctl(fd, BLKSSZGET, &sector) || sector <= 0)
		sector = 512;
	u->sector = sector;
	u->zoned = f2_zoned_fd_is_zoned(fd);
	return 0;
}

int f2_io_unix_behind(const struct f2_io *io)
{
	return io && io->ops == &unix_ops && priv_of((struct f2_io *)io)->wb;
}

/* Write behind: asked for, writable, not O_DIRECT already, not zoned
 * (whose zones take writes only in order), and not F2_IO_BEHIND=0. */
static bool want_behind(int flags, const struct unix_priv *u)
{
	const char *env = getenv("F2_IO_BEHIND");

	return (flags & F2_IO_BEHIND) && u->writable && !(flags & F2_IO_DIRECT) && !u->zoned &&
	       !(env && !strcmp(env, "0"));
}

int f2_io_open_unix(const char *path, int flags, struct f2_io **out)
{
	int oflags = O_CLOEXEC | (flags & F2_IO_RDWR ? O_RDWR : O_RDONLY);
	struct unix_priv *u;
	struct f2_io *io;
	struct stat st;
	uint64_t size = 0;
	int ret;

	*out = NULL;
	if (flags & ~(F2_IO_RDWR | F2_IO_EXCL | F2_IO_DIRECT | F2_IO_STREAM | F2_IO_BEHIND))
		return F2_EBADOPT;
	if (flags & F2_IO_DIRECT)
		oflags |= O_DIRECT;
	/* O_EXCL without O_CREAT means "not in use" for block devices only. */
	if ((flags & F2_IO_EXCL) && stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		oflags |= O_EXCL;

	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->writable = flags & F2_IO_RDWR;
	u->stream = (flags & F2_IO_STREAM) && !(flags & F2_IO_DIRECT);
	u->fd = open(path, oflags);
	if (u->fd < 0) {
		ret = -errno;
		free(u);
		return ret;
	}
	ret = probe(u->fd, u, &size);
	if (ret)
		goto fail;
	io = f2_io_alloc(&unix_ops, size, path, NULL);
	if (!io) {
		ret = -ENOMEM;
		goto fail;
	}
	io->priv = u;
	if (want_behind(flags, u))
		(void)f2_behind_open(path, u->fd, &u->wb);	/* else through the cache */
	*out = io;
	return 0;
fail:
	close(u->fd);
	free(u);
	return ret;
}
