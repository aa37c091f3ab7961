// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_read_lzo.c - the LZO1X decoder of lib/util/lzo.c (used for lzo-rle
 * clusters) against liblzo2's compressor: round trips of zeros, text,
 * random and mixed data; truncated and random inputs fail cleanly.
 * Also f2_decompress() for lz4 and zstd when built with them.
 */
#include "config.h"
#include <stdlib.h>
#include "f2/errors.h"
#include "f2/file.h"
#include "unit.h"
#ifdef HAVE_LZO2
#include <lzo/lzo1x.h>
#endif
#ifdef HAVE_LZ4
#include <lz4.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

int f2_lzo1x_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		    size_t *out_used);

#define N (64 * 1024)

static uint32_t rng = 12345;
static uint8_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return (uint8_t)(rng >> 16);
}

static void fill(uint8_t *b, int kind)
{
	for (size_t i = 0; i < N; i++) {
		switch (kind) {
		case 0: b[i] = 0; break;
		case 1: b[i] = (uint8_t)"the quick brown fox jumps over the lazy dog\n"[i % 44]; break;
		case 2: b[i] = rnd(); break;
		default: b[i] = (i / 1000) % 2 ? rnd() : (uint8_t)(i % 7); break;
		}
	}
}

int main(void)
{
	uint8_t *in = malloc(N), *c = malloc(2 * N), *out = malloc(N);
	size_t used;

	for (int kind = 0; kind < 4; kind++) {
		fill(in, kind);
#ifdef HAVE_LZO2
		{
			lzo_uint clen = 2 * N;
			static unsigned char wrk[LZO1X_1_MEM_COMPRESS];

			CHECK_EQ(lzo_init(), LZO_E_OK);
			CHECK_EQ(lzo1x_1_compress(in, N, c, &clen, wrk), LZO_E_OK);
			CHECK_EQ(f2_lzo1x_decode(c, clen, out, N, &used), 0);
			CHECK_EQ(used, N);
			CHECK(!memcmp(in, out, N));
			CHECK_EQ(f2_decompress(F2_COMPRESS_LZO, c, clen, out, N, &used), 0);
			CHECK(!memcmp(in, out, N));
			/* every truncation fails without overrunning */
			for (lzo_uint cut = 0; cut < clen; cut += 1 + clen / 50)
				CHECK(f2_lzo1x_decode(c, cut, out, N, &used) != 0);
			/* an output buffer one byte short fails */
			CHECK(f2_lzo1x_decode(c, clen, out, N - 1, &used) != 0);
		}
#endif
#ifdef HAVE_LZ4
		{
			int clen = LZ4_compress_default((const char *)in, (char *)c, N, 2 * N);

			CHECK(clen > 0);
			CHECK_EQ(f2_decompress(F2_COMPRESS_LZ4, c, (size_t)clen, out, N, &used), 0);
			CHECK_EQ(used, N);
			CHECK(!memcmp(in, out, N));
		}
#endif
#ifdef HAVE_ZSTD
		{
			size_t clen = ZSTD_compress(c, 2 * N, in, N, 3);

			CHECK(!ZSTD_isError(clen));
			CHECK_EQ(f2_decompress(F2_COMPRESS_ZSTD, c, clen, out, N, &used), 0);
			CHECK_EQ(used, N);
			CHECK(!memcmp(in, out, N));
		}
#endif
	}
	/* random garbage never crashes; a valid stream starts differently */
	for (int t = 0; t < 2000; t++) {
		size_t len = 3 + rnd() % 200;

		for (size_t i = 0; i < len; i++)
			c[i] = rnd();
		(void)f2_lzo1x_decode(c, len, out, 4096, &used);
		(void)f2_decompress(F2_COMPRESS_LZORLE, c, len, out, 4096, &used);
	}
	CHECK(f2_decompress_supported() & (1u << F2_COMPRESS_LZORLE));
	free(in);
	free(c);
	free(out);
	UNIT_DONE();
}
