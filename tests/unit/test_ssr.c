// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ssr.c - SSR allocation of the write engine (engine/ssr.c) on an
 * image made by our mkfs:  sixteen 64-block files packed into segments
 * and committed; then, with SSR forced, one of them is deleted and a
 * 600-block file written: the deleted file's blocks were valid at the
 * last checkpoint, so none of them may be reused (a crash would leave
 * that checkpoint pointing at overwritten data) and no segment qualifies
 * for SSR; after a checkpoint another 1200-block file must fill exactly
 * those slots.  Every file is read back.
 *   test_ssr IMG
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/io.h"
#include "unit.h"

#define NA	16
#define ABLK	64
#define BBLK	1200

static uint8_t pat(uint32_t seed, uint64_t off)
{
	return (uint8_t)((off * 2654435761u >> 9) ^ seed ^ (off >> 12));
}

static int write_file(struct f2_engine *w, const char *name, uint32_t seed, uint32_t blocks)
{
	static uint8_t buf[4096];
	struct f2_wattr a = { .mode = S_IFREG | 0644, .mtime = 1700000000 };
	uint32_t ino;

	if (f2_engine_create(w, F2_ROOT_INO, name, strlen(name), &a, &ino))
		return 1;
	for (uint32_t b = 0; b < blocks; b++) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = pat(seed, (uint64_t)b * 4096 + i);
		if (f2_engine_write(w, ino, (uint64_t)b * 4096, buf, sizeof(buf)))
			return 1;
	}
	return 0;
}

/* The block addresses of /name into addr (blocks of them), content checked. */
static int file_addrs(const char *img, const char *name, uint32_t seed, uint32_t *addr,
		      uint32_t blocks)
{
	static uint8_t buf[4096];
	struct f2_fs *fs;
	struct f2_inode_ref ir;
	struct f2_file *f;
	char path[64];
	int hole;

	snprintf(path, sizeof(path), "/%s", name);
	CHECK_EQ(f2_fs_open(img, NULL, &fs), 0);
	if (unit_failures)
		return 1;
	CHECK_EQ(f2_path_lookup(fs, path, &ir), 0);
	CHECK_EQ(f2_file_open_ref(fs, &ir, &f), 0);
	if (unit_failures)
		return 1;
	for (uint32_t b = 0; b < blocks; b++) {
		uint64_t skip;

		CHECK_EQ(f2_file_map(f, b, &addr[b], &skip), 0);
		CHECK_EQ(f2_file_read_block(f, b, buf, &hole), 0);
		CHECK(!hole);
		for (size_t i = 0; i < sizeof(buf) && !unit_failures; i++)
			CHECK_EQ(buf[i], pat(seed, (uint64_t)b * 4096 + i));
	}
	f2_file_close(f);
	f2_fs_close(fs);
	return unit_failures != 0;
}

static int engine_open(const char *img, struct f2_io **io, struct f2_fs **fs,
		       struct f2_engine **w)
{
	CHECK_EQ(f2_io_open(img, F2_IO_RDWR, io), 0);
	if (!unit_failures)
		CHECK_EQ(f2_fs_open_io(*io, NULL, fs), 0);
	if (!unit_failures)
		CHECK_EQ(f2_engine_open(*fs, NULL, w), 0);
	return unit_failures != 0;
}

static void engine_close(struct f2_io *io, struct f2_fs *fs, struct f2_engine *w)
{
	f2_engine_close(w);
	f2_fs_close(fs);
	f2_io_close(io);
}

static unsigned common(const uint32_t *x, uint32_t nx, const uint32_t *y, uint32_t ny)
{
	unsigned n = 0;

	for (uint32_t i = 0; i < nx; i++)
		for (uint32_t j = 0; j < ny; j++)
			n += x[i] == y[j];
	return n;
}

int main(int argc, char **argv)
{
	static uint32_t a1[ABLK], a3[ABLK], b[BBLK], c[BBLK];
	struct f2_engine_stats st;
	struct f2_io *io;
	struct f2_fs *fs;
	struct f2_engine *w;
	char name[16];

	if (argc != 2) {
		fprintf(stderr, "usage: test_ssr IMG\n");
		return 2;
	}
	if (engine_open(argv[1], &io, &fs, &w))
		return 1;
	for (int i = 0; i < NA && !unit_failures; i++) {
		snprintf(name, sizeof(name), "a%d", i);
		CHECK_EQ(write_file(w, name, (uint32_t)i, ABLK), 0);
	}
	CHECK_EQ(f2_engine_checkpoint(w), 0);
	engine_close(io, fs, w);
	if (unit_failures || file_addrs(argv[1], "a3", 3, a3, ABLK) ||
	    file_addrs(argv[1], "a1", 1, a1, ABLK))
		UNIT_DONE();
	if (engine_open(argv[1], &io, &fs, &w))
		return 1;
	CHECK_EQ(f2_engine_unlink(w, F2_ROOT_INO, "a1", 2), 0);
	CHECK_EQ(f2_engine_checkpoint(w), 0);
	engine_close(io, fs, w);

	if (engine_open(argv[1], &io, &fs, &w))
		return 1;
	CHECK_EQ(f2_engine_set_alloc(w, F2_ALLOC_SSR), 0);
	CHECK_EQ(f2_engine_unlink(w, F2_ROOT_INO, "a3", 2), 0);
	CHECK_EQ(write_file(w, "b", 100, BBLK), 0);
	/* a3's slots are free now but valid in the last checkpoint */
	f2_engine_stats(w, &st);
	CHECK(st.ssr_blocks >= ABLK);
	CHECK_EQ(f2_engine_checkpoint(w), 0);
	CHECK_EQ(write_file(w, "c", 200, BBLK), 0);
	f2_engine_stats(w, &st);
	CHECK(st.ssr_blocks >= 2 * ABLK);
	CHECK_EQ(f2_engine_checkpoint(w), 0);
	engine_close(io, fs, w);
	if (unit_failures || file_addrs(argv[1], "b", 100, b, BBLK) ||
	    file_addrs(argv[1], "c", 200, c, BBLK))
		UNIT_DONE();
	CHECK_EQ(common(a1, ABLK, b, BBLK), ABLK);
	CHECK_EQ(common(a3, ABLK, b, BBLK), 0);
	CHECK_EQ(common(a3, ABLK, c, BBLK), ABLK);
	/* the others are intact */
	for (int i = 0; i < NA && !unit_failures; i++) {
		static uint32_t x[ABLK];

		if (i == 1 || i == 3)
			continue;
		snprintf(name, sizeof(name), "a%d", i);
		file_addrs(argv[1], name, (uint32_t)i, x, ABLK);
	}
	UNIT_DONE();
}
