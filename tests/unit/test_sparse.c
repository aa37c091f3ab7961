/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sparse.c - unit tests of the Android sparse image backend through
 * its public calls: reading every chunk type (larger headers and small
 * blocks too), hostile headers and chunk tables (each F2_ESPARSE, never a
 * crash), writes against the mem backend as the oracle, nothing reaching
 * the file before a flush (a killed writer leaves it whole), the encoding
 * (deterministic, chunk by chunk), new images, and detection by magic.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "f2/errors.h"
#include "f2/io.h"
#include "unit.h"

/* Facts of the format (sparse_format.h's numbers). */
#define MAGIC		0xed26ff3au
#define RAW		0xcac1
#define FILL		0xcac2
#define DONT_CARE	0xcac3
#define CRC32		0xcac4
#define BLK		4096u

/* ---- building sparse files byte by byte --------------------------------- */

struct img {
	uint8_t *b;
	size_t len, cap;
	size_t fhdr, chdr;	/* header sizes written */
};

static void put(struct img *m, const void *p, size_t n)
{
	if (m->len + n > m->cap) {
		m->cap = (m->len + n) * 2;
		m->b = realloc(m->b, m->cap);
		if (!m->b)
			abort();
	}
	memcpy(m->b + m->len, p, n);
	m->len += n;
}

static void put16(struct img *m, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	put(m, b, 2);
}

static void put32(struct img *m, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put(m, b, 4);
}

static void pad(struct img *m, size_t n)
{
	while (n--)
		put(m, "\0", 1);
}

static void header(struct img *m, uint16_t fhdr, uint16_t chdr, uint32_t blk_sz,
		   uint32_t blocks, uint32_t chunks)
{
	m->len = 0;
	m->fhdr = fhdr;
	m->chdr = chdr;
	put32(m, MAGIC);
	put16(m, 1);
	put16(m, 0);
	put16(m, fhdr);
	put16(m, chdr);
	put32(m, blk_sz);
	put32(m, blocks);
	put32(m, chunks);
	put32(m, 0);
	pad(m, fhdr - 28);
}

static void chunk(struct img *m, uint16_t type, uint32_t count, uint32_t total)
{
	put16(m, type);
	put16(m, 0);
	put32(m, count);
	put32(m, total);
	pad(m, m->chdr - 12);
}

static void set32(struct img *m, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		m->b[at + i] = (uint8_t)(v >> (8 * i));
}

static void save(const char *path, const void *b, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, b, len) != (ssize_t)len) {
		perror(path);
		exit(1);
	}
	close(fd);
}

/* The whole file at path, its length in *len (NULL if unreadable). */
static uint8_t *load(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *b;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	b = malloc(st.st_size + 1);
	*len = (size_t)st.st_size;
	if (!b || read(fd, b, *len) != (ssize_t)*len) {
		free(b);
		b = NULL;
	}
	close(fd);
	return b;
}

static bool same_file(const char *a, const char *b)
{
	size_t la, lb;
	uint8_t *pa = load(a, &la), *pb = load(b, &lb);
	bool same = pa && pb && la == lb && !memcmp(pa, pb, la);

	free(pa);
	free(pb);
	return same;
}

static void path_in(char *out, const char *dir, const char *name)
{
	if (snprintf(out, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		abort();
}

/* ---- reading -------------------------------------------------------------- */

/*
 * An image of 10 blocks of blk_sz: RAW 2 (bytes i*7), FILL 3 (de ad be ef),
 * DONT_CARE 4, a CRC32 chunk, RAW 1 (0x5c); its contents into want.
 */
static void sample(struct img *m, uint16_t fhdr, uint16_t chdr, uint32_t blk_sz,
		   uint8_t *want)
{
	static const uint8_t fill[4] = { 0xde, 0xad, 0xbe, 0xef };
	size_t bs = blk_sz;

	for (size_t i = 0; i < 2 * bs; i++)
		want[i] = (uint8_t)(i * 7);
	for (size_t i = 0; i < 3 * bs; i++)
		want[2 * bs + i] = fill[i % 4];
	memset(want + 5 * bs, 0, 4 * bs);
	memset(want + 9 * bs, 0x5c, bs);

	header(m, fhdr, chdr, blk_sz, 10, 5);
	chunk(m, RAW, 2, chdr + 2 * blk_sz);
	put(m, want, 2 * bs);
	chunk(m, FILL, 3, chdr + 4);
	put(m, fill, 4);
	chunk(m, DONT_CARE, 4, chdr);
	chunk(m, CRC32, 0, chdr + 4);
	put32(m, 0x12345678);	/* not checked: documented */
	chunk(m, RAW, 1, chdr + blk_sz);
	put(m, want + 9 * bs, bs);
}

/* Every read of [a, b) for a grid of a and b matches want. */
static void check_reads(struct f2_io *io, const uint8_t *want, uint64_t size)
{
	uint8_t *buf = malloc(size);
	uint64_t step = size / 37 + 1;

	for (uint64_t a = 0; a < size; a += step)
		for (uint64_t b = a; b <= size; b += step / 3 + 1) {
			memset(buf, 0xa5, size);
			CHECK_EQ(f2_io_read(io, a, buf, b - a), 0);
			CHECK(!memcmp(buf, want + a, b - a));
		}
	CHECK_EQ(f2_io_read(io, 0, buf, size), 0);
	CHECK(!memcmp(buf, want, size));
	CHECK_EQ(f2_io_read(io, size - 1, buf, 2), F2_ERANGE);
	CHECK_EQ(f2_io_read(io, UINT64_MAX, buf, 1), F2_ERANGE);
	free(buf);
}

static void test_read(const char *dir)
{
	static const struct { uint16_t fhdr, chdr; uint32_t blk_sz; } forms[] = {
		{ 28, 12, BLK }, { 32, 16, BLK }, { 40, 12, 1024 }, { 28, 20, 8 },
	};
	char path[PATH_MAX];
	struct img m = { 0 };
	uint8_t *want = malloc(10 * BLK);
	struct f2_io *io;

	path_in(path, dir, "read.simg");
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		sample(&m, forms[f].fhdr, forms[f].chdr, forms[f].blk_sz, want);
		save(path, m.b, m.len);
		CHECK_EQ(f2_io_is_sparse(path), 1);
		CHECK_EQ(f2_io_open_sparse(path, F2_IO_RDONLY, &io), 0);
		if (!io)
			continue;
		CHECK_EQ(io->size, 10ull * forms[f].blk_sz);
		CHECK(!strcmp(io->ops->name, "sparse"));
		check_reads(io, want, io->size);
		CHECK_EQ(f2_io_write(io, 0, want, 1), -EBADF);
		CHECK_EQ(f2_io_zero(io, 0, 1), -EBADF);
		CHECK_EQ(f2_io_flush(io), 0);
		f2_io_close(io);
		/* writing works in 4096-byte blocks only */
		CHECK_EQ(f2_io_open_sparse(path, F2_IO_RDWR, &io),
			 forms[f].blk_sz == BLK ? 0 : F2_EUNSUPP);
		if (io)
			f2_io_close(io);
	}
	/* f2_io_open() picks the backend by the magic */
	CHECK_EQ(f2_io_open(path, F2_IO_RDONLY, &io), 0);
	if (io) {
		CHECK(!strcmp(io->ops->name, "sparse"));
		f2_io_close(io);
	}
	CHECK_EQ(f2_io_open_sparse(path, 0x100, &io), F2_EBADOPT);
	/* empty chunks and trailing bytes are harmless */
	header(&m, 28, 12, BLK, 1, 3);
	chunk(&m, RAW, 0, 12);
	chunk(&m, FILL, 0, 16);
	put32(&m, 7);
	chunk(&m, DONT_CARE, 1, 12);
	put(&m, "trailing", 8);
	save(path, m.b, m.len);
	CHECK_EQ(f2_io_open_sparse(path, F2_IO_RDONLY, &io), 0);
	if (io) {
		memset(want, 0, BLK);
		check_reads(io, want, BLK);
		f2_io_close(io);
	}
	/* a raw file is not sparse; a missing one is an error */
	save(path, want, BLK);
	CHECK_EQ(f2_io_is_sparse(path), 0);
	CHECK_EQ(f2_io_open(path, F2_IO_RDONLY, &io), 0);
	if (io) {
		CHECK(!strcmp(io->ops->name, "unix"));
		f2_io_close(io);
	}
	unlink(path);
	CHECK_EQ(f2_io_is_sparse(path), -ENOENT);
	CHECK_EQ(f2_io_is_sparse(dir), 0);
	free(want);
	free(m.b);
}

/* ---- hostile files ---------------------------------------------------- */

/* path holding m's first len bytes opens as F2_ESPARSE, either way. */
static void expect_bad(const char *path, const struct img *m, size_t len, const char *what)
{
	struct f2_io *io = (struct f2_io *)1;
	int ret;

	save(path, m->b, len);
	for (int rw = 0; rw < 2; rw++) {
		ret = f2_io_open_sparse(path, rw ? F2_IO_RDWR : F2_IO_RDONLY, &io);
		if (ret != F2_ESPARSE || io) {
			fprintf(stderr, "hostile '%s' (%s): got %d (%s)\n", what,
				rw ? "rw" : "ro", ret, f2_strerror(ret));
			unit_failures++;
		}
		if (io && io != (struct f2_io *)1)
			f2_io_close(io);
	}
}

static void test_hostile(const char *dir)
{
	char path[PATH_MAX];
	struct img m = { 0 };
	uint8_t *want = malloc(10 * BLK);
	size_t full;

	path_in(path, dir, "bad.simg");
	sample(&m, 28, 12, BLK, want);
	full = m.len;
	save(path, m.b, m.len);
	/* the sample itself is good: each case below differs in one thing */
	{
		struct f2_io *io;

		CHECK_EQ(f2_io_open_sparse(path, F2_IO_RDONLY, &io), 0);
		if (io)
			f2_io_close(io);
	}

#define MUTATE(what, stmt) do { \
		sample(&m, 28, 12, BLK, want); \
		stmt; \
		expect_bad(path, &m, m.len, what); \
	} while (0)
	MUTATE("bad magic", m.b[0] ^= 1);
	MUTATE("major version 2", m.b[4] = 2);
	MUTATE("file header 27", m.b[8] = 27);
	MUTATE("file header past EOF", m.b[8] = 0xff; m.b[9] = 0xff);
	MUTATE("chunk header 11", m.b[10] = 11);
	MUTATE("block size 0", set32(&m, 12, 0));
	MUTATE("block size 4098", set32(&m, 12, 4098));
	MUTATE("total_chunks 2^32-1", set32(&m, 20, UINT32_MAX));
	MUTATE("total_chunks one more", set32(&m, 20, 6));
	MUTATE("total_chunks one less", set32(&m, 20, 4));
	MUTATE("total_blks one more", set32(&m, 16, 11));
	MUTATE("total_blks one less", set32(&m, 16, 9));
	MUTATE("total_blks 0", set32(&m, 16, 0));
	/* the first chunk header is at 28 */
	MUTATE("unknown chunk type", m.b[28] = 0xc5);
	MUTATE("RAW count overflows", set32(&m, 28 + 4, UINT32_MAX));
	MUTATE("RAW total_sz short", set32(&m, 28 + 8, 12 + 2 * BLK - 1));
	MUTATE("RAW total_sz long", set32(&m, 28 + 8, 12 + 2 * BLK + 4));
	MUTATE("RAW total_sz 2^32-1", set32(&m, 28 + 8, UINT32_MAX));
	MUTATE("RAW total_sz below header", set32(&m, 28 + 8, 4));
	MUTATE("RAW blocks times block size wraps 32 bits",
	       set32(&m, 12, 0x80000000u); set32(&m, 28 + 4, 2); set32(&m, 28 + 8, 12));
	/* the FILL chunk header follows the first RAW chunk */
	MUTATE("FILL without its value", set32(&m, 28 + 12 + 2 * BLK + 8, 12));
	MUTATE("FILL past total_blks", set32(&m, 28 + 12 + 2 * BLK + 4, 100));
	MUTATE("FILL count 2^32-1", set32(&m, 28 + 12 + 2 * BLK + 4, UINT32_MAX));
	MUTATE("DONT_CARE with a payload", set32(&m, 28 + 2 * 12 + 2 * BLK + 4 + 8, 16));
	MUTATE("CRC32 without its value", set32(&m, 28 + 3 * 12 + 2 * BLK + 4 + 8, 12));
#undef MUTATE
	/* truncated anywhere: inside the file header, a chunk header, data */
	sample(&m, 28, 12, BLK, want);
	for (size_t cut = 0; cut < full; cut += cut < 64 ? 1 : 509)
		expect_bad(path, &m, cut, "truncated");
	expect_bad(path, &m, full - 1, "truncated by one byte");
	/* a chunk table that stops early: only the first chunk, counts fixed */
	header(&m, 28, 12, BLK, 10, 1);
	chunk(&m, RAW, 2, 12 + 2 * BLK);
	pad(&m, 2 * BLK);
	expect_bad(path, &m, m.len, "chunks cover 2 of 10 blocks");
	/* a total_sz covering padding: well formed but for the size rule */
	header(&m, 28, 12, BLK, 2, 2);
	chunk(&m, FILL, 1, 20);
	put32(&m, 7);
	pad(&m, 4);
	chunk(&m, DONT_CARE, 1, 12);
	expect_bad(path, &m, m.len, "FILL total_sz with padding");
	header(&m, 28, 12, BLK, 2, 2);
	chunk(&m, DONT_CARE, 1, 16);
	pad(&m, 4);
	chunk(&m, DONT_CARE, 1, 12);
	expect_bad(path, &m, m.len, "DONT_CARE total_sz with padding");
	/* larger headers must still add up */
	sample(&m, 32, 16, BLK, want);
	set32(&m, 32 + 8, 12 + 2 * BLK);	/* total_sz counting a 12-byte header */
	expect_bad(path, &m, m.len, "total_sz ignores a 16-byte chunk header");
	/* not a regular file */
	{
		struct f2_io *io;

		CHECK_EQ(f2_io_open_sparse(dir, F2_IO_RDONLY, &io), F2_ESPARSE);
		CHECK_EQ(f2_io_open_sparse("/nonexistent/x", F2_IO_RDONLY, &io), -ENOENT);
	}
	unlink(path);
	free(want);
	free(m.b);
}

/* ---- writing ------------------------------------------------------------- */

/* The whole image of io equals that of the oracle. */
static bool same_image(struct f2_io *io, struct f2_io *oracle)
{
	uint8_t *a = malloc(io->size), *b = malloc(oracle->size);
	bool same = io->size == oracle->size && !f2_io_read(io, 0, a, io->size) &&
		    !f2_io_read(oracle, 0, b, oracle->size) && !memcmp(a, b, io->size);

	free(a);
	free(b);
	return same;
}

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* One random write, zero or discard, done to both devices. */
static void random_op(struct f2_io *io, struct f2_io *oracle, uint32_t *seed, uint8_t *buf)
{
	uint64_t size = io->size;
	uint64_t off = rnd(seed) % size;
	uint64_t len = rnd(seed) % (rnd(seed) % 4 ? BLK + 1 : 5 * BLK);
	uint32_t kind = rnd(seed) % 8;

	if (len > size - off)
		len = size - off;
	if (rnd(seed) % 3 == 0) {	/* block aligned */
		off -= off % BLK;
		len -= len % BLK;
	}
	if (kind < 5) {
		/* random bytes, a repeated word, or zeroes */
		uint32_t word = rnd(seed);

		for (uint64_t i = 0; i < len; i++)
			buf[i] = kind < 3 ? (uint8_t)rnd(seed) : kind == 3 ? (uint8_t)(word >> (8 * (i % 4))) : 0;
		CHECK_EQ(f2_io_write(io, off, buf, len), 0);
		CHECK_EQ(f2_io_write(oracle, off, buf, len), 0);
	} else if (kind < 7) {
		CHECK_EQ(f2_io_zero(io, off, len), 0);
		CHECK_EQ(f2_io_zero(oracle, off, len), 0);
	} else {
		CHECK_EQ(f2_io_discard(io, off, len), 0);
		CHECK_EQ(f2_io_zero(oracle, off, len), 0);
	}
}

static void test_write(const char *dir)
{
	char path[PATH_MAX], orig[PATH_MAX], other[PATH_MAX];
	struct img m = { 0 };
	uint8_t *want = malloc(10 * BLK), *buf = malloc(5 * BLK + 1);
	struct f2_io *io, *oracle, *ro;
	uint32_t seed = 1;

	path_in(path, dir, "rw.simg");
	path_in(orig, dir, "rw.orig");
	sample(&m, 28, 12, BLK, want);
	save(path, m.b, m.len);
	save(orig, m.b, m.len);
	CHECK_EQ(f2_io_open_sparse(path, F2_IO_RDWR, &io), 0);
	CHECK_EQ(f2_io_open_mem(10 * BLK, &oracle), 0);
	if (!io || !oracle)
		return;
	CHECK_EQ(f2_io_write(oracle, 0, want, 10 * BLK), 0);
	CHECK(same_image(io, oracle));
	CHECK_EQ(f2_io_write(io, 10 * BLK - 1, buf, 2), F2_ERANGE);
	CHECK_EQ(f2_io_zero(io, 10 * BLK, 1), F2_ERANGE);
	for (int round = 0; round < 6; round++) {
		for (int i = 0; i < 40; i++) {
			random_op(io, oracle, &seed, buf);
			if (i % 8 == 0)
				CHECK(same_image(io, oracle));
		}
		CHECK(same_image(io, oracle));
		/* nothing reaches the file before a flush */
		if (round == 0)
			CHECK(same_file(path, orig));
		CHECK_EQ(f2_io_flush(io), 0);
		CHECK(same_image(io, oracle));
		/* the file alone holds the image now */
		CHECK_EQ(f2_io_open_sparse(path, F2_IO_RDONLY, &ro), 0);
		if (ro) {
			CHECK(same_image(ro, oracle));
			f2_io_close(ro);
		}
	}
	f2_io_close(io);

	/* The same contents written another way encode to the same bytes. */
	path_in(other, dir, "rw.other");
	CHECK_EQ(f2_io_new_sparse(other, 10 * BLK, &io), 0);
	if (io) {
		uint8_t *all = malloc(10 * BLK);

		CHECK_EQ(f2_io_read(oracle, 0, all, 10 * BLK), 0);
		for (int b = 9; b >= 0; b--)
			CHECK_EQ(f2_io_write(io, (uint64_t)b * BLK, all + (size_t)b * BLK, BLK), 0);
		CHECK_EQ(f2_io_flush(io), 0);
		f2_io_close(io);
		CHECK(same_file(path, other));
		free(all);
	}
	f2_io_close(oracle);
	unlink(path);
	unlink(orig);
	unlink(other);
	free(want);
	free(buf);
	free(m.b);
}

/* The chunks of a file we wrote, as "type:count" words. */
static void chunk_list(const char *path, char *out, size_t len)
{
	size_t n, pos = 28;
	uint8_t *b = load(path, &n);

	out[0] = 0;
	if (!b)
		return;
	while (pos + 12 <= n) {
		uint32_t type = b[pos] | b[pos + 1] << 8;
		uint32_t count = b[pos + 4] | b[pos + 5] << 8 | b[pos + 6] << 16 | (uint32_t)b[pos + 7] << 24;
		uint32_t total = b[pos + 8] | b[pos + 9] << 8 | b[pos + 10] << 16 | (uint32_t)b[pos + 11] << 24;
		const char *t = type == RAW ? "raw" : type == FILL ? "fill" :
				type == DONT_CARE ? "skip" : "?";

		snprintf(out + strlen(out), len - strlen(out), "%s%s:%u", out[0] ? " " : "", t, count);
		if (total < 12)
			break;
		pos += total;
	}
	free(b);
}

static void test_encoding(const char *dir)
{
	char path[PATH_MAX], list[256];
	uint8_t blk[BLK];
	struct f2_io *io;
	size_t n;
	uint8_t *b;

	path_in(path, dir, "enc.simg");
	unlink(path);
	CHECK_EQ(f2_io_new_sparse(path, 12 * BLK, &io), 0);
	if (!io)
		return;
	/* not written before the first flush */
	CHECK_EQ(access(path, F_OK), -1);
	/* blocks: 0 zero, 1-2 fill A, 3 fill B, 4-5 raw, 6 fill A, 7 raw,
	 * 8 fill A whose last word differs (raw), 9-11 zero */
	for (unsigned i = 0; i < BLK; i += 4)
		memcpy(blk + i, "\x01\x02\x03\x04", 4);
	CHECK_EQ(f2_io_write(io, 1 * BLK, blk, BLK), 0);
	CHECK_EQ(f2_io_write(io, 2 * BLK, blk, BLK), 0);
	CHECK_EQ(f2_io_write(io, 6 * BLK, blk, BLK), 0);
	blk[BLK - 1] = 9;
	CHECK_EQ(f2_io_write(io, 8 * BLK, blk, BLK), 0);
	memset(blk, 0x77, BLK);
	CHECK_EQ(f2_io_write(io, 3 * BLK, blk, BLK), 0);
	blk[5] = 1;
	CHECK_EQ(f2_io_write(io, 4 * BLK, blk, BLK), 0);
	CHECK_EQ(f2_io_write(io, 5 * BLK, blk, BLK), 0);
	CHECK_EQ(f2_io_write(io, 7 * BLK, blk, BLK), 0);
	/* written zeroes are DONT_CARE too */
	memset(blk, 0, BLK);
	CHECK_EQ(f2_io_write(io, 10 * BLK, blk, BLK), 0);
	CHECK_EQ(f2_io_flush(io), 0);
	chunk_list(path, list, sizeof(list));
	CHECK(!strcmp(list, "skip:1 fill:2 fill:1 raw:2 fill:1 raw:2 skip:3"));
	if (strcmp(list, "skip:1 fill:2 fill:1 raw:2 fill:1 raw:2 skip:3"))
		fprintf(stderr, "chunks: %s\n", list);
	/* header: version 1.0, 28/12, 4096, 12 blocks, 7 chunks, checksum 0 */
	b = load(path, &n);
	CHECK(b && n >= 28);
	if (b && n >= 28) {
		static const uint8_t h[28] = {
			0x3a, 0xff, 0x26, 0xed, 1, 0, 0, 0, 28, 0, 12, 0,
			0, 0x10, 0, 0, 12, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0 };

		CHECK(!memcmp(b, h, 28));
		CHECK_EQ(n, 28 + 7 * 12 + 3 * 4 + 4 * BLK);
	}
	free(b);
	/* a flush without changes writes nothing; close after changes commits */
	CHECK_EQ(f2_io_flush(io), 0);
	CHECK_EQ(f2_io_zero(io, 0, 12 * BLK), 0);
	f2_io_close(io);
	chunk_list(path, list, sizeof(list));
	CHECK(!strcmp(list, "skip:12"));
	unlink(path);
}

/* Commits keep the file's mode (and, for root, its owner), replace a
 * symlink's target, leave no temporary files behind. */
static void test_commit_file(const char *dir)
{
	char path[PATH_MAX], link[PATH_MAX], sub[PATH_MAX];
	uint8_t blk[BLK];
	struct f2_io *io;
	struct stat st;

	path_in(sub, dir, "commit");
	CHECK_EQ(mkdir(sub, 0755), 0);
	path_in(path, sub, "a.simg");
	path_in(link, sub, "link.simg");
	/* a new image is made by a flush, not by a close without writes */
	CHECK_EQ(f2_io_new_sparse(path, 4 * BLK, &io), 0);
	if (io)
		f2_io_close(io);
	CHECK_EQ(access(path, F_OK), -1);
	CHECK_EQ(f2_io_new_sparse(path, 4 * BLK, &io), 0);
	if (io) {
		CHECK_EQ(f2_io_flush(io), 0);
		f2_io_close(io);
	}
	CHECK_EQ(chmod(path, 0640), 0);
	/* root can keep another user's owner too */
	if (geteuid() == 0)
		CHECK_EQ(chown(path, 65534, 65534), 0);
	CHECK_EQ(symlink("a.simg", link), 0);
	CHECK_EQ(f2_io_open(link, F2_IO_RDWR, &io), 0);
	if (io) {
		memset(blk, 0x42, BLK);
		blk[0] = 1;
		CHECK_EQ(f2_io_write(io, BLK, blk, BLK), 0);
		CHECK_EQ(f2_io_flush(io), 0);
		f2_io_close(io);
	}
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640);
	if (geteuid() == 0)
		CHECK(st.st_uid == 65534 && st.st_gid == 65534);
	CHECK(st.st_size == 28 + 3 * 12 + BLK);
	CHECK_EQ(unlink(link), 0);
	CHECK_EQ(unlink(path), 0);
	CHECK_EQ(rmdir(sub), 0);	/* fails if a temporary file was left */
	/* new images: sizes and what may be replaced */
	CHECK_EQ(f2_io_new_sparse(path, BLK + 1, &io), F2_EBADOPT);
	CHECK_EQ(f2_io_new_sparse(path, (UINT32_MAX + 1ull) * BLK, &io), F2_ETOOBIG);
	CHECK_EQ(f2_io_new_sparse(dir, BLK, &io), F2_EUNSUPP);
	CHECK_EQ(f2_io_new_sparse("/nonexistent/dir/x", BLK, &io), -ENOENT);
}

/*
 * A writer killed at any point leaves the file as of its last flush: a
 * child writes, flushes, writes more and dies without closing.
 */
static void test_killed(const char *dir)
{
	char path[PATH_MAX], flushed[PATH_MAX];
	uint8_t blk[BLK];
	struct f2_io *io;
	int status;
	pid_t pid;

	path_in(path, dir, "killed.simg");
	path_in(flushed, dir, "killed.flushed");
	unlink(path);
	CHECK_EQ(f2_io_new_sparse(path, 8 * BLK, &io), 0);
	if (io) {
		CHECK_EQ(f2_io_flush(io), 0);
		f2_io_close(io);
	}
	pid = fork();
	if (pid == 0) {
		memset(blk, 0x11, BLK);
		blk[1] = 0;
		if (f2_io_open(path, F2_IO_RDWR, &io) || f2_io_write(io, 0, blk, BLK) ||
		    f2_io_flush(io))
			_exit(1);
		if (link(path, flushed))
			_exit(1);
		if (f2_io_write(io, 2 * BLK, blk, BLK) || f2_io_zero(io, 0, 100))
			_exit(1);
		_exit(0);	/* no close, no flush: as if killed */
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(same_file(path, flushed));
	CHECK_EQ(f2_io_open(path, F2_IO_RDONLY, &io), 0);
	if (io) {
		uint8_t back[BLK];

		CHECK_EQ(f2_io_read(io, 0, back, BLK), 0);
		CHECK(back[0] == 0x11 && back[1] == 0);
		CHECK_EQ(f2_io_read(io, 2 * BLK, back, BLK), 0);
		CHECK(back[0] == 0);
		f2_io_close(io);
	}
	unlink(path);
	unlink(flushed);
}

int main(void)
{
	const char *base = getenv("TMPDIR");
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/test_sparse.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		perror("test_sparse: mkdtemp");
		return 1;
	}
	test_read(dir);
	test_hostile(dir);
	test_write(dir);
	test_encoding(dir);
	test_commit_file(dir);
	test_killed(dir);
	if (rmdir(dir))
		perror(dir);
	UNIT_DONE();
}
