// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * harness.c - base images, input parsing and the patched device shared by
 * every fuzz target (the format is described in harness.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/format.h"
#include "f2/geometry.h"
#include "f2/io.h"
#include "f2/mkfs.h"
#include "harness.h"

/* Feature sets of the base images: the defaults, the metadata features
 * (checksums, extra attributes, quota, lost+found, compression), and the
 * ones that change name lookup and contents (casefold, encrypt, verity). */
static const uint32_t variant_features[FZ_NVARIANTS] = {
	0,
	F2_FEAT_EXTRA_ATTR | F2_FEAT_INODE_CHKSUM | F2_FEAT_FLEX_INLINE_XATTR |
		F2_FEAT_INODE_CRTIME | F2_FEAT_SB_CHKSUM | F2_FEAT_LOST_FOUND |
		F2_FEAT_QUOTA_INO | F2_FEAT_PRJQUOTA | F2_FEAT_COMPRESSION,
	F2_FEAT_EXTRA_ATTR | F2_FEAT_CASEFOLD | F2_FEAT_COMPRESSION |
		F2_FEAT_ENCRYPT | F2_FEAT_VERITY,
};

static struct f2_io *bases[FZ_NVARIANTS];

struct f2_io *fz_base(unsigned v)
{
	struct f2_mkfs_opts o;
	struct f2_geom g;
	struct f2_super sb;
	const char *why = NULL;
	int err;

	v %= FZ_NVARIANTS;
	if (bases[v])
		return bases[v];
	memset(&o, 0, sizeof(o));
	o.geom.sector_size = 512;
	o.geom.ndevs = 1;
	o.geom.devs[0].total_sectors = FZ_IMAGE_BYTES / 512;
	o.geom.segs_per_sec = 1;
	o.geom.secs_per_zone = 1;
	o.geom.features = variant_features[v];
	o.sb.features = variant_features[v];
	if (variant_features[v] & F2_FEAT_CASEFOLD)
		o.sb.encoding = 1;	/* utf8-12.1 */
	o.sb.label = "fuzz";
	o.sb.version = "fuzz";
	memset(o.sb.uuid, 0x5a + v, 16);
	o.timestamp = 1700000000;
	o.cp_ver = 0x1001;
	err = f2_geometry_compute(&o.geom, &g, &why);
	if (!err)
		err = f2_io_open_mem(FZ_IMAGE_BYTES, &bases[v]);
	if (!err)
		err = f2_mkfs_write(bases[v], &o, &g, &sb, NULL, NULL);
	if (err) {
		fprintf(stderr, "fuzz harness: cannot make base image %u: %s (%s)\n", v,
			f2_strerror(err), why ? why : "");
		exit(2);
	}
	return bases[v];
}

static uint16_t le16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32_at(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

unsigned fz_parse(const uint8_t *in, size_t size,
		  void (*fn)(void *ctx, const struct fz_rec *r), void *ctx)
{
	size_t pos = 1;

	if (!size)
		return 0;
	while (pos + FZ_REC_HDR <= size) {
		struct fz_rec r;
		size_t len;

		r.blk = (uint32_t)(le32_at(in + pos) % FZ_IMAGE_BLOCKS);
		r.off = le16_at(in + pos + 4) % F2_BLKSIZE;
		len = le16_at(in + pos + 6);
		pos += FZ_REC_HDR;
		if (len > F2_BLKSIZE - r.off)
			len = F2_BLKSIZE - r.off;
		if (len > size - pos)
			len = size - pos;
		r.len = (uint16_t)len;
		r.data = in + pos;
		pos += len;
		if (r.len)
			fn(ctx, &r);
	}
	return in[0] % FZ_NVARIANTS;
}

size_t fz_put_rec(uint8_t *out, uint32_t blk, uint16_t off, uint16_t len, const uint8_t *data)
{
	out[0] = (uint8_t)blk;
	out[1] = (uint8_t)(blk >> 8);
	out[2] = (uint8_t)(blk >> 16);
	out[3] = (uint8_t)(blk >> 24);
	out[4] = (uint8_t)off;
	out[5] = (uint8_t)(off >> 8);
	out[6] = (uint8_t)len;
	out[7] = (uint8_t)(len >> 8);
	memcpy(out + FZ_REC_HDR, data, len);
	return FZ_REC_HDR + (size_t)len;
}

/* ---- the patched device ------------------------------------------------- */

/* Undo log: the bytes each record replaced, restored in reverse order. */
struct undo {
	uint64_t off;
	uint16_t len;
	uint8_t old[F2_BLKSIZE];
};

static struct {
	struct f2_io *dev;		/* the base device being patched */
	struct undo *undo;
	size_t nundo, capundo;
	uint8_t hot_map[FZ_IMAGE_BLOCKS / 8];
	uint32_t hot[FZ_IMAGE_BLOCKS];
	size_t nhot;
} st;

static void apply_rec(void *ctx, const struct fz_rec *r)
{
	uint64_t off = (uint64_t)r->blk * F2_BLKSIZE + r->off;
	struct undo *u;

	(void)ctx;
	if (st.nundo == st.capundo) {
		size_t cap = st.capundo ? st.capundo * 2 : 64;
		struct undo *n = realloc(st.undo, cap * sizeof(*n));

		if (!n)
			abort();
		st.undo = n;
		st.capundo = cap;
	}
	u = &st.undo[st.nundo++];
	u->off = off;
	u->len = r->len;
	if (f2_io_read(st.dev, off, u->old, r->len) || f2_io_write(st.dev, off, r->data, r->len))
		abort();
}

static void note_read(uint64_t off, size_t len)
{
	if (!len)
		return;
	for (uint64_t b = off / F2_BLKSIZE; b <= (off + len - 1) / F2_BLKSIZE &&
	     b < FZ_IMAGE_BLOCKS; b++) {
		if (st.hot_map[b / 8] & (1u << (b % 8)))
			continue;
		st.hot_map[b / 8] |= (uint8_t)(1u << (b % 8));
		st.hot[st.nhot++] = (uint32_t)b;
	}
}

static int trk_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	int err = f2_io_read(io->lower, off, buf, len);

	if (!err)
		note_read(off, len);
	return err;
}

static int trk_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	(void)io; (void)off; (void)buf; (void)len;
	abort();	/* the read path must never write */
}

static int trk_flush(struct f2_io *io)
{
	(void)io;
	return 0;
}

static int trk_range(struct f2_io *io, uint64_t off, uint64_t len)
{
	(void)io; (void)off; (void)len;
	abort();
}

static const struct f2_io_ops trk_ops = {
	.name = "fuzz",
	.read = trk_read,
	.write = trk_write,
	.flush = trk_flush,
	.discard = trk_range,
	.zero = trk_range,
	.close = NULL,
};

static struct f2_io trk = { .ops = &trk_ops, .size = FZ_IMAGE_BYTES, .name = (char *)"fuzz" };

struct f2_io *fz_begin(const uint8_t *in, size_t size)
{
	unsigned v = size ? in[0] % FZ_NVARIANTS : 0;

	st.dev = fz_base(v);
	st.nundo = 0;
	fz_parse(in, size, apply_rec, NULL);
	trk.lower = st.dev;
	return &trk;
}

void fz_end(void)
{
	while (st.nundo) {
		struct undo *u = &st.undo[--st.nundo];

		if (f2_io_write(st.dev, u->off, u->old, u->len))
			abort();
	}
}

size_t fz_hot_count(void)
{
	return st.nhot;
}

uint32_t fz_hot_block(size_t i)
{
	return st.hot[i % (st.nhot ? st.nhot : 1)];
}
