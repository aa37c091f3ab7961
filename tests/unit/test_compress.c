// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_compress.c - compressed files, encoder to engine:
 *   test_compress            every encoder this build has: clusters of 4
 *                            to 256 blocks round-trip through
 *                            f2_decompress (lzo-rle's plain LZO1X output
 *                            through our lzo-rle decoder); random bytes do
 *                            not fit a cluster less one block;
 *   test_compress IMG        on a volume with the compression feature:
 *                            files written compressed through the engine
 *                            (a cluster rewritten whole, a partial write
 *                            into a compressed cluster and a shrink
 *                            refused, a compressed file deleted, one
 *                            released), checkpointed, read back through
 *                            the read path with i_compr_blocks and
 *                            i_blocks as the kernel counts them.  bats
 *                            (tests/engine/engine.bats) runs both fscks.
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

#define BLK	4096

static void text(uint8_t *buf, size_t n, unsigned seed)
{
	size_t o = 0;

	for (unsigned i = 0; o < n; i++) {
		char line[64];
		int l = snprintf(line, sizeof(line), "%u: line %u of the text\n", seed, i);

		memcpy(buf + o, line, n - o < (size_t)l ? n - o : (size_t)l);
		o += (size_t)l;
	}
}

static void noise(uint8_t *buf, size_t n, uint32_t x)
{
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
}

static void coders(void)
{
	static const int algos[] = { F2_COMPRESS_LZO, F2_COMPRESS_LZ4, F2_COMPRESS_ZSTD,
				     F2_COMPRESS_LZORLE };
	size_t max = (size_t)BLK << F2_MAX_CLUSTER_LOG;
	uint8_t *in = malloc(max), *out = malloc(max), *back = malloc(max);

	CHECK(in && out && back);
	if (!in || !out || !back)
		return;
	for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		for (int level = 0; level <= 9; level += 9) {
			struct f2_compressor *c;
			size_t clen, used;

			if (!(f2_compress_supported() & (1u << algos[a]))) {
				CHECK_EQ(f2_compressor_new(algos[a], level, max, &c), F2_EUNSUPP);
				continue;
			}
			CHECK_EQ(f2_compressor_new(algos[a], level, max, &c), 0);
			for (int log = F2_MIN_CLUSTER_LOG; log <= F2_MAX_CLUSTER_LOG; log++) {
				size_t n = (size_t)BLK << log;

				text(in, n, (unsigned)log);
				CHECK_EQ(f2_compressor_run(c, in, n, out, n - BLK, &clen), 0);
				CHECK(clen > 0 && clen < n / 2);
				CHECK_EQ(f2_decompress(algos[a], out, clen, back, n, &used), 0);
				CHECK_EQ(used, n);
				CHECK(!memcmp(in, back, n));
				noise(in, n, (uint32_t)log);
				CHECK_EQ(f2_compressor_run(c, in, n, out, n - BLK, &clen), 1);
			}
			CHECK_EQ(f2_compressor_run(c, in, max + 1, out, max, &clen), F2_EBADOPT);
			f2_compressor_free(c);
		}
	}
	free(in);
	free(out);
	free(back);
}

#define OK(x) do { int e_ = (x); if (e_) { fprintf(stderr, "%s:%d: %s: %s (%s)\n", \
	__FILE__, __LINE__, #x, f2_strerror(e_), f2_engine_why(w)); return 1; } } while (0)

static struct f2_wattr attr(void)
{
	struct f2_wattr a = { .mode = S_IFREG | 0644, .mtime = 1700000000 };

	return a;
}

/* the files: text of 10 clusters and 2 blocks (a partial last cluster),
 * noise of 8 blocks, text with cluster 1 rewritten as noise, released text */
#define NTEXT	(10 * 4 * BLK + 2 * BLK + 100)

static int make(struct f2_engine *w, uint8_t *buf, uint32_t ino[4])
{
	struct f2_compress_opts o = { .algo = F2_COMPRESS_LZ4, .log_cluster = 2 };
	struct f2_wattr a = attr();
	static const char *const names[] = { "text", "noise", "rewritten", "released", "gone" };
	uint32_t gone;

	if (!(f2_compress_supported() & (1u << F2_COMPRESS_LZ4)))
		o.algo = F2_COMPRESS_ZSTD;
	for (int i = 0; i < 5; i++) {
		uint32_t *p = i < 4 ? &ino[i] : &gone;

		OK(f2_engine_create(w, F2_ROOT_INO, names[i], strlen(names[i]), &a, p));
		o.release = i == 3;
		OK(f2_engine_set_compress(w, *p, &o));
	}
	text(buf, NTEXT, 1);
	OK(f2_engine_write(w, ino[0], 0, buf, NTEXT));
	OK(f2_engine_write(w, ino[2], 0, buf, NTEXT));
	OK(f2_engine_write(w, ino[3], 0, buf, NTEXT));
	OK(f2_engine_write(w, gone, 0, buf, NTEXT));
	noise(buf, 8 * BLK, 7);
	OK(f2_engine_write(w, ino[1], 0, buf, 8 * BLK));
	/* cluster 1 of "rewritten" whole, as noise: stored plain */
	OK(f2_engine_write(w, ino[2], 4 * BLK, buf, 4 * BLK));
	CHECK_EQ(f2_engine_write(w, ino[2], 9 * BLK, buf, 100), F2_EUNSUPP);
	CHECK_EQ(f2_engine_truncate(w, ino[0], BLK), F2_EUNSUPP);
	/* a plain file cannot turn compressed once it has data */
	CHECK_EQ(f2_engine_set_compress(w, ino[1], &o), F2_EUNSUPP);
	OK(f2_engine_unlink(w, F2_ROOT_INO, "gone", 4));
	OK(f2_engine_checkpoint(w));
	return 0;
}

/* ino holds want[0, n), i_compr_blocks in [lo, hi], i_blocks blocks */
static void check_file(struct f2_fs *fs, uint32_t ino, const uint8_t *want, size_t n,
		       uint64_t lo, uint64_t hi, uint64_t blocks)
{
	struct f2_file *f;
	uint8_t *got = malloc(n + 1);

	CHECK(got);
	CHECK_EQ(f2_file_open(fs, ino, &f), 0);
	if (!got || unit_failures) {
		free(got);
		return;
	}
	CHECK_EQ(f->ir.size, n);
	CHECK_EQ(f->ir.cluster_blocks, 4);
	CHECK_EQ(f2_file_pread(f, 0, got, n + 1), (long)n);
	CHECK(!memcmp(got, want, n));
	CHECK(f2_le64(f->ir.node.i.i_compr_blocks) >= lo);
	CHECK(f2_le64(f->ir.node.i.i_compr_blocks) <= hi);
	CHECK_EQ(f2_le64(f->ir.node.i.i_blocks), blocks);
	f2_file_close(f);
	free(got);
}

static int volume(const char *img)
{
	uint8_t *buf = malloc(NTEXT), *want = malloc(NTEXT);
	struct f2_engine *w = NULL;
	struct f2_io *io = NULL;
	struct f2_fs *fs = NULL, *fs2 = NULL;
	uint32_t ino[4];
	uint64_t tblocks;
	int rc = 1;

	if (!buf || !want)
		return 1;
	CHECK_EQ(f2_io_open(img, F2_IO_RDWR, &io), 0);
	if (!unit_failures)
		CHECK_EQ(f2_fs_open_io(io, NULL, &fs), 0);
	if (!unit_failures)
		CHECK_EQ(f2_engine_open(fs, NULL, &w), 0);
	if (!unit_failures)
		rc = make(w, buf, ino);
	f2_engine_close(w);
	if (fs)
		f2_fs_close(fs);
	if (rc || unit_failures)
		goto out;
	CHECK_EQ(f2_fs_open_io(io, NULL, &fs2), 0);
	if (unit_failures)
		goto out;
	text(want, NTEXT, 1);
	/* 10 clusters compressed (each leaving its 4 slots charged), 3 blocks
	 * plain; the inode */
	tblocks = 1 + 10 * 4 + 3;
	{
		struct f2_file *f;

		CHECK_EQ(f2_file_open(fs2, ino[0], &f), 0);
		if (!unit_failures) {
			uint64_t compr = f2_le64(f->ir.node.i.i_compr_blocks);

			/* text saves 2 or 3 blocks a cluster */
			CHECK(compr >= 20 && compr <= 30);
			f2_file_close(f);
			check_file(fs2, ino[0], want, NTEXT, compr, compr, tblocks);
			/* "rewritten": cluster 1 plain (saves nothing) */
			memcpy(want + 4 * BLK, buf, 4 * BLK);
			check_file(fs2, ino[2], want, NTEXT, compr - 3, compr - 2, tblocks);
			/* released: no reservations, heads uncharged */
			text(want, NTEXT, 1);
			check_file(fs2, ino[3], want, NTEXT, 0, 0, tblocks - compr);
		}
	}
	noise(want, 8 * BLK, 7);
	check_file(fs2, ino[1], want, 8 * BLK, 0, 0, 1 + 8);
	f2_fs_close(fs2);
out:
	if (io)
		f2_io_close(io);
	free(buf);
	free(want);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 1)
		coders();
	else if (argc == 2 && volume(argv[1]))
		unit_failures++;
	else if (argc > 2)
		return 2;
	UNIT_DONE();
}
