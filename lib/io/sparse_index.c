/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparse_index.c - read an Android sparse file: check its header and chunk
 * table once, keep them as an index of extents, and serve byte ranges of
 * the image from that index (binary search, then the file or the pattern).
 * The format is described in sparse_private.h.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "f2/errors.h"
#include "sparse_private.h"

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int sp_has_magic(int fd)
{
	uint8_t m[4];
	int ret = sp_pread_all(fd, m, sizeof(m), 0);

	if (ret == F2_ESHORTIO)
		return 0;
	return ret ? ret : get32(m) == SP_MAGIC;
}

void sp_index_free(struct sp_index *idx)
{
	free(idx->ext);
	memset(idx, 0, sizeof(*idx));
}

/* Append an extent, growing the array by doubling. */
static int add_extent(struct sp_index *idx, uint32_t *cap, const struct sp_extent *e)
{
	if (idx->n == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 64;
		struct sp_extent *p;

		if (ncap < *cap)
			return -ENOMEM;
		p = realloc(idx->ext, (size_t)ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		idx->ext = p;
		*cap = ncap;
	}
	idx->ext[idx->n++] = *e;
	return 0;
}

int sp_index_empty(uint32_t blk_sz, uint32_t nblocks, struct sp_index *idx)
{
	struct sp_extent e = { .count = nblocks, .type = SP_DONT_CARE };
	uint32_t cap = 0;

	memset(idx, 0, sizeof(*idx));
	idx->blk_sz = blk_sz;
	idx->nblocks = nblocks;
	return nblocks ? add_extent(idx, &cap, &e) : 0;
}

/* The checked file header. */
struct sp_head {
	uint32_t file_hdr_sz, chunk_hdr_sz, total_chunks;
};

static int parse_header(int fd, uint64_t fsize, struct sp_index *idx, struct sp_head *h)
{
	uint8_t b[SP_FILE_HDR];

	if (fsize < SP_FILE_HDR || sp_pread_all(fd, b, sizeof(b), 0))
		return F2_ESPARSE;
	if (get32(b) != SP_MAGIC || get16(b + 4) != SP_MAJOR)
		return F2_ESPARSE;
	h->file_hdr_sz = get16(b + 8);
	h->chunk_hdr_sz = get16(b + 10);
	idx->blk_sz = get32(b + 12);
	idx->nblocks = get32(b + 16);
	h->total_chunks = get32(b + 20);
	if (h->file_hdr_sz < SP_FILE_HDR || h->chunk_hdr_sz < SP_CHUNK_HDR ||
	    !idx->blk_sz || idx->blk_sz % 4 || h->file_hdr_sz > fsize)
		return F2_ESPARSE;
	/* every chunk takes a header's bytes: bounds the loop by the file */
	if (h->total_chunks > (fsize - h->file_hdr_sz) / h->chunk_hdr_sz)
		return F2_ESPARSE;
	return 0;
}

/*
 * The chunk at *pos: checked against the file and the blocks left, added
 * to idx (CRC32 chunks and empty chunks add nothing), *pos moved past it.
 */
static int parse_chunk(int fd, uint64_t fsize, const struct sp_head *h, uint64_t *pos,
		       uint64_t *blk, struct sp_index *idx, uint32_t *cap)
{
	uint8_t b[SP_CHUNK_HDR];
	struct sp_extent e = { .first = *blk };
	uint64_t payload = 0, total;
	uint32_t count;

	if (fsize - *pos < h->chunk_hdr_sz || sp_pread_all(fd, b, sizeof(b), *pos))
		return F2_ESPARSE;
	e.type = get16(b);
	count = get32(b + 4);
	total = get32(b + 8);
	switch (e.type) {
	case SP_RAW:
		payload = (uint64_t)count * idx->blk_sz;	/* < 2^64: both u32 */
		break;
	case SP_FILL:
	case SP_CRC32:
		payload = 4;
		break;
	case SP_DONT_CARE:
		break;
	default:
		return F2_ESPARSE;
	}
	if (total < h->chunk_hdr_sz || total - h->chunk_hdr_sz != payload ||
	    fsize - *pos < total)
		return F2_ESPARSE;
	if (e.type == SP_FILL && sp_pread_all(fd, e.fill, 4, *pos + h->chunk_hdr_sz))
		return F2_ESPARSE;
	e.off = *pos + h->chunk_hdr_sz;
	*pos += total;
	if (e.type == SP_CRC32 || !count)
		return 0;
	if (count > idx->nblocks - *blk)
		return F2_ESPARSE;
	e.count = count;
	*blk += count;
	return add_extent(idx, cap, &e);
}

int sp_index_parse(int fd, struct sp_index *idx)
{
	struct sp_head h = { 0 };
	struct stat st;
	uint64_t pos, blk = 0;
	uint32_t cap = 0;
	int ret;

	memset(idx, 0, sizeof(*idx));
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size < 0)
		return F2_ESPARSE;
	ret = parse_header(fd, (uint64_t)st.st_size, idx, &h);
	pos = h.file_hdr_sz;
	for (uint32_t i = 0; !ret && i < h.total_chunks; i++)
		ret = parse_chunk(fd, (uint64_t)st.st_size, &h, &pos, &blk, idx, &cap);
	if (!ret && blk != idx->nblocks)
		ret = F2_ESPARSE;	/* the chunks do not cover the image */
	if (ret)
		sp_index_free(idx);
	return ret;
}

const struct sp_extent *sp_index_find(const struct sp_index *idx, uint64_t blk)
{
	uint32_t lo = 0, hi = idx->n;

	/* the last extent whose first block is <= blk */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (idx->ext[mid].first <= blk)
			lo = mid;
		else
			hi = mid;
	}
	return &idx->ext[lo];
}

int sp_index_read(const struct sp_index *idx, int fd, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		const struct sp_extent *e = sp_index_find(idx, off / idx->blk_sz);
		uint64_t start = e->first * idx->blk_sz;
		uint64_t left = start + (uint64_t)e->count * idx->blk_sz - off;
		size_t n = len < left ? len : (size_t)left;
		int ret;

		switch (e->type) {
		case SP_RAW:
			ret = sp_pread_all(fd, p, n, e->off + (off - start));
			if (ret)
				return ret;
			break;
		case SP_FILL:
			/* blocks start at multiples of 4: the pattern follows off */
			for (size_t i = 0; i < n; i++)
				p[i] = e->fill[(off + i) & 3];
			break;
		default:
			memset(p, 0, n);
		}
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}
