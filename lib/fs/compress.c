// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compress.c - compressed clusters written by the kernel.  A cluster whose
 * first address is F2_COMPRESS_ADDR keeps its compressed bytes in the
 * valid blocks that follow, starting with a 24-byte header (compressed
 * length, checksum, reserved); it decompresses to exactly one cluster.
 * lz4 (and lz4hc), zstd and lzo use the distribution's libraries when
 * configure found them; lzo-rle uses lzo.c.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/file.h"
#ifdef HAVE_LZ4
#include <lz4.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LZO2
#include <lzo/lzo1x.h>
#endif

#define CDATA_HDR	24	/* clen, chksum, reserved[4] */
#define COMPRESS_CHKSUM	0x1	/* i_compress_flag bit: header checksum valid */

int f2_lzo1x_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		    size_t *out_used);
int f2_compress_read_cluster(struct f2_file *f, uint64_t cidx);

unsigned f2_decompress_supported(void)
{
	unsigned m = 1u << F2_COMPRESS_LZORLE;

#ifdef HAVE_LZ4
	m |= 1u << F2_COMPRESS_LZ4;
#endif
#ifdef HAVE_ZSTD
	m |= 1u << F2_COMPRESS_ZSTD;
#endif
	/* plain lzo: liblzo2 when present, else our decoder handles it too */
	m |= 1u << F2_COMPRESS_LZO;
	return m;
}

int f2_decompress(int algo, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		  size_t *out_used)
{
	switch (algo) {
	case F2_COMPRESS_LZ4: {
#ifdef HAVE_LZ4
		int r;

		if (in_len > INT32_MAX || out_len > INT32_MAX)
			return F2_ECOMPRESS;
		r = LZ4_decompress_safe((const char *)in, (char *)out, (int)in_len, (int)out_len);
		if (r < 0)
			return F2_ECOMPRESS;
		*out_used = (size_t)r;
		return 0;
#else
		return F2_EUNSUPP;
#endif
	}
	case F2_COMPRESS_ZSTD: {
#ifdef HAVE_ZSTD
		/* the kernel writes frames without a content size: stream them */
		ZSTD_DStream *ds = ZSTD_createDStream();
		ZSTD_inBuffer ib = { in, in_len, 0 };
		ZSTD_outBuffer ob = { out, out_len, 0 };
		size_t r;

		if (!ds)
			return -ENOMEM;
		r = ZSTD_initDStream(ds);
		if (!ZSTD_isError(r))
			r = ZSTD_decompressStream(ds, &ob, &ib);
		ZSTD_freeDStream(ds);
		if (ZSTD_isError(r))
			return F2_ECOMPRESS;
		*out_used = ob.pos;
		return 0;
#else
		return F2_EUNSUPP;
#endif
	}
	case F2_COMPRESS_LZO: {
#ifdef HAVE_LZO2
		lzo_uint n = out_len;

		if (lzo_init() != LZO_E_OK)
			return F2_EUNSUPP;
		if (lzo1x_decompress_safe(in, in_len, out, &n, NULL) != LZO_E_OK)
			return F2_ECOMPRESS;
		*out_used = n;
		return 0;
#else
		return f2_lzo1x_decode(in, in_len, out, out_len, out_used);
#endif
	}
	case F2_COMPRESS_LZORLE:
		return f2_lzo1x_decode(in, in_len, out, out_len, out_used);
	}
	return F2_EUNSUPP;
}

static const char *algo_name(int a)
{
	static const char *const n[] = { "lzo", "lz4", "zstd", "lzo-rle" };

	return a >= 0 && a < 4 ? n[a] : "unknown";
}

int f2_compress_read_cluster(struct f2_file *f, uint64_t cidx)
{
	struct f2_fs *fs = f->fs;
	uint32_t n = f->ir.cluster_blocks, nr = 0, clen;
	size_t csize = (size_t)n * F2_BLKSIZE, used = 0;
	uint64_t first = cidx * n;
	int err;

	if (f->cluster_idx == cidx)
		return 0;
	if (!f->cluster && !(f->cluster = malloc(csize)))
		return -ENOMEM;
	if (!f->cbuf && !(f->cbuf = malloc(csize)))
		return -ENOMEM;
	f->cluster_idx = UINT64_MAX;
	for (uint32_t i = 1; i < n; i++) {
		uint32_t a;

		err = f2_file_map(f, first + i, &a, NULL);
		if (err)
			return err;
		if (a == F2_NULL_ADDR || a == F2_NEW_ADDR)
			break;
		if (a == F2_COMPRESS_ADDR)
			return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: cluster %llu: second cluster head "
					  "inside the cluster", f->ir.ino, (unsigned long long)cidx);
		err = f2_fs_read_block(fs, a, f->cbuf + (size_t)nr * F2_BLKSIZE);
		if (err)
			return err;
		nr++;
	}
	if (!nr)
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: compressed cluster %llu has no data blocks",
				  f->ir.ino, (unsigned long long)cidx);
	memcpy(&clen, f->cbuf, 4);
	clen = f2_le32(clen);
	if (clen == 0 || clen > (size_t)nr * F2_BLKSIZE - CDATA_HDR)
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: cluster %llu: compressed length %u "
				  "does not fit its %u blocks", f->ir.ino,
				  (unsigned long long)cidx, clen, nr);
	if (f2_le16(f->ir.node.i.i_compress_flag) & COMPRESS_CHKSUM) {
		uint32_t stored;

		memcpy(&stored, f->cbuf + 4, 4);
		if (f2_crc32(F2_SUPER_MAGIC, f->cbuf + CDATA_HDR, clen) != f2_le32(stored))
			return f2_fs_fail(fs, F2_EBADCRC, "ino %u: cluster %llu: checksum mismatch",
					  f->ir.ino, (unsigned long long)cidx);
	}
	err = f2_decompress(f->ir.compress_algo, f->cbuf + CDATA_HDR, clen, f->cluster, csize,
			    &used);
	if (err == F2_EUNSUPP)
		return f2_fs_fail(fs, err, "ino %u: %s decompression not built in (configure found "
				  "no library)", f->ir.ino, algo_name(f->ir.compress_algo));
	if (err || used != csize)
		return f2_fs_fail(fs, F2_ECOMPRESS, "ino %u: cluster %llu (%s, %u bytes in %u blocks) "
				  "does not decompress to %zu bytes", f->ir.ino,
				  (unsigned long long)cidx, algo_name(f->ir.compress_algo), clen,
				  nr, csize);
	f->cluster_idx = cidx;
	return 0;
}
