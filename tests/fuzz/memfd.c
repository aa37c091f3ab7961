// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memfd.c - the input's image as a file, for targets that open a path
 * (the tools' own code: mount.f2fs's check, dump.f2fs, fsck.f2fs).  One
 * memfd per base variant holds the base image; an input's patches are
 * written into it before the run and the base bytes written back after,
 * so a run costs the bytes it patches.  The path is /proc/self/fd/N.
 * A tool that writes the image gets its own copy instead (fz_file_new).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "f2/format.h"
#include "f2/io.h"
#include "harness.h"

static int fds[FZ_NVARIANTS] = { -1, -1, -1 };
static char path[64];

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* The memfd of variant v, holding its base image. */
static int image_fd(unsigned v)
{
	static uint8_t blk[F2_BLKSIZE], zero[F2_BLKSIZE];
	struct f2_io *base;
	int fd;

	if (fds[v] >= 0)
		return fds[v];
	base = fz_base(v);
	fd = memfd_create("fuzz-image", 0);
	if (fd < 0 || ftruncate(fd, (off_t)FZ_IMAGE_BYTES))
		die("memfd");
	for (uint64_t b = 0; b < FZ_IMAGE_BLOCKS; b++) {
		if (f2_io_read_block(base, b, blk))
			die("base image");
		if (memcmp(blk, zero, sizeof(blk)) &&
		    pwrite(fd, blk, sizeof(blk), (off_t)(b * F2_BLKSIZE)) != (ssize_t)sizeof(blk))
			die("memfd write");
	}
	fds[v] = fd;
	return fd;
}

struct patch {
	int fd;
	struct f2_io *base;
	int undo;
};

static void patch(void *ctx, const struct fz_rec *r)
{
	static uint8_t buf[F2_BLKSIZE];
	struct patch *p = ctx;
	off_t off = (off_t)r->blk * F2_BLKSIZE + r->off;
	const uint8_t *src = r->data;

	if (p->undo) {
		if (f2_io_read(p->base, (uint64_t)off, buf, r->len))
			die("base image");
		src = buf;
	}
	if (pwrite(p->fd, src, r->len, off) != (ssize_t)r->len)
		die("memfd write");
}

const char *fz_file_begin(const uint8_t *in, size_t size)
{
	unsigned v = size ? in[0] % FZ_NVARIANTS : 0;
	struct patch p = { .fd = image_fd(v), .base = fz_base(v) };

	fz_parse(in, size, patch, &p);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p.fd);
	return path;
}

void fz_file_end(const uint8_t *in, size_t size)
{
	unsigned v = size ? in[0] % FZ_NVARIANTS : 0;
	struct patch p = { .fd = image_fd(v), .base = fz_base(v), .undo = 1 };

	fz_parse(in, size, patch, &p);
}

int fz_file_new(const uint8_t *in, size_t size)
{
	static uint8_t buf[16 * F2_BLKSIZE];
	unsigned v = size ? in[0] % FZ_NVARIANTS : 0;
	struct patch p = { .fd = memfd_create("fuzz-rw-image", 0), .base = fz_base(v) };
	int src = image_fd(v);
	off_t pos = 0, end;

	if (p.fd < 0 || ftruncate(p.fd, (off_t)FZ_IMAGE_BYTES))
		die("memfd");
	/* the base's data extents (tmpfs reports them), in buf-sized pieces */
	while ((pos = lseek(src, pos, SEEK_DATA)) >= 0) {
		end = lseek(src, pos, SEEK_HOLE);
		if (end < 0)
			die("SEEK_HOLE");
		while (pos < end) {
			size_t n = end - pos < (off_t)sizeof(buf) ? (size_t)(end - pos) : sizeof(buf);

			if (pread(src, buf, n, pos) != (ssize_t)n ||
			    pwrite(p.fd, buf, n, pos) != (ssize_t)n)
				die("memfd copy");
			pos += (off_t)n;
		}
	}
	if (errno != ENXIO)
		die("SEEK_DATA");
	fz_parse(in, size, patch, &p);
	return p.fd;
}

void fz_quiet_stdout(void)
{
	static int done;
	FILE *null;

	if (done)
		return;
	done = 1;
	fflush(stdout);
	null = fopen("/dev/null", "w");
	if (!null || dup2(fileno(null), 1) < 0)
		die("/dev/null");
	fclose(null);
}
