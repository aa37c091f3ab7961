/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparse_encode.c - write an image as an Android sparse file whose bytes
 * depend only on the image's contents: blocks are classed one by one
 * (all zeroes: DONT_CARE, one 32-bit word repeated: FILL, else RAW) and
 * neighbours of one class share a chunk (FILL only with the same word),
 * up to the largest chunk the 32-bit size fields can describe.  Runs the
 * source already knows to be zero or a pattern are never read.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2/errors.h"
#include "f2/format.h"
#include "sparse_private.h"

#define ENC_BATCH	256u		/* blocks read from the source at once */
#define ENC_BUF		(1u << 20)	/* output buffer */
/* total_sz is 32 bits: the most blocks a RAW chunk can hold */
#define RAW_MAX_BLOCKS	((UINT32_MAX - SP_CHUNK_HDR) / SP_BLK)

struct enc {
	int fd;
	uint8_t *out;		/* output not yet written */
	size_t used;
	uint64_t out_at;	/* file offset of out[0] */
	uint32_t chunks;	/* chunks closed */
	/* the open chunk; type 0 when there is none */
	uint16_t type;
	uint8_t fill[4];
	uint32_t count;
	uint64_t hdr_at;	/* RAW: where its header goes */
};


static uint64_t out_pos(const struct enc *e)
{
	return e->out_at + e->used;
}

static int out_flush(struct enc *e)
{
	int ret = sp_pwrite_all(e->fd, e->out, e->used, e->out_at);

	if (!ret) {
		e->out_at += e->used;
		e->used = 0;
	}
	return ret;
}

static int out_put(struct enc *e, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		size_t n = ENC_BUF - e->used < len ? ENC_BUF - e->used : len;
		int ret;

		memcpy(e->out + e->used, p, n);
		e->used += n;
		p += n;
		len -= n;
		if (e->used == ENC_BUF && (ret = out_flush(e)))
			return ret;
	}
	return 0;
}

static void chunk_header(uint8_t *h, uint16_t type, uint32_t count, uint32_t total)
{
	f2_put_le16(h, type);
	f2_put_le16(h + 2, 0);
	f2_put_le32(h + 4, count);
	f2_put_le32(h + 8, total);
}

static int close_chunk(struct enc *e)
{
	uint8_t h[SP_CHUNK_HDR + 4];
	int ret;

	if (!e->type)
		return 0;
	if (e->chunks == UINT32_MAX)
		return F2_ETOOBIG;
	switch (e->type) {
	case SP_RAW:
		/* its data follows the header's place: fill that in now */
		chunk_header(h, SP_RAW, e->count, SP_CHUNK_HDR + e->count * SP_BLK);
		ret = out_flush(e);
		if (!ret)
			ret = sp_pwrite_all(e->fd, h, SP_CHUNK_HDR, e->hdr_at);
		break;
	case SP_FILL:
		chunk_header(h, SP_FILL, e->count, SP_CHUNK_HDR + 4);
		memcpy(h + SP_CHUNK_HDR, e->fill, 4);
		ret = out_put(e, h, SP_CHUNK_HDR + 4);
		break;
	default:
		chunk_header(h, SP_DONT_CARE, e->count, SP_CHUNK_HDR);
		ret = out_put(e, h, SP_CHUNK_HDR);
	}
	if (!ret) {
		e->chunks++;
		e->type = 0;
	}
	return ret;
}

/* Add n blocks of one class (RAW: their data) to the output. */
static int emit(struct enc *e, uint16_t type, const uint8_t *fill, uint64_t n,
		const uint8_t *data)
{
	uint32_t limit = type == SP_RAW ? RAW_MAX_BLOCKS : UINT32_MAX;
	int ret;

	while (n) {
		uint32_t take;

		if (e->type != type || e->count == limit ||
		    (type == SP_FILL && memcmp(e->fill, fill, 4))) {
			static const uint8_t hole[SP_CHUNK_HDR];

			if ((ret = close_chunk(e)))
				return ret;
			e->type = type;
			e->count = 0;
			if (type == SP_FILL)
				memcpy(e->fill, fill, 4);
			if (type == SP_RAW) {
				e->hdr_at = out_pos(e);
				if ((ret = out_put(e, hole, sizeof(hole))))
					return ret;
			}
		}
		take = n < limit - e->count ? (uint32_t)n : limit - e->count;
		if (type == SP_RAW) {
			if ((ret = out_put(e, data, (size_t)take * SP_BLK)))
				return ret;
			data += (size_t)take * SP_BLK;
		}
		e->count += take;
		n -= take;
	}
	return 0;
}

/* The class of one block: DONT_CARE, FILL (its word in fill) or RAW. */
static uint16_t classify(const uint8_t *b, uint8_t *fill)
{
	/* every byte equal to the one 4 bytes on: one word repeated */
	if (memcmp(b, b + 4, SP_BLK - 4))
		return SP_RAW;
	memcpy(fill, b, 4);
	return b[0] | b[1] | b[2] | b[3] ? SP_FILL : SP_DONT_CARE;
}

/* A run the source could not class: read it and class each block. */
static int encode_read(struct enc *e, const struct sp_source *src, uint64_t blk,
		       uint64_t count, uint8_t *batch)
{
	while (count) {
		uint32_t n = count < ENC_BATCH ? (uint32_t)count : ENC_BATCH;
		int ret = src->read(src->ctx, blk, n, batch);

		for (uint32_t i = 0; !ret && i < n; i++) {
			const uint8_t *b = batch + (size_t)i * SP_BLK;
			uint8_t fill[4];
			uint16_t type = classify(b, fill);

			ret = emit(e, type, fill, 1, b);
		}
		if (ret)
			return ret;
		blk += n;
		count -= n;
	}
	return 0;
}

static int encode_all(struct enc *e, uint32_t nblocks, const struct sp_source *src,
		      uint8_t *batch)
{
	static const uint8_t zero4[4];
	uint8_t h[SP_FILE_HDR] = { 0 };
	int ret;

	if ((ret = out_put(e, h, sizeof(h))))
		return ret;
	for (uint64_t blk = 0; blk < nblocks;) {
		struct sp_run r;

		if ((ret = src->run(src->ctx, blk, nblocks - blk, &r)))
			return ret;
		if (!r.count || r.count > nblocks - blk)
			return F2_ERANGE;
		if (r.type == SP_FILL && !memcmp(r.fill, zero4, 4))
			r.type = SP_DONT_CARE;
		if (r.type == SP_RAW)
			ret = encode_read(e, src, blk, r.count, batch);
		else
			ret = emit(e, r.type, r.fill, r.count, NULL);
		if (ret)
			return ret;
		blk += r.count;
	}
	if ((ret = close_chunk(e)) || (ret = out_flush(e)))
		return ret;
	f2_put_le32(h, SP_MAGIC);
	f2_put_le16(h + 4, SP_MAJOR);
	f2_put_le16(h + 6, 0);
	f2_put_le16(h + 8, SP_FILE_HDR);
	f2_put_le16(h + 10, SP_CHUNK_HDR);
	f2_put_le32(h + 12, SP_BLK);
	f2_put_le32(h + 16, nblocks);
	f2_put_le32(h + 20, e->chunks);
	f2_put_le32(h + 24, 0);
	if ((ret = sp_pwrite_all(e->fd, h, sizeof(h), 0)))
		return ret;
	return ftruncate(e->fd, (off_t)e->out_at) ? -errno : 0;
}

int sp_encode(int fd, uint32_t nblocks, const struct sp_source *src)
{
	struct enc e = { .fd = fd };
	uint8_t *batch = malloc((size_t)ENC_BATCH * SP_BLK);
	int ret = -ENOMEM;

	e.out = malloc(ENC_BUF);
	if (batch && e.out)
		ret = encode_all(&e, nblocks, src, batch);
	free(batch);
	free(e.out);
	return ret;
}
