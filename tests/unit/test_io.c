/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_io.c - unit tests of the I/O layer: bounds of every backend, the unix
 * backend on a temporary file (zero frees blocks, end-of-file inside the
 * device is F2_ESHORTIO), fault injection, and the write log (every prefix
 * and torn write replays to the right state; damaged logs are errors), and
 * the log of several devices joined (version 2).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <signal.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/format.h"
#include "f2/io.h"
#include "f2/mkfs.h"
#include "unit.h"

#define DEV	65536u		/* size of the small test devices */
#define BLK_TEST_BYTES	(1u << 20)	/* bytes the block device test uses */

/* path = dir/name, in a buffer of PATH_MAX. */
static void tmp_path(char *path, const char *dir, const char *name)
{
	if (snprintf(path, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX) {
		fprintf(stderr, "test_io: path too long: %s/%s\n", dir, name);
		exit(1);
	}
}

/* path = dir/name, a new file of size bytes (a hole). */
static void make_file(char *path, const char *dir, const char *name, uint64_t size)
{
	int fd;

	tmp_path(path, dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(ftruncate(fd, (off_t)size), 0);
	close(fd);
}

static bool all_bytes(const uint8_t *p, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

/* A mem device holding a copy of img. */
static struct f2_io *mem_copy(const uint8_t *img, uint64_t size)
{
	struct f2_io *io;

	if (f2_io_open_mem(size, &io))
		return NULL;
	if (f2_io_write(io, 0, img, size)) {
		f2_io_close(io);
		return NULL;
	}
	return io;
}

static void test_mem(void)
{
	uint8_t buf[F2_BLKSIZE], back[F2_BLKSIZE];
	struct f2_io *io;

	CHECK_EQ(f2_io_open_mem(DEV, &io), 0);
	CHECK_EQ(io->size, DEV);
	CHECK_EQ(f2_io_read(io, 0, back, sizeof(back)), 0);
	CHECK(all_bytes(back, sizeof(back), 0));

	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(f2_io_write_block(io, 15, buf), 0);
	CHECK_EQ(f2_io_read(io, 15 * F2_BLKSIZE, back, sizeof(back)), 0);
	CHECK(!memcmp(buf, back, sizeof(buf)));
	CHECK_EQ(f2_io_read_block(io, 16, back), F2_ERANGE);
	CHECK_EQ(f2_io_write_block(io, 16, buf), F2_ERANGE);
	CHECK_EQ(f2_io_read_block(io, UINT64_MAX / 2, back), F2_ERANGE);

	/* Edges: empty at the end is fine, one byte past is not, nor a wrap. */
	CHECK_EQ(f2_io_read(io, DEV, back, 0), 0);
	CHECK_EQ(f2_io_read(io, DEV - 1, back, 2), F2_ERANGE);
	CHECK_EQ(f2_io_read(io, DEV + 1, back, 0), F2_ERANGE);
	CHECK_EQ(f2_io_write(io, UINT64_MAX - 1, buf, 4), F2_ERANGE);
	CHECK_EQ(f2_io_zero(io, 4096, UINT64_MAX), F2_ERANGE);
	CHECK_EQ(f2_io_discard(io, DEV, 1), F2_ERANGE);
	CHECK_EQ(f2_io_zero(io, 1, DEV), F2_ERANGE);

	CHECK_EQ(f2_io_zero(io, 15 * F2_BLKSIZE + 10, 20), 0);
	CHECK_EQ(f2_io_read_block(io, 15, back), 0);
	CHECK(all_bytes(back, 10, 0x5a));
	CHECK(all_bytes(back + 10, 20, 0));
	CHECK(all_bytes(back + 30, sizeof(back) - 30, 0x5a));
	CHECK_EQ(f2_io_discard(io, 15 * F2_BLKSIZE, F2_BLKSIZE), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	f2_io_close(io);
	f2_io_close(NULL);

	CHECK_EQ(f2_io_open_mem(0, &io), 0);
	CHECK_EQ(f2_io_read(io, 0, back, 1), F2_ERANGE);
	f2_io_close(io);
}

static int64_t blocks_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (int64_t)st.st_blocks;
}

static int64_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (int64_t)st.st_size;
}

/* Whether the temporary directory's file system can punch holes. */
static bool can_punch(const char *dir)
{
	char path[PATH_MAX];
	bool ok;
	int fd;

	tmp_path(path, dir, "punch-probe");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return false;
	ok = ftruncate(fd, 8192) == 0 &&
	     fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096) == 0;
	close(fd);
	unlink(path);
	return ok;
}

static void test_unix(const char *dir)
{
	const size_t fsize = 1 << 20;
	char path[PATH_MAX];
	uint8_t *buf = malloc(fsize);
	struct f2_io *io, *ro;
	int64_t before;

	make_file(path, dir, "unix.img", fsize);

	CHECK_EQ(f2_io_open_unix(path, F2_IO_RDWR, &io), 0);
	CHECK_EQ(io->size, fsize);
	CHECK(!strcmp(io->name, path));
	memset(buf, 0xab, fsize);
	CHECK_EQ(f2_io_write(io, 0, buf, fsize), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	memset(buf, 0, fsize);
	CHECK_EQ(f2_io_read(io, 0, buf, fsize), 0);
	CHECK(all_bytes(buf, fsize, 0xab));

	/* Zero reads back as zeroes, frees blocks and keeps the size. */
	before = blocks_of(path);
	CHECK_EQ(f2_io_zero(io, fsize / 4, fsize / 2), 0);
	CHECK_EQ(f2_io_read(io, 0, buf, fsize), 0);
	CHECK(all_bytes(buf, fsize / 4, 0xab));
	CHECK(all_bytes(buf + fsize / 4, fsize / 2, 0));
	CHECK(all_bytes(buf + 3 * fsize / 4, fsize / 4, 0xab));
	if (can_punch(dir))
		CHECK(blocks_of(path) <= before - (int64_t)(fsize / 2 / 512));
	else
		fprintf(stderr, "note: %s cannot punch holes; block check skipped\n", dir);
	CHECK_EQ(size_of(path), fsize);
	/* Unaligned zero leaves neighbours alone. */
	CHECK_EQ(f2_io_zero(io, 100, 3), 0);
	CHECK_EQ(f2_io_read(io, 96, buf, 10), 0);
	CHECK(all_bytes(buf, 4, 0xab) && all_bytes(buf + 4, 3, 0) && all_bytes(buf + 7, 3, 0xab));
	CHECK_EQ(f2_io_discard(io, 0, 8192), 0);

	/* Nothing reaches past the size, so the file never grows. */
	CHECK_EQ(f2_io_write(io, fsize - 1, buf, 2), F2_ERANGE);
	CHECK_EQ(f2_io_zero(io, fsize, 4096), F2_ERANGE);
	CHECK_EQ(f2_io_discard(io, fsize - 4096, 8192), F2_ERANGE);
	CHECK_EQ(f2_io_read(io, UINT64_MAX, buf, 1), F2_ERANGE);
	CHECK_EQ(size_of(path), fsize);

	/* A file that shrank under us ends inside the device. */
	CHECK_EQ(truncate(path, fsize / 2), 0);
	CHECK_EQ(f2_io_read(io, fsize / 2, buf, 1), F2_ESHORTIO);
	CHECK_EQ(f2_io_read(io, fsize / 2 - 10, buf, 20), F2_ESHORTIO);
	CHECK_EQ(f2_io_read(io, 0, buf, fsize / 2), 0);
	f2_io_close(io);

	/* Read-only handles refuse every modification. */
	CHECK_EQ(f2_io_open_unix(path, F2_IO_RDONLY, &ro), 0);
	CHECK_EQ(f2_io_write(ro, 0, buf, 1), -EBADF);
	CHECK_EQ(f2_io_zero(ro, 0, 1), -EBADF);
	CHECK_EQ(f2_io_discard(ro, 0, 1), -EBADF);
	CHECK_EQ(f2_io_read(ro, 0, buf, 1), 0);
	f2_io_close(ro);

	CHECK_EQ(f2_io_open_unix(path, 0x100, &io), F2_EBADOPT);
	CHECK(io == NULL);
	CHECK_EQ(f2_io_open_unix(dir, F2_IO_RDONLY, &io), F2_EUNSUPP);
	tmp_path(path, dir, "does-not-exist");
	CHECK_EQ(f2_io_open_unix(path, F2_IO_RDONLY, &io), -ENOENT);
	tmp_path(path, dir, "unix.img");
	unlink(path);
	free(buf);
}

/* xorshift: the behind test's reproducible choices */
static uint32_t rnd(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return (uint32_t)(*st >> 11);
}

/*
 * F2_IO_BEHIND against a model in memory: streams of neighbouring block
 * writes (more than its staging holds), rewrites of staged and in-flight
 * blocks, unaligned writes, reads, zeroes and flushes in a seeded random
 * order; every read and the file at the end must equal the model.
 */
static void test_behind(const char *dir)
{
	const size_t fsize = 64u << 20, blk = 4096;
	char path[PATH_MAX];
	uint8_t *model = calloc(1, fsize), *buf = malloc(8u << 20), *got = malloc(8u << 20);
	uint64_t st = 0x9e3779b97f4a7c15ull, streams[3] = { 0, 20u << 20, 40u << 20 };
	struct f2_io *io;
	int fd;

	CHECK(model && buf && got);
	make_file(path, dir, "behind.img", fsize);

	/* off by request, and by F2_IO_BEHIND=0 */
	CHECK_EQ(f2_io_open_unix(path, F2_IO_RDWR, &io), 0);
	CHECK_EQ(f2_io_unix_behind(io), 0);
	f2_io_close(io);
	setenv("F2_IO_BEHIND", "0", 1);
	CHECK_EQ(f2_io_open_unix(path, F2_IO_RDWR | F2_IO_BEHIND, &io), 0);
	CHECK_EQ(f2_io_unix_behind(io), 0);
	f2_io_close(io);
	unsetenv("F2_IO_BEHIND");

	CHECK_EQ(f2_io_open_unix(path, F2_IO_RDWR | F2_IO_BEHIND, &io), 0);
#ifdef HAVE_URING
	/* the test directory takes O_DIRECT (ext4, xfs, tmpfs since 6.6) */
	CHECK_EQ(f2_io_unix_behind(io), 1);
#endif
	for (int step = 0; step < 3000; step++) {
		uint32_t op = rnd(&st) % 100, n = 1 + rnd(&st) % 300;
		uint64_t off = (uint64_t)(rnd(&st) % (fsize / blk)) * blk;
		uint8_t v = (uint8_t)(step * 7 + 1);

		if (op < 55) {
			/* a stream: the next n blocks after its last write */
			uint64_t *s = &streams[rnd(&st) % 3];

			if (*s + (uint64_t)n * blk > fsize)
				*s = 0;
			memset(buf, v, (size_t)n * blk);
			CHECK_EQ(f2_io_write(io, *s, buf, (size_t)n * blk), 0);
			memset(model + *s, v, (size_t)n * blk);
			*s += (uint64_t)n * blk;
		} else if (op < 70) {
			/* anywhere: over staged, in-flight or written blocks */
			n = n % 40 + 1;
			if (off + (uint64_t)n * blk > fsize)
				off = fsize - (uint64_t)n * blk;
			memset(buf, v, (size_t)n * blk);
			CHECK_EQ(f2_io_write(io, off, buf, (size_t)n * blk), 0);
			memset(model + off, v, (size_t)n * blk);
		} else if (op < 78) {
			/* unaligned: through the cache */
			off += rnd(&st) % blk;
			n = 1 + n * 17;
			if (off + n > fsize)
				off = fsize - n;
			memset(buf, v, n);
			CHECK_EQ(f2_io_write(io, off, buf, n), 0);
			memset(model + off, v, n);
		} else if (op < 94) {
			n = (n * 4099) % (2u << 20) + 1;
			off += rnd(&st) % blk;
			if (off + n > fsize)
				off = fsize - n;
			CHECK_EQ(f2_io_read(io, off, got, n), 0);
			CHECK(!memcmp(got, model + off, n));
		} else if (op < 97) {
			n = n % 64 + 1;
			if (off + (uint64_t)n * blk > fsize)
				off = fsize - (uint64_t)n * blk;
			CHECK_EQ(f2_io_zero(io, off, (uint64_t)n * blk), 0);
			memset(model + off, 0, (size_t)n * blk);
		} else {
			CHECK_EQ(f2_io_flush(io), 0);
		}
	}
	CHECK_EQ(f2_io_flush(io), 0);
	f2_io_close(io);
	fd = open(path, O_RDONLY);
	CHECK(fd >= 0);
	for (size_t o = 0; o < fsize; o += 8u << 20) {
		CHECK_EQ(pread(fd, got, 8u << 20, (off_t)o), (ssize_t)(8u << 20));
		CHECK(!memcmp(got, model + o, 8u << 20));
	}
	close(fd);
	unlink(path);
	free(model);
	free(buf);
	free(got);
}

/*
 * F2_IO_BEHIND on a file system that runs out of space (F2_TEST_SMALLFS,
 * a directory on a few MiB of tmpfs; io.bats mounts one as root): the
 * failed direct writes surface by the flush at the latest, as -ENOSPC,
 * and every later write and flush fails too.
 */
static void test_behind_enospc(const char *dir)
{
	const size_t chunk = 1u << 20;
	char path[PATH_MAX];
	uint8_t *buf = malloc(chunk);
	struct f2_io *io;
	int err = 0;

	CHECK(buf != NULL);
	make_file(path, dir, "full.img", 64u << 20);
	CHECK_EQ(f2_io_open_unix(path, F2_IO_RDWR | F2_IO_BEHIND, &io), 0);
#ifdef HAVE_URING
	CHECK_EQ(f2_io_unix_behind(io), 1);
#endif
	memset(buf, 0x5a, chunk);
	for (uint64_t off = 0; off < (32u << 20) && !err; off += chunk)
		err = f2_io_write(io, off, buf, chunk);
	if (!err)
		err = f2_io_flush(io);
	CHECK_EQ(err, -ENOSPC);
	CHECK(f2_io_write(io, 60u << 20, buf, 4096) != 0);
	CHECK(f2_io_flush(io) != 0);
	f2_io_close(io);
	unlink(path);
	free(buf);
}

/*
 * A block device given in F2_TEST_BLKDEV (io.bats makes a loop device when
 * it runs as root); its contents are overwritten.
 */
static void test_blkdev(const char *dev)
{
	uint8_t *buf = malloc(BLK_TEST_BYTES);
	struct f2_io *io, *again;
	uint64_t end;

	CHECK_EQ(f2_io_open_unix(dev, F2_IO_RDWR | F2_IO_EXCL, &io), 0);
	if (!io || !buf)
		goto out;
	CHECK(io->size >= BLK_TEST_BYTES);
	CHECK_EQ(f2_io_open_unix(dev, F2_IO_RDWR | F2_IO_EXCL, &again), -EBUSY);
	memset(buf, 0xc3, BLK_TEST_BYTES);
	CHECK_EQ(f2_io_write(io, 0, buf, BLK_TEST_BYTES), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	/* Aligned zero (BLKZEROOUT) and unaligned zero (written zeroes). */
	CHECK_EQ(f2_io_zero(io, 8192, 8192), 0);
	CHECK_EQ(f2_io_zero(io, 100, 3), 0);
	CHECK_EQ(f2_io_discard(io, 65536, 65536), 0);
	CHECK_EQ(f2_io_discard(io, 1, 100), 0);	/* no whole sector: a no-op */
	CHECK_EQ(f2_io_read(io, 0, buf, 65536), 0);
	CHECK(all_bytes(buf, 100, 0xc3) && all_bytes(buf + 100, 3, 0));
	CHECK(all_bytes(buf + 103, 8192 - 103, 0xc3));
	CHECK(all_bytes(buf + 8192, 8192, 0) && all_bytes(buf + 16384, 65536 - 16384, 0xc3));
	end = io->size;
	CHECK_EQ(f2_io_write(io, end - 1, buf, 1), 0);
	CHECK_EQ(f2_io_write(io, end - 1, buf, 2), F2_ERANGE);
	CHECK_EQ(f2_io_zero(io, end, 512), F2_ERANGE);
	f2_io_close(io);
	/* Written behind (O_DIRECT) beside the exclusive hold. */
	CHECK_EQ(f2_io_open_unix(dev, F2_IO_RDWR | F2_IO_EXCL | F2_IO_BEHIND, &io), 0);
#ifdef HAVE_URING
	CHECK_EQ(f2_io_unix_behind(io), 1);
#endif
	memset(buf, 0x3c, BLK_TEST_BYTES);
	CHECK_EQ(f2_io_write(io, 4096, buf, BLK_TEST_BYTES - 8192), 0);
	CHECK_EQ(f2_io_write(io, 0, buf, 4095), 0);	/* unaligned: through the cache */
	CHECK_EQ(f2_io_read(io, 0, buf, BLK_TEST_BYTES), 0);
	CHECK(all_bytes(buf, 4095, 0x3c) && all_bytes(buf + 4096, BLK_TEST_BYTES - 8192, 0x3c));
	CHECK_EQ(f2_io_flush(io), 0);
	f2_io_close(io);
	/* Once closed, the exclusive hold is gone. */
	CHECK_EQ(f2_io_open_unix(dev, F2_IO_RDONLY | F2_IO_EXCL, &io), 0);
out:
	f2_io_close(io);
	free(buf);
}

static void test_fault(void)
{
	static const char *const bad[] = {
		"", "write", "write:", "write:0", "write:abc", "write:-1", "write:+1",
		"write: 1", "write:1x", "write:3:twice", "write:3:", "read:1:once:",
		"erase:1", "WRITE:1", "write:99999999999999999999999",
	};
	uint8_t buf[64] = { 1 }, back[64];
	struct f2_io *mem, *io;

	/* Persistent: the 3rd modifying call and every later one fail. */
	CHECK_EQ(f2_io_open_mem(DEV, &mem), 0);
	CHECK_EQ(f2_io_open_fault(mem, "write:3", &io), 0);
	CHECK_EQ(io->size, DEV);
	CHECK_EQ(f2_io_write(io, 0, buf, 1), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	CHECK_EQ(f2_io_zero(io, 0, 1), 0);
	CHECK_EQ(f2_io_write(io, 1, buf, 1), F2_EINJECTED);
	CHECK_EQ(f2_io_write(io, 2, buf, 1), F2_EINJECTED);
	CHECK_EQ(f2_io_discard(io, 0, 1), F2_EINJECTED);
	CHECK_EQ(f2_io_flush(io), F2_EINJECTED);
	CHECK_EQ(f2_io_read(io, 0, back, 3), 0);
	CHECK(all_bytes(back, 3, 0));	/* nothing failed reached mem */
	f2_io_close(io);

	/* Once: only the 2nd write fails. */
	CHECK_EQ(f2_io_open_mem(DEV, &mem), 0);
	CHECK_EQ(f2_io_open_fault(mem, "write:2:once", &io), 0);
	CHECK_EQ(f2_io_write(io, 0, buf, 1), 0);
	CHECK_EQ(f2_io_write(io, 1, buf, 1), F2_EINJECTED);
	CHECK_EQ(f2_io_write(io, 2, buf, 1), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	CHECK_EQ(f2_io_read(io, 0, back, 3), 0);
	CHECK(back[0] == 1 && back[1] == 0 && back[2] == 1);
	f2_io_close(io);

	/* Reads count separately from writes. */
	CHECK_EQ(f2_io_open_mem(DEV, &mem), 0);
	CHECK_EQ(f2_io_open_fault(mem, "read:2", &io), 0);
	CHECK_EQ(f2_io_read(io, 0, back, 1), 0);
	CHECK_EQ(f2_io_write(io, 0, buf, 1), 0);
	CHECK_EQ(f2_io_read(io, 0, back, 1), F2_EINJECTED);
	CHECK_EQ(f2_io_read(io, 0, back, 1), F2_EINJECTED);
	CHECK_EQ(f2_io_write(io, 0, buf, 1), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	f2_io_close(io);

	CHECK_EQ(f2_io_open_mem(DEV, &mem), 0);
	CHECK_EQ(f2_io_open_fault(mem, "read:1:once", &io), 0);
	CHECK_EQ(f2_io_read(io, 0, back, 1), F2_EINJECTED);
	CHECK_EQ(f2_io_read(io, 0, back, 1), 0);
	f2_io_close(io);

	/* A bad spec fails and leaves lower with the caller. */
	CHECK_EQ(f2_io_open_mem(DEV, &mem), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = f2_io_open_fault(mem, bad[i], &io);

		if (ret != F2_EBADOPT)
			fprintf(stderr, "spec '%s' gave %d\n", bad[i], ret);
		CHECK(ret == F2_EBADOPT && io == NULL);
	}
	CHECK_EQ(f2_io_write(mem, 0, buf, 1), 0);
	f2_io_close(mem);
}

/* ---- write log -------------------------------------------------------- */

struct op {
	enum f2_log_op op;
	uint64_t off, len;
	uint8_t seed;
};

static const struct op ops[] = {
	{ F2_LOG_WRITE, 0, 4096, 0x11 },
	{ F2_LOG_WRITE, 3 * 4096, 8192, 0x22 },
	{ F2_LOG_FLUSH, 0, 0, 0 },
	{ F2_LOG_WRITE, 100, 33, 0x33 },
	{ F2_LOG_ZERO, 3 * 4096, 4096, 0 },
	{ F2_LOG_WRITE, DEV - 5536, 5536, 0x44 },
	{ F2_LOG_FLUSH, 0, 0, 0 },
	{ F2_LOG_DISCARD, 0, 4096, 0 },
	{ F2_LOG_WRITE, 0, 1, 0x55 },
	{ F2_LOG_WRITE, 20000, 0, 0x66 },
	{ F2_LOG_WRITE, 8192, 4096, 0x77 },
	{ F2_LOG_ZERO, DEV - 1, 1, 0 },
	{ F2_LOG_FLUSH, 0, 0, 0 },
};
#define NOPS	(sizeof(ops) / sizeof(ops[0]))

static void op_data(const struct op *op, uint8_t *buf)
{
	for (uint64_t i = 0; i < op->len; i++)
		buf[i] = (uint8_t)(op->seed + i * 7);
}

static int do_op(struct f2_io *io, const struct op *op, uint8_t *buf)
{
	switch (op->op) {
	case F2_LOG_WRITE:
		op_data(op, buf);
		return f2_io_write(io, op->off, buf, op->len);
	case F2_LOG_FLUSH:
		return f2_io_flush(io);
	case F2_LOG_DISCARD:
		return f2_io_discard(io, op->off, op->len);
	case F2_LOG_ZERO:
		return f2_io_zero(io, op->off, op->len);
	}
	return -EINVAL;
}

/* True if io holds exactly img. */
static bool same(struct f2_io *io, const uint8_t *img)
{
	uint8_t *buf = malloc(io->size);
	bool ok = buf && f2_io_read(io, 0, buf, io->size) == 0 && !memcmp(buf, img, io->size);

	free(buf);
	return ok;
}

/* Records ops onto a patterned base; snap[n] is the state after n ops. */
static void record_ops(const char *log, uint8_t *base, uint8_t (*snap)[DEV])
{
	uint8_t buf[DEV];
	struct f2_io *mem, *io;

	for (size_t i = 0; i < DEV; i++)
		base[i] = (uint8_t)(i * 13 + 1);
	mem = mem_copy(base, DEV);
	CHECK(mem != NULL);
	CHECK_EQ(f2_io_open_record(mem, log, &io), 0);
	CHECK_EQ(io->size, DEV);
	memcpy(snap[0], base, DEV);
	for (size_t n = 0; n < NOPS; n++) {
		CHECK_EQ(do_op(io, &ops[n], buf), 0);
		CHECK_EQ(f2_io_read(io, 0, snap[n + 1], DEV), 0);
	}
	/* Failed calls are not logged. */
	CHECK_EQ(f2_io_write(io, DEV, buf, 1), F2_ERANGE);
	CHECK_EQ(f2_io_zero(io, 1, DEV), F2_ERANGE);
	f2_io_close(io);
}

static void test_replay(const char *log, const uint8_t *base, uint8_t (*snap)[DEV])
{
	uint8_t data[DEV], want[DEV];
	struct f2_log_reader *lr;
	struct f2_log_record rec;
	struct f2_io *io;

	CHECK_EQ(f2_log_count(log), NOPS);

	/* The reader returns the ops back, in order. */
	CHECK_EQ(f2_log_open(log, &lr), 0);
	CHECK_EQ(f2_log_size(lr), DEV);
	for (size_t n = 0; n < NOPS; n++) {
		CHECK_EQ(f2_log_next(lr, &rec), 1);
		CHECK_EQ(rec.op, ops[n].op);
		CHECK_EQ(rec.off, ops[n].off);
		CHECK_EQ(rec.len, ops[n].len);
		if (rec.op == F2_LOG_WRITE) {
			op_data(&ops[n], data);
			CHECK(rec.data && !memcmp(rec.data, data, rec.len));
		}
	}
	CHECK_EQ(f2_log_next(lr, &rec), 0);
	CHECK_EQ(f2_log_next(lr, &rec), 0);
	f2_log_close(lr);

	/* Every prefix, and every prefix plus a torn next write. */
	for (long n = 0; n <= (long)NOPS; n++) {
		static const size_t torn[] = { 1, 7, 4095, 4096, 100000 };

		io = mem_copy(base, DEV);
		CHECK_EQ(f2_log_replay(log, io, n, 0), 0);
		if (!same(io, snap[n]))
			fprintf(stderr, "prefix %ld differs\n", n);
		CHECK(same(io, snap[n]));
		f2_io_close(io);
		for (size_t t = 0; t < sizeof(torn) / sizeof(torn[0]); t++) {
			const struct op *op = &ops[n];
			size_t keep;

			memcpy(want, snap[n], DEV);
			if (n < (long)NOPS && op->op == F2_LOG_WRITE) {
				keep = torn[t] < op->len ? torn[t] : op->len;
				op_data(op, data);
				memcpy(want + op->off, data, keep);
			}
			io = mem_copy(base, DEV);
			CHECK_EQ(f2_log_replay(log, io, n, torn[t]), 0);
			CHECK(same(io, want));
			f2_io_close(io);
		}
	}

	io = mem_copy(base, DEV);
	CHECK_EQ(f2_log_replay(log, io, -1, 0), 0);
	CHECK(same(io, snap[NOPS]));
	CHECK_EQ(f2_log_replay(log, io, NOPS + 1, 0), F2_ERANGE);
	f2_io_close(io);

	/* A device too small for the log fails instead of clipping. */
	CHECK_EQ(f2_io_open_mem(DEV / 2, &io), 0);
	CHECK_EQ(f2_log_replay(log, io, -1, 0), F2_ERANGE);
	f2_io_close(io);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc(1 << 20);

	*len = f && buf ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

/*
 * Cutting the log anywhere loses only the records past the cut; any flipped
 * byte is F2_EBADLOG.  The copy is damaged in place: rewriting whole files
 * this often is slow on ext4.
 */
static void test_damaged_log(const char *dir, const char *log)
{
	char path[PATH_MAX];
	size_t len, ends[NOPS], pos = 24;
	uint8_t *buf = slurp(log, &len), *img = calloc(1, DEV), b;
	struct f2_io *io;
	long want = NOPS;
	int fd;

	for (size_t n = 0; n < NOPS; n++) {
		pos += 24 + (ops[n].op == F2_LOG_WRITE ? ops[n].len + 4 : 0);
		ends[n] = pos;
	}
	CHECK_EQ(pos, len);
	tmp_path(path, dir, "damaged.log");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && pwrite(fd, buf, len, 0) == (ssize_t)len);

	for (size_t i = 0; i < len; i++) {
		b = buf[i] ^ 0xff;
		CHECK_EQ(pwrite(fd, &b, 1, i), 1);
		if (f2_log_count(path) != F2_EBADLOG)
			fprintf(stderr, "flip at %zu not caught\n", i);
		CHECK_EQ(f2_log_count(path), F2_EBADLOG);
		if (i == len - 1) {	/* errors are sticky */
			struct f2_log_reader *lr;
			struct f2_log_record rec;
			int ret;

			CHECK_EQ(f2_log_open(path, &lr), 0);
			while ((ret = f2_log_next(lr, &rec)) == 1)
				;
			CHECK_EQ(ret, F2_EBADLOG);
			CHECK_EQ(f2_log_next(lr, &rec), F2_EBADLOG);
			f2_log_close(lr);
		}
		/* Replay stops with the error, never crashes. */
		if (i % 97 == 0) {
			io = mem_copy(img, DEV);
			CHECK_EQ(f2_log_replay(path, io, -1, 0), F2_EBADLOG);
			f2_io_close(io);
		}
		CHECK_EQ(pwrite(fd, buf + i, 1, i), 1);
	}
	for (size_t cut = len + 1; cut-- > 0;) {
		CHECK_EQ(ftruncate(fd, cut), 0);
		while (want > 0 && ends[want - 1] > cut)
			want--;
		CHECK_EQ(f2_log_count(path), cut < 24 ? F2_EBADLOG : want);
	}
	close(fd);
	unlink(path);

	tmp_path(path, dir, "not-a-log");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "F2IOLOG2 and some more bytes here", 32) == 32);
	close(fd);
	CHECK_EQ(f2_log_count(path), F2_EBADLOG);
	unlink(path);
	CHECK_EQ(f2_log_count(path), -ENOENT);
	free(img);
	free(buf);
}

/*
 * A log that cannot be written: opening fails and leaves lower with the
 * caller; a failed append fails that call and every later modifying one.
 */
static void test_record_failure(const char *dir)
{
	char log[PATH_MAX];
	struct rlimit old, lim;
	uint8_t buf[100] = { 3 };
	struct f2_io *mem, *io;

	CHECK_EQ(f2_io_open_mem(DEV, &mem), 0);
	if (access("/dev/full", W_OK) == 0) {
		CHECK_EQ(f2_io_open_record(mem, "/dev/full", &io), -ENOSPC);
		CHECK(io == NULL);
	}
	CHECK(f2_io_open_record(mem, dir, &io) < 0);	/* a directory */
	CHECK_EQ(f2_io_write(mem, 0, buf, 1), 0);	/* still the caller's */

	/* Let the log grow to 200 bytes: room for one 100-byte write. */
	tmp_path(log, dir, "full.log");
	CHECK_EQ(f2_io_open_record(mem, log, &io), 0);
	CHECK_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 200;
	signal(SIGXFSZ, SIG_IGN);
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
	CHECK_EQ(f2_io_write(io, 0, buf, sizeof(buf)), 0);
	CHECK_EQ(f2_io_write(io, 100, buf, sizeof(buf)), -EFBIG);
	CHECK_EQ(f2_io_flush(io), -EFBIG);
	CHECK_EQ(f2_io_zero(io, 0, 1), -EFBIG);
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	CHECK_EQ(f2_io_read(io, 0, buf, 1), 0);
	CHECK_EQ(buf[0], 3);	/* the zero never reached mem */
	f2_io_close(io);
	CHECK_EQ(f2_log_count(log), 1);	/* the torn second record is the end */
	unlink(log);
}

static void test_open_env(const char *dir)
{
	char img[PATH_MAX], log[PATH_MAX];
	uint8_t buf[F2_BLKSIZE] = { 9 };
	struct f2_io *io;
	int fd;

	tmp_path(img, dir, "env.img");
	tmp_path(log, dir, "env.log");
	fd = open(img, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && ftruncate(fd, DEV) == 0);
	close(fd);

	unsetenv("F2_IO_FAULT");
	setenv("F2_IO_RECORD", log, 1);
	CHECK_EQ(f2_io_open(img, F2_IO_RDWR, &io), 0);
	CHECK(!strcmp(io->name, img));
	CHECK_EQ(f2_io_write_block(io, 1, buf), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	f2_io_close(io);
	CHECK_EQ(f2_log_count(log), 2);

	/* Read-only opens leave the log alone. */
	CHECK_EQ(f2_io_open(img, F2_IO_RDONLY, &io), 0);
	CHECK_EQ(f2_io_read_block(io, 1, buf), 0);
	CHECK_EQ(buf[0], 9);
	f2_io_close(io);
	CHECK_EQ(f2_log_count(log), 2);

	/* Fault sits above the recorder: the failed write is not logged (a
	 * second open by the same process appends to its log). */
	setenv("F2_IO_FAULT", "write:2", 1);
	CHECK_EQ(f2_io_open(img, F2_IO_RDWR, &io), 0);
	CHECK_EQ(f2_io_write_block(io, 2, buf), 0);
	CHECK_EQ(f2_io_write_block(io, 3, buf), F2_EINJECTED);
	CHECK_EQ(f2_io_flush(io), F2_EINJECTED);
	f2_io_close(io);
	CHECK_EQ(f2_log_count(log), 3);

	/* A bad spec fails before the device or the log is touched. */
	setenv("F2_IO_FAULT", "write:two", 1);
	CHECK_EQ(f2_io_open(img, F2_IO_RDWR, &io), F2_EBADOPT);
	CHECK(io == NULL);
	CHECK_EQ(f2_log_count(log), 3);

	/* Empty means unset. */
	setenv("F2_IO_FAULT", "", 1);
	setenv("F2_IO_RECORD", "", 1);
	CHECK_EQ(f2_io_open(img, F2_IO_RDWR, &io), 0);
	CHECK(!strcmp(io->ops->name, "unix"));
	f2_io_close(io);
	unsetenv("F2_IO_FAULT");
	unsetenv("F2_IO_RECORD");
	CHECK_EQ(f2_io_open(img, F2_IO_RDWR | F2_IO_EXCL, &io), 0);
	CHECK(io->lower == NULL);
	f2_io_close(io);
	unlink(img);
	unlink(log);
}

/* ---- joined write log (several devices, version 2) --------------------- */

#define NJ	3
static const uint64_t jlens[NJ] = { DEV, DEV / 2, DEV / 4 };
#define JSIZE	(DEV + DEV / 2 + DEV / 4)

/* Zeroed mem devices of jlens[] joined; NULL on failure. */
static struct f2_io *joined_mem(void)
{
	struct f2_io *devs[NJ], *io;

	for (int i = 0; i < NJ; i++)
		if (f2_io_open_mem(jlens[i], &devs[i]))
			return NULL;
	return f2_io_open_concat(devs, jlens, NJ, &io) ? NULL : io;
}

/* Writes across both device boundaries, a zero, flushes; snap gets the end. */
static void joined_ops(struct f2_io *io, uint8_t *snap)
{
	uint8_t buf[4096];

	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(f2_io_write(io, DEV - 100, buf, 300), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	CHECK_EQ(f2_io_write(io, DEV + DEV / 2 - 2048, buf, 4096), 0);
	CHECK_EQ(f2_io_zero(io, DEV - 50, 100), 0);
	CHECK_EQ(f2_io_write(io, JSIZE - 10, buf, 10), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	CHECK_EQ(f2_io_read(io, 0, snap, JSIZE), 0);
}

/* Replaying all of log onto fresh joined devices gives want. */
static bool joined_replays(const char *log, const uint8_t *want)
{
	uint8_t *got = malloc(JSIZE);
	struct f2_io *io = joined_mem();
	bool ok = got && io && f2_log_replay(log, io, -1, 0) == 0 &&
		  f2_io_read(io, 0, got, JSIZE) == 0 && !memcmp(got, want, JSIZE);

	if (io)
		f2_io_close(io);
	free(got);
	return ok;
}

static void test_joined_log(const char *dir)
{
	uint8_t *snap = malloc(JSIZE), h[28 + 8 * NJ], b;
	uint64_t lens[F2_MAX_DEVICES];
	struct f2_log_reader *lr;
	struct f2_io *io, *rec, *devs[NJ];
	char log[PATH_MAX];
	le32 crc;
	int fd;

	tmp_path(log, dir, "joined.log");
	io = joined_mem();
	CHECK(io != NULL && snap != NULL);
	/* the sizes must add up to the joined device */
	CHECK_EQ(f2_io_open_record_joined(io, log, jlens, NJ - 1, &rec), F2_EBADOPT);
	CHECK_EQ(f2_io_open_record_joined(io, log, jlens, 0, &rec), F2_EBADOPT);
	CHECK_EQ(f2_io_open_record_joined(io, log, jlens, NJ, &rec), 0);
	joined_ops(rec, snap);
	f2_io_close(rec);

	/* one record per call, offsets in the joined space, the device table */
	CHECK_EQ(f2_log_count(log), 6);
	CHECK_EQ(f2_log_open(log, &lr), 0);
	CHECK_EQ(f2_log_size(lr), JSIZE);
	CHECK_EQ(f2_log_devices(lr, lens), NJ);
	CHECK(!memcmp(lens, jlens, sizeof(jlens)));
	f2_log_close(lr);
	CHECK(joined_replays(log, snap));

	/* Header: "F2IOLOG2", size, owner, ndevs, sizes, crc.  Any flipped
	 * byte is F2_EBADLOG, and so is a table that does not add up. */
	fd = open(log, O_RDWR);
	CHECK(fd >= 0 && pread(fd, h, sizeof(h), 0) == (ssize_t)sizeof(h));
	CHECK(!memcmp(h, "F2IOLOG2", 8));
	for (size_t i = 0; i < sizeof(h); i++) {
		b = h[i] ^ 0x10;
		CHECK(pwrite(fd, &b, 1, i) == 1);
		CHECK_EQ(f2_log_count(log), F2_EBADLOG);
		CHECK(pwrite(fd, &h[i], 1, i) == 1);
	}
	h[24] ^= 1;	/* the first device's size, low byte */
	crc = f2_cpu_to_le32(f2_crc32(~0u, h, sizeof(h) - 4));
	memcpy(h + sizeof(h) - 4, &crc, 4);
	CHECK(pwrite(fd, h, sizeof(h), 0) == (ssize_t)sizeof(h));
	CHECK_EQ(f2_log_count(log), F2_EBADLOG);
	close(fd);

	/* f2_io_open_joined records the join as F2_IO_RECORD asks */
	for (int i = 0; i < NJ; i++)
		CHECK_EQ(f2_io_open_mem(jlens[i], &devs[i]), 0);
	unsetenv("F2_IO_FAULT");
	setenv("F2_IO_RECORD", log, 1);
	CHECK_EQ(f2_io_open_joined(devs, jlens, NJ, &io), 0);
	joined_ops(io, snap);
	f2_io_close(io);
	CHECK_EQ(f2_log_count(log), 6);
	CHECK(joined_replays(log, snap));
	/* a bad fault spec: nothing opened, the devices closed, the log kept */
	for (int i = 0; i < NJ; i++)
		CHECK_EQ(f2_io_open_mem(jlens[i], &devs[i]), 0);
	setenv("F2_IO_FAULT", "write:two", 1);
	CHECK_EQ(f2_io_open_joined(devs, jlens, NJ, &io), F2_EBADOPT);
	CHECK(io == NULL);
	CHECK_EQ(f2_log_count(log), 6);
	unsetenv("F2_IO_FAULT");
	unsetenv("F2_IO_RECORD");
	unlink(log);
	free(snap);
}

/* Overlay: held blocks read from memory; captured writes never reach the
 * device; later writes do, and update the held copy; closing it leaves
 * the device open. */
static void test_overlay(void)
{
	uint8_t blk[F2_BLKSIZE], back[2 * F2_BLKSIZE];
	struct f2_io *mem, *ov;

	CHECK_EQ(f2_io_open_mem(DEV, &mem), 0);
	memset(blk, 0x11, sizeof(blk));
	CHECK_EQ(f2_io_write(mem, 0, blk, sizeof(blk)), 0);
	CHECK_EQ(f2_io_write(mem, F2_BLKSIZE, blk, sizeof(blk)), 0);
	CHECK_EQ(f2_io_open_overlay(mem, &ov), 0);
	CHECK_EQ(ov->size, DEV);
	f2_io_overlay_capture(ov, 1);
	memset(blk, 0x22, sizeof(blk));
	CHECK_EQ(f2_io_write(ov, F2_BLKSIZE, blk, sizeof(blk)), 0);
	CHECK_EQ(f2_io_write(ov, 1, blk, 1), F2_EBADOPT);	/* not whole blocks */
	CHECK_EQ(f2_io_flush(ov), 0);
	f2_io_overlay_capture(ov, 0);
	/* a read across both blocks: the device's, then the held one */
	CHECK_EQ(f2_io_read(ov, 0, back, sizeof(back)), 0);
	CHECK(all_bytes(back, F2_BLKSIZE, 0x11));
	CHECK(all_bytes(back + F2_BLKSIZE, F2_BLKSIZE, 0x22));
	CHECK_EQ(f2_io_read(mem, F2_BLKSIZE, back, F2_BLKSIZE), 0);
	CHECK(all_bytes(back, F2_BLKSIZE, 0x11));	/* the capture never reached it */
	/* past capture: a write spanning a held block reaches the device and the copy */
	memset(back, 0x33, sizeof(back));
	CHECK_EQ(f2_io_write(ov, F2_BLKSIZE - 8, back, 16), 0);
	CHECK_EQ(f2_io_read(ov, F2_BLKSIZE, blk, sizeof(blk)), 0);
	CHECK(all_bytes(blk, 8, 0x33) && all_bytes(blk + 8, F2_BLKSIZE - 8, 0x22));
	CHECK_EQ(f2_io_read(mem, F2_BLKSIZE - 8, blk, 16), 0);
	CHECK(all_bytes(blk, 16, 0x33));
	CHECK_EQ(f2_io_read(ov, DEV - 1, blk, 2), F2_ERANGE);
	f2_io_close(ov);
	CHECK_EQ(f2_io_read(mem, 0, blk, 1), 0);	/* still open */
	f2_io_close(mem);
}

int main(void)
{
	const char *base = getenv("TMPDIR");
	char dir[PATH_MAX], log[PATH_MAX];
	uint8_t *img = malloc(DEV);
	uint8_t (*snap)[DEV] = malloc((NOPS + 1) * sizeof(*snap));

	snprintf(dir, sizeof(dir), "%s/test_io.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir) || !img || !snap) {
		perror("test_io: setup");
		return 1;
	}
	test_mem();
	test_unix(dir);
	test_behind(dir);
	if (getenv("F2_TEST_BLKDEV"))
		test_blkdev(getenv("F2_TEST_BLKDEV"));
	if (getenv("F2_TEST_SMALLFS"))
		test_behind_enospc(getenv("F2_TEST_SMALLFS"));
	test_fault();
	test_overlay();
	tmp_path(log, dir, "ops.log");
	record_ops(log, img, snap);
	test_replay(log, img, snap);
	test_damaged_log(dir, log);
	unlink(log);
	test_record_failure(dir);
	test_open_env(dir);
	test_joined_log(dir);
	rmdir(dir);
	free(img);
	free(snap);
	UNIT_DONE();
}
