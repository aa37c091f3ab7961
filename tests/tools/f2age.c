// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * f2age - age an image with the write engine, for the gc tests: files
 * whose contents are a function of their name, filled to a share of the
 * user blocks, then every other one deleted, so that most segments end
 * up partly valid; and a checker that reads every surviving file back
 * through the read path and compares it with the generator.
 *
 *   f2age fill IMAGE PCT [DELETE_EVERY]   fill /age to PCT% of the user
 *                                         blocks, checkpoint, delete
 *                                         every DELETE_EVERY-th file
 *                                         (default 2), checkpoint
 *   f2age check IMAGE                     every /age file has its
 *                                         generated content
 * Prints one summary line.  Exit 0 on success, 1 on failure, 2 on usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/fs.h"
#include "f2/gc.h"
#include "f2/io.h"

static const uint32_t sizes[] = { 16384, 65536, 262144, 1048576, 8192, 131072, 524288, 40960 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static uint32_t file_size(uint32_t i)
{
	return sizes[i % NSIZES];
}

/* Content byte k of file i: xorshift over (i, k / 8). */
static void gen(uint32_t i, uint64_t off, uint8_t *buf, size_t len)
{
	for (size_t k = 0; k < len; k++) {
		uint64_t x = ((uint64_t)i << 40) ^ ((off + k) >> 3) ^ 0x9e3779b97f4a7c15ull;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[k] = (uint8_t)(x >> (8 * ((off + k) & 7)));
	}
}

/* (multi-device volumes: every device, read-write, f2_fs_open_rw) */
static int open_rw(const char *path, struct f2_io **io, struct f2_fs **fs, struct f2_engine **w)
{
	char why[F2_WHY_LEN + 64];
	int r = f2_fs_open_rw(path, NULL, io, fs, why, sizeof(why));

	if (r) {
		fprintf(stderr, "f2age: %s: %s\n", path, why);
		return 1;
	}
	r = f2_engine_open(*fs, NULL, w);
	if (r) {
		fprintf(stderr, "f2age: %s: %s\n", path, *fs ? (*fs)->why : f2_strerror(r));
		return 1;
	}
	return 0;
}

static int fill(const char *path, uint32_t pct, uint32_t every)
{
	struct f2_io *io = NULL;
	struct f2_fs *fs = NULL;
	struct f2_engine *w = NULL;
	struct f2_engine_stats st;
	struct f2_wattr a;
	uint32_t dir, n = 0, deleted = 0;
	uint8_t *buf = malloc(1 << 20);
	char name[32];
	int r;

	if (!buf || open_rw(path, &io, &fs, &w)) {
		f2_engine_close(w);
		f2_fs_close(fs);
		if (io)
			f2_io_close(io);
		free(buf);
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.mode = 040755;
	r = f2_engine_create(w, F2_ROOT_INO, "age", 3, &a, &dir);
	a.mode = 0100644;
	for (;;) {
		uint32_t size = file_size(n), ino;

		f2_engine_stats(w, &st);
		if (r || (st.valid_blocks + size / 4096 + 64) * 100 > (uint64_t)pct * st.user_blocks)
			break;
		snprintf(name, sizeof(name), "f%u", n);
		r = f2_engine_create(w, dir, name, strlen(name), &a, &ino);
		for (uint64_t off = 0; !r && off < size; off += 1 << 20) {
			size_t len = size - off < (1u << 20) ? size - off : 1u << 20;

			gen(n, off, buf, len);
			r = f2_engine_write(w, ino, off, buf, len);
		}
		n++;
	}
	if (!r)
		r = f2_engine_checkpoint(w);
	for (uint32_t i = 0; !r && i < n; i += every) {
		snprintf(name, sizeof(name), "f%u", i);
		r = f2_engine_unlink(w, dir, name, strlen(name));
		deleted++;
	}
	if (!r)
		r = f2_engine_checkpoint(w);
	if (r)
		fprintf(stderr, "f2age: %s: %s\n", path, f2_engine_why(w));
	else
		printf("f2age: %u files written, %u deleted\n", n, deleted);
	f2_engine_close(w);
	f2_fs_close(fs);
	f2_io_close(io);
	free(buf);
	return r ? 1 : 0;
}

struct check_ctx {
	struct f2_fs *fs;
	uint8_t *got, *want;
	uint32_t files, bad;
};

static int check_one(void *vctx, const struct f2_dirent *d)
{
	struct check_ctx *c = vctx;
	struct f2_file *f = NULL;
	uint32_t i;
	char *end;
	int r;

	if (d->name[0] != 'f')
		return 0;
	i = (uint32_t)strtoul((const char *)d->name + 1, &end, 10);
	r = f2_file_open(c->fs, d->ino, &f);
	if (r) {
		printf("f%u: %s\n", i, c->fs->why);
		c->bad++;
		return 0;
	}
	if (f->ir.size != file_size(i)) {
		printf("f%u: size %llu, want %u\n", i, (unsigned long long)f->ir.size, file_size(i));
		c->bad++;
	} else {
		for (uint64_t off = 0; off < f->ir.size; off += 1 << 20) {
			size_t len = f->ir.size - off < (1u << 20) ? f->ir.size - off : 1u << 20;

			gen(i, off, c->want, len);
			if (f2_file_pread(f, off, c->got, len) != (long)len ||
			    memcmp(c->got, c->want, len)) {
				printf("f%u: content differs near %llu\n", i, (unsigned long long)off);
				c->bad++;
				break;
			}
		}
	}
	c->files++;
	f2_file_close(f);
	return 0;
}

static int check(const char *path)
{
	struct check_ctx c = { 0 };
	struct f2_inode_ref *dir = malloc(sizeof(*dir));
	int r;

	c.got = malloc(1 << 20);
	c.want = malloc(1 << 20);
	if (!dir || !c.got || !c.want) {
		free(dir);
		free(c.got);
		free(c.want);
		return 1;
	}
	r = f2_fs_open(path, NULL, &c.fs);
	if (!r)
		r = f2_path_lookup(c.fs, "/age", dir);
	if (!r)
		r = f2_dir_iter(c.fs, dir, check_one, &c);
	if (r)
		fprintf(stderr, "f2age: %s: %s\n", path, c.fs ? c.fs->why : f2_strerror(r));
	else
		printf("f2age: %u files checked, %u bad\n", c.files, c.bad);
	f2_fs_close(c.fs);
	free(dir);
	free(c.got);
	free(c.want);
	return r || c.bad || !c.files ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "fill")) {
		uint32_t pct = (uint32_t)strtoul(argv[3], NULL, 10);
		uint32_t every = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 2;

		if (pct < 1 || pct > 99 || every < 1)
			return 2;
		return fill(argv[2], pct, every);
	}
	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	fprintf(stderr, "usage: f2age fill IMAGE PCT [DELETE_EVERY] | f2age check IMAGE\n");
	return 2;
}
