// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/compress.c - writing compressed files (f2/engine.h): the inode's
 * compression fields, and clusters stored the way Linux stores them.
 * A cluster of n = 2^log blocks compressed to c bytes takes
 * k = ceil((24 + c) / 4096) data blocks: slot 0 holds COMPRESS_ADDR,
 * slots 1..k the header and compressed bytes, slots k+1..n-1 NEW_ADDR.
 * The kernel keeps the whole cluster charged (slot 0 and the
 * reservations count in i_blocks and valid_block_count, not in the SIT)
 * and adds n - k to i_compr_blocks; releasing (F2_COMPRESS_RELEASED)
 * turns the reservations into NULL_ADDR and uncharges them and slot 0,
 * leaving i_compr_blocks 0.  The kernel stores a cluster compressed only
 * when that saves a block: c + 24 <= (n - 1) * 4096.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "internal.h"

#define CHDR		24	/* clen, chksum, reserved[4] */
#define CHKSUM_FL	0x1	/* i_compress_flag: the header's checksum is set */

static const char *algo_name(int a)
{
	static const char *const n[] = { "lzo", "lz4", "zstd", "lzo-rle" };

	return a >= 0 && a < 4 ? n[a] : "unknown";
}

int f2_engine_set_compress(struct f2_engine *w, uint32_t ino, const struct f2_compress_opts *c)
{
	struct eng_blk *inode;
	struct f2_inode *i;
	int err;

	if (!(w->fs->features & F2_FEAT_COMPRESSION) || !(w->fs->features & F2_FEAT_EXTRA_ATTR))
		return eng_fail(w, F2_EUNSUPP, "compressed files need the compression and "
			       "extra_attr features");
	if (c->algo > F2_COMPRESS_LZORLE || !(f2_compress_supported() & (1u << c->algo)))
		return eng_fail(w, F2_EUNSUPP, "no %s compressor in this build", algo_name(c->algo));
	if (c->log_cluster < F2_MIN_CLUSTER_LOG || c->log_cluster > F2_MAX_CLUSTER_LOG)
		return eng_fail(w, F2_EBADOPT, "cluster of 2^%u blocks: the kernel takes 2^%d to 2^%d",
			       c->log_cluster, F2_MIN_CLUSTER_LOG, F2_MAX_CLUSTER_LOG);
	err = eng_inode_get(w, ino, &inode);
	if (err)
		return err;
	i = &eng_node(inode)->i;
	if (!S_ISREG(f2_le16(i->i_mode)))
		return eng_fail(w, F2_EUNSUPP, "ino %u: only regular files are compressed", ino);
	if (f2_le64(i->i_size) || (i->i_inline & F2_DATA_EXIST))
		return eng_fail(w, F2_EUNSUPP, "ino %u: not empty", ino);
	i->i_compress_algorithm = c->algo;
	i->i_log_cluster_size = c->log_cluster;
	f2_set_le16(i->i_compress_flag, c->chksum ? CHKSUM_FL : 0);
	f2_set_le64(i->i_compr_blocks, 0);
	if (f2_inode_compress_check(i, (i->i_inline & F2_EXTRA_ATTR) ?
				    f2_le16(i->i_extra_isize) / 4 : 0) != F2_COMPR_OK)
		return eng_fail(w, F2_EUNSUPP, "ino %u: extra attribute area without the "
			       "compression fields", ino);
	/* the kernel never keeps a compressed file's data inline */
	i->i_inline &= (uint8_t)~(F2_INLINE_DATA | F2_DATA_EXIST);
	if (c->release)
		i->i_inline |= F2_COMPRESS_RELEASED;
	f2_set_le32(i->i_flags, (f2_le32(i->i_flags) | F2_COMPR_FL) & ~F2_NOCOMP_FL);
	inode->dirty = 1;
	if (c->level != w->copts.level) {	/* coders are made for one level */
		for (int a = 0; a < 4; a++) {
			f2_compressor_free(w->coder[a]);
			w->coder[a] = NULL;
		}
	}
	w->copts = *c;
	return 0;
}

/* Slot fofs of ino (NULL when its node is missing and !create). */
static int slot_of(struct f2_engine *w, uint32_t ino, uint64_t fofs, int create, le32 **slot,
		   struct eng_blk **owner)
{
	uint32_t ofs;

	return eng_map_block(w, ino, fofs, create, slot, owner, &ofs);
}

/* Charge (d = 1) or uncharge (-1) one slot that the SIT does not count:
 * a cluster head or a reservation. */
static int charge(struct f2_engine *w, uint32_t ino, int d)
{
	struct eng_blk *inode;
	int err = eng_inode_get(w, ino, &inode);

	if (err)
		return err;
	if (d > 0 && w->valid_blocks >= w->user_blocks)
		return eng_fail(w, F2_ENOSPC, "no free block to reserve: %llu of %llu user "
			       "blocks valid", (unsigned long long)w->valid_blocks,
			       (unsigned long long)w->user_blocks);
	if (d < 0 && !w->valid_blocks)
		return eng_fail(w, F2_ECORRUPT, "valid block count below zero");
	w->valid_blocks = (uint64_t)((int64_t)w->valid_blocks + d);
	eng_add_iblocks(inode, d);
	return 0;
}

static int add_compr_blocks(struct f2_engine *w, uint32_t ino, int64_t d)
{
	struct eng_blk *inode;
	struct f2_inode *i;
	int err = eng_inode_get(w, ino, &inode);

	if (err)
		return err;
	i = &eng_node(inode)->i;
	if (d < 0 && f2_le64(i->i_compr_blocks) < (uint64_t)-d)
		return eng_fail(w, F2_ECORRUPT, "ino %u: i_compr_blocks below zero", ino);
	f2_set_le64(i->i_compr_blocks, (uint64_t)((int64_t)f2_le64(i->i_compr_blocks) + d));
	inode->dirty = 1;
	return 0;
}

/* Free everything cluster cidx holds, whatever its form. */
static int clear_cluster(struct f2_engine *w, uint32_t ino, uint32_t n, int released,
			 uint64_t cidx)
{
	uint64_t first = cidx * n;
	uint32_t data = 0;
	int head = 0, err;

	for (uint32_t k = 0; k < n; k++) {
		struct eng_blk *owner;
		le32 *slot;
		uint32_t a;

		err = slot_of(w, ino, first + k, 0, &slot, &owner);
		if (err)
			return err;
		a = slot ? f2_le32(*slot) : F2_NULL_ADDR;
		if (a == F2_NULL_ADDR)
			continue;
		*slot = 0;
		owner->dirty = 1;
		if (a == F2_COMPRESS_ADDR) {
			head |= k == 0;
			err = released ? 0 : charge(w, ino, -1);
		} else if (a == F2_NEW_ADDR) {
			err = charge(w, ino, -1);
		} else {
			data++;
			err = eng_invalidate(w, a);
			if (!err) {
				struct eng_blk *inode;

				err = eng_inode_get(w, ino, &inode);
				if (!err)
					eng_add_iblocks(inode, -1);
			}
		}
		if (err)
			return err;
	}
	return head && !released ? add_compr_blocks(w, ino, -(int64_t)(n - data)) : 0;
}

static int coder_for(struct f2_engine *w, int algo, struct f2_compressor **out)
{
	int err;

	if (algo < 0 || algo > 3)
		return eng_fail(w, F2_EUNSUPP, "compression algorithm %d unknown", algo);
	if (!w->coder[algo]) {
		/* clusters of the largest size: one coder serves all */
		err = f2_compressor_new(algo, w->copts.level, (size_t)F2_BLKSIZE << F2_MAX_CLUSTER_LOG,
					&w->coder[algo]);
		if (err)
			return eng_fail(w, err, "no %s compressor in this build", algo_name(algo));
	}
	if (!w->cbuf && !(w->cbuf = malloc((size_t)F2_BLKSIZE << F2_MAX_CLUSTER_LOG)))
		return -ENOMEM;
	*out = w->coder[algo];
	return 0;
}

/* Store cluster cidx (n blocks at data) compressed if that saves enough,
 * else plain. */
static int write_cluster(struct f2_engine *w, uint32_t ino, int t, uint32_t n, uint64_t cidx,
			 const uint8_t *data)
{
	struct eng_blk *inode, *owner;
	struct f2_compressor *coder = NULL;
	const struct f2_inode *i;
	size_t csize = (size_t)n * F2_BLKSIZE, clen, cap;
	uint32_t min_saved = w->copts.min_saved ? w->copts.min_saved : 1, k;
	uint64_t first = cidx * n;
	int released, chksum, algo, err;
	le32 *slot;

	err = eng_inode_get(w, ino, &inode);
	if (err)
		return err;
	i = &eng_node(inode)->i;
	released = !!(i->i_inline & F2_COMPRESS_RELEASED);
	chksum = f2_le16(i->i_compress_flag) & CHKSUM_FL;
	algo = i->i_compress_algorithm;
	err = clear_cluster(w, ino, n, released, cidx);
	if (err)
		return err;
	if (min_saved >= n)
		return eng_write_range(w, ino, t, first * F2_BLKSIZE, data, csize);
	err = coder_for(w, algo, &coder);
	if (err)
		return err;
	cap = (n - min_saved) * (size_t)F2_BLKSIZE - CHDR;
	err = f2_compressor_run(coder, data, csize, w->cbuf + CHDR, cap, &clen);
	if (err < 0)
		return eng_fail(w, err, "ino %u: cluster %llu: %s compression failed", ino,
			       (unsigned long long)cidx, algo_name(algo));
	if (err > 0 || !clen)
		return eng_write_range(w, ino, t, first * F2_BLKSIZE, data, csize);
	k = (uint32_t)((clen + CHDR + F2_BLKSIZE - 1) / F2_BLKSIZE);
	f2_set_le32(*(le32 *)w->cbuf, (uint32_t)clen);
	f2_set_le32(*(le32 *)(w->cbuf + 4),
		    chksum ? f2_crc32(F2_SUPER_MAGIC, w->cbuf + CHDR, clen) : 0);
	memset(w->cbuf + 8, 0, CHDR - 8);
	memset(w->cbuf + CHDR + clen, 0, (size_t)k * F2_BLKSIZE - CHDR - clen);

	err = slot_of(w, ino, first, 1, &slot, &owner);
	if (err)
		return err;
	f2_set_le32(*slot, F2_COMPRESS_ADDR);
	owner->dirty = 1;
	if (!released && (err = charge(w, ino, 1)))
		return err;
	for (uint32_t b = 1; b <= k; b++) {
		err = eng_write_block_at(w, ino, first + b, t, w->cbuf + (size_t)(b - 1) * F2_BLKSIZE);
		if (err)
			return err;
	}
	for (uint32_t b = k + 1; b < n && !released; b++) {
		err = slot_of(w, ino, first + b, 1, &slot, &owner);
		if (err)
			return err;
		f2_set_le32(*slot, F2_NEW_ADDR);
		owner->dirty = 1;
		err = charge(w, ino, 1);
		if (err)
			return err;
	}
	return released ? 0 : add_compr_blocks(w, ino, n - k);
}

/* A write into part of cluster cidx: only a cluster not compressed. */
static int check_plain(struct f2_engine *w, uint32_t ino, uint32_t n, uint64_t cidx)
{
	struct eng_blk *owner;
	le32 *slot;
	int err = slot_of(w, ino, cidx * n, 0, &slot, &owner);

	if (err)
		return err;
	if (slot && f2_le32(*slot) == F2_COMPRESS_ADDR)
		return eng_fail(w, F2_EUNSUPP, "ino %u: a write into part of compressed cluster "
			       "%llu", ino, (unsigned long long)cidx);
	return 0;
}

int eng_write_compressed(struct f2_engine *w, uint32_t ino, int t, uint64_t off,
			 const uint8_t *src, size_t len)
{
	struct eng_blk *inode;
	struct eng_ilayout l;
	uint64_t end = off + len, csz;
	int err = eng_inode_get(w, ino, &inode);

	if (err)
		return err;
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	if (!l.cluster)
		return eng_write_range(w, ino, t, off, src, len);
	csz = (uint64_t)l.cluster * F2_BLKSIZE;
	while (off < end) {
		uint64_t cidx = off / csz, cend = (cidx + 1) * csz, n;

		if (off % csz == 0 && end >= cend) {
			n = csz;
			err = write_cluster(w, ino, t, l.cluster, cidx, src);
		} else {
			n = (end < cend ? end : cend) - off;
			err = check_plain(w, ino, l.cluster, cidx);
			if (!err)
				err = eng_write_range(w, ino, t, off, src, (size_t)n);
		}
		if (err)
			return err;
		src += n;
		off += n;
	}
	return 0;
}
