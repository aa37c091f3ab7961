// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compress_enc.c - the compressors for writing compressed clusters (the
 * write engine's engine/compress.c): lz4 (LZ4_compress_default, or the
 * lz4hc coder, whose output any lz4 decoder reads), zstd (ZSTD_compressCCtx
 * at a level) and lzo (lzo1x_1_compress), from the libraries configure
 * found.  lzo-rle gets lzo1x_1_compress's output as well: the plain
 * LZO1X bitstream (version 0, never starting with the byte 17 that
 * announces a versioned stream), which lzo-rle decoders, the kernel's
 * lzo1x_decompress_safe among them, read as such.  A compressor keeps its
 * scratch memory between clusters.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/file.h"
#ifdef HAVE_LZ4
#include <lz4.h>
#include <lz4hc.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LZO2
#include <lzo/lzo1x.h>
#endif

struct f2_compressor {
	int algo, level;
	size_t max_in;
	void *work;		/* lz4hc state, zstd context or lzo work memory */
	uint8_t *tmp;		/* lzo: output of the worst case, then copied */
};

unsigned f2_compress_supported(void)
{
	unsigned m = 0;

#ifdef HAVE_LZ4
	m |= 1u << F2_COMPRESS_LZ4;
#endif
#ifdef HAVE_ZSTD
	m |= 1u << F2_COMPRESS_ZSTD;
#endif
#ifdef HAVE_LZO2
	m |= 1u << F2_COMPRESS_LZO | 1u << F2_COMPRESS_LZORLE;
#endif
	return m;
}

int f2_compressor_new(int algo, int level, size_t max_in, struct f2_compressor **out)
{
	struct f2_compressor *c;

	*out = NULL;
	if (algo < 0 || algo > 31 || !(f2_compress_supported() & (1u << algo)) || level < 0)
		return F2_EUNSUPP;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->algo = algo;
	c->level = level;
	c->max_in = max_in;
	switch (algo) {
#ifdef HAVE_LZ4
	case F2_COMPRESS_LZ4:
		if (level)
			c->work = malloc((size_t)LZ4_sizeofStateHC());
		else
			c->work = malloc((size_t)LZ4_sizeofState());
		break;
#endif
#ifdef HAVE_ZSTD
	case F2_COMPRESS_ZSTD:
		c->work = ZSTD_createCCtx();
		break;
#endif
#ifdef HAVE_LZO2
	case F2_COMPRESS_LZO:
	case F2_COMPRESS_LZORLE:
		if (lzo_init() != LZO_E_OK) {
			free(c);
			return F2_EUNSUPP;
		}
		c->work = malloc(LZO1X_1_MEM_COMPRESS);
		/* lzo1x_1_compress takes no output limit: room for the worst case */
		c->tmp = malloc(max_in + max_in / 16 + 64 + 3);
		if (!c->tmp) {
			free(c->work);
			c->work = NULL;
		}
		break;
#endif
	}
	if (!c->work) {
		free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

void f2_compressor_free(struct f2_compressor *c)
{
	if (!c)
		return;
#ifdef HAVE_ZSTD
	if (c->algo == F2_COMPRESS_ZSTD)
		ZSTD_freeCCtx(c->work);
	else
#endif
		free(c->work);
	free(c->tmp);
	free(c);
}

int f2_compressor_run(struct f2_compressor *c, const uint8_t *in, size_t in_len, uint8_t *out,
		      size_t cap, size_t *out_len)
{
	*out_len = 0;
	if (in_len > c->max_in || in_len > INT32_MAX || cap > INT32_MAX)
		return F2_EBADOPT;
	switch (c->algo) {
#ifdef HAVE_LZ4
	case F2_COMPRESS_LZ4: {
		int r = c->level
			? LZ4_compress_HC_extStateHC(c->work, (const char *)in, (char *)out,
						     (int)in_len, (int)cap, c->level)
			: LZ4_compress_fast_extState(c->work, (const char *)in, (char *)out,
						     (int)in_len, (int)cap, 1);

		if (r <= 0)
			return 1;
		*out_len = (size_t)r;
		return 0;
	}
#endif
#ifdef HAVE_ZSTD
	case F2_COMPRESS_ZSTD: {
		/* the source size is known, so the frame's window is no
		 * larger than the cluster: what the kernel's decoder allows */
		size_t r = ZSTD_compressCCtx(c->work, out, cap, in, in_len,
					     c->level ? c->level : 1);

		if (ZSTD_isError(r))
			return 1;	/* (the only failure here: no room) */
		*out_len = r;
		return 0;
	}
#endif
#ifdef HAVE_LZO2
	case F2_COMPRESS_LZO:
	case F2_COMPRESS_LZORLE: {
		lzo_uint n = 0;

		if (lzo1x_1_compress(in, in_len, c->tmp, &n, c->work) != LZO_E_OK)
			return F2_ECOMPRESS;
		if (n > cap)
			return 1;
		memcpy(out, c->tmp, n);
		*out_len = n;
		return 0;
	}
#endif
	}
	return F2_EUNSUPP;
}
