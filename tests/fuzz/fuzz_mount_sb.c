// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_mount_sb.c - fuzz target "mount_sb": mount.f2fs's check of the
 * volume, mh_fsinfo_read() from mount-helper/fsinfo.c compiled in as it
 * is (f2_fs_open with sb_only, the volume label, then f2_fs_open with the
 * checkpoint, through the unix backend and, for multi-device superblocks,
 * the device-opening path), and mh_fsinfo_state().  The image lives in a
 * memfd (one per base variant) that the patches are written into and
 * restored from the base afterwards; the helper opens it by path,
 * /proc/self/fd/N.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "f2/format.h"
#include "f2/io.h"
#include "fsinfo.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fds[FZ_NVARIANTS] = { -1, -1, -1 };

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned v = size ? data[0] % FZ_NVARIANTS : 0;
	struct patch p = { .fd = image_fd(v), .base = fz_base(v) };
	struct mh_fsinfo fi;
	char path[64], why[512], state[512];

	fz_parse(data, size, patch, &p);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p.fd);
	if (mh_fsinfo_read(path, &fi, why, sizeof(why)) == 0)
		mh_fsinfo_state(&fi, state, sizeof(state));
	p.undo = 1;
	fz_parse(data, size, patch, &p);
	return 0;
}
