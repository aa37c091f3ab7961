// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/file.c - file contents through the engine: the inode's layout,
 * mapping a file block through direct, indirect and double-indirect nodes
 * (made on demand with the kernel's node offsets), writing data into the
 * logs with SSA entries, inline data and its conversion, reading back,
 * and truncation that frees data blocks and the nodes left empty.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/errors.h"
#include "f2/io.h"
#include "f2/node.h"
#include "internal.h"

#define NPB	F2_NIDS_PER_BLOCK	/* 1018 */
#define APB	F2_ADDRS_PER_BLOCK	/* 1018 */
#define BATCH	256

void eng_inode_layout(const struct f2_node *n, uint32_t features, struct eng_ilayout *l)
{
	const struct f2_inode *i = &n->i;

	l->extra = (i->i_inline & F2_EXTRA_ATTR) ? f2_le16(i->i_extra_isize) / 4 : 0;
	if (l->extra > F2_EXTRA_ISIZE / 4)	/* never a slot outside the node */
		l->extra = F2_EXTRA_ISIZE / 4;
	l->xwords = 0;
	if (features & F2_FEAT_FLEX_INLINE_XATTR) {
		if (l->extra)
			l->xwords = f2_le16(i->i_inline_xattr_size);
		else if (i->i_inline & (F2_INLINE_XATTR | F2_INLINE_DENTRY))
			l->xwords = F2_INLINE_XATTR_ADDRS;
	} else if (i->i_inline & (F2_INLINE_XATTR | F2_INLINE_DENTRY)) {
		l->xwords = F2_INLINE_XATTR_ADDRS;
	}
	if (l->extra + l->xwords + 9 > F2_ADDRS_PER_INODE)
		l->xwords = 0;
	l->addrs = F2_ADDRS_PER_INODE - l->extra - l->xwords;
	l->inline_bytes = 4 * (l->addrs - 1);
	l->baddrs = APB;
	l->cluster = 0;
	/* a compressed file's nodes end on a cluster boundary (the read
	 * path's rule, f2_inode_parse) */
	if ((f2_le32(i->i_flags) & F2_COMPR_FL) && S_ISREG(f2_le16(i->i_mode)) &&
	    (features & F2_FEAT_COMPRESSION) && f2_inode_compress_check(i, l->extra) == F2_COMPR_OK) {
		l->cluster = 1u << i->i_log_cluster_size;
		l->addrs &= ~(l->cluster - 1);
		l->baddrs &= ~(l->cluster - 1);
	}
}

int eng_inode_get(struct f2_engine *w, uint32_t ino, struct eng_blk **out)
{
	int err = eng_node_get(w, ino, ino, out);

	if (err)
		return err;
	if (f2_node_ofs(eng_node(*out)) != 0)
		return eng_fail(w, F2_ECORRUPT, "ino %u: not an inode (node offset %u)", ino,
			       f2_node_ofs(eng_node(*out)));
	return 0;
}

static void add_iblocks(struct eng_blk *inode, int64_t d)
{
	struct f2_inode *i = &eng_node(inode)->i;

	f2_set_le64(i->i_blocks, (uint64_t)((int64_t)f2_le64(i->i_blocks) + d));
	inode->dirty = 1;
}

/* eng_map_block; without create, *skip (when not NULL) gets the blocks
 * from fofs on that a missing node leaves unmapped, else 1. */
static int map_block(struct f2_engine *w, uint32_t ino, uint64_t fofs, int create,
		     le32 **slot, struct eng_blk **owner, uint32_t *ofs, uint64_t *skip)
{
	struct eng_blk *inode, *cur;
	struct eng_ilayout l;
	struct f2_node_path p;
	le32 *ps;
	int r, err, is_dir;

	if (skip)
		*skip = 1;
	err = eng_inode_get(w, ino, &inode);
	if (err)
		return err;
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	is_dir = S_ISDIR(f2_le16(eng_node(inode)->i.i_mode));
	r = f2_node_path(fofs, l.addrs, l.baddrs, &p);
	if (r < 0)
		return eng_fail(w, F2_ERANGE, "ino %u: block %llu beyond the largest file", ino,
			       (unsigned long long)fofs);
	if (r == 0) {
		*slot = ENG_IADDR(eng_node(inode), l.extra + fofs);
		*owner = inode;
		*ofs = (uint32_t)fofs;
		return 0;
	}
	cur = inode;
	ps = ENG_INID(eng_node(inode), p.ofs[0]);
	for (int k = 1; k <= p.depth; k++) {
		uint32_t nid = f2_le32(*ps);
		struct eng_blk *next;

		if (!nid) {
			if (!create) {
				*slot = NULL;
				*owner = NULL;
				if (skip)
					*skip = p.end[k] - fofs;
				return 0;
			}
			err = eng_node_new(w, ino, p.nofs[k], is_dir, &nid, &next);
			if (err)
				return err;
			f2_set_le32(*ps, nid);
			cur->dirty = 1;
			add_iblocks(inode, 1);
		} else {
			err = eng_node_get(w, nid, ino, &next);
			if (err)
				return err;
			if (f2_node_ofs(eng_node(next)) != p.nofs[k])
				return eng_fail(w, F2_ECORRUPT,
					       "ino %u: nid %u at node offset %u, expected %u",
					       ino, nid, f2_node_ofs(eng_node(next)), p.nofs[k]);
		}
		cur = next;
		if (k < p.depth)
			ps = ENG_NADDR(eng_node(cur), p.ofs[k]);
	}
	*slot = ENG_NADDR(eng_node(cur), p.ofs[p.depth]);
	*owner = cur;
	*ofs = p.ofs[p.depth];
	return 0;
}

int eng_map_block(struct f2_engine *w, uint32_t ino, uint64_t fofs, int create,
		 le32 **slot, struct eng_blk **owner, uint32_t *ofs)
{
	return map_block(w, ino, fofs, create, slot, owner, ofs, NULL);
}

int eng_next_mapped(struct f2_engine *w, uint32_t ino, uint64_t fofs, uint64_t end,
		    uint64_t *next)
{
	struct eng_blk *inode, *owner;
	struct eng_ilayout l;
	uint64_t max, skip;
	uint32_t ofs, a;
	le32 *slot;
	int err = eng_inode_get(w, ino, &inode);

	if (err)
		return err;
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	max = f2_node_max_blocks(l.addrs, l.baddrs);
	if (end > max)
		end = max;	/* nothing is mapped past the largest file */
	for (; fofs < end; fofs += skip) {
		skip = 1;
		err = map_block(w, ino, fofs, 0, &slot, &owner, &ofs, &skip);
		if (err)
			return err;
		a = slot ? f2_le32(*slot) : F2_NULL_ADDR;
		if (a != F2_NULL_ADDR && a != F2_NEW_ADDR)
			break;
	}
	*next = fofs < end ? fofs : end;
	return 0;
}

static int node_version(struct f2_engine *w, uint32_t nid, uint8_t *ver)
{
	struct eng_nat *e;
	int err = eng_nat_get(w, nid, &e);

	if (!err)
		*ver = e->version;
	return err;
}

/* The inode's extent cache (i_ext) must not name blocks that move or go:
 * drop it when it covers file blocks [from, to). */
static void drop_extent(struct eng_blk *inode, uint64_t from, uint64_t to)
{
	struct f2_extent *x = &eng_node(inode)->i.i_ext;
	uint64_t s = f2_le32(x->fofs), n = f2_le32(x->len);

	if (n && s < to && from < s + n) {
		memset(x, 0, sizeof(*x));
		inode->dirty = 1;
	}
}

/* Point fofs at a freshly allocated block of log t; *addr gets it. */
static int place_block(struct f2_engine *w, uint32_t ino, uint64_t fofs, int t, uint32_t *addr)
{
	struct eng_blk *owner, *inode;
	le32 *slot;
	uint32_t ofs, old;
	uint8_t ver;
	int err = eng_map_block(w, ino, fofs, 1, &slot, &owner, &ofs);

	if (err)
		return err;
	old = f2_le32(*slot);
	err = eng_inode_get(w, ino, &inode);
	if (err)
		return err;
	drop_extent(inode, fofs, fofs + 1);
	if (old == F2_NULL_ADDR)
		add_iblocks(inode, 1);
	else if ((err = eng_drop_data(w, old)))	/* a reservation is already counted */
		return err;
	err = node_version(w, (uint32_t)owner->key, &ver);
	if (err)
		return err;
	err = eng_alloc_block(w, t, (uint32_t)owner->key, (uint16_t)ofs, ver, addr);
	if (err)
		return err;
	f2_set_le32(*slot, *addr);
	owner->dirty = 1;
	return 0;
}

int eng_place_block(struct f2_engine *w, uint32_t ino, uint64_t fofs, int t, uint32_t *addr)
{
	return place_block(w, ino, fofs, t, addr);
}

void eng_add_iblocks(struct eng_blk *inode, int64_t d)
{
	add_iblocks(inode, d);
}

int eng_write_block_at(struct f2_engine *w, uint32_t ino, uint64_t fofs, int t, const void *buf)
{
	uint32_t addr;
	int err = place_block(w, ino, fofs, t, &addr);

	if (err)
		return err;
	err = f2_io_write_block(w->fs->io, addr, buf);
	if (err)
		return eng_fail(w, err, "ino %u block %llu: write to %u failed", ino,
			       (unsigned long long)fofs, addr);
	return 0;
}

int eng_read_file_block(struct f2_engine *w, uint32_t ino, uint64_t fofs, void *buf, int *hole)
{
	struct eng_blk *b = f2_pmap_get(&w->dblks, (uint64_t)ino << 32 | fofs), *owner;
	le32 *slot;
	uint32_t ofs, addr;
	int err;

	if (hole)
		*hole = 0;
	if (b && fofs <= UINT32_MAX) {
		memcpy(buf, b->data, F2_BLKSIZE);
		return 0;
	}
	err = eng_map_block(w, ino, fofs, 0, &slot, &owner, &ofs);
	if (err)
		return err;
	addr = slot ? f2_le32(*slot) : F2_NULL_ADDR;
	if (addr == F2_NULL_ADDR || addr == F2_NEW_ADDR) {
		memset(buf, 0, F2_BLKSIZE);
		if (hole)
			*hole = 1;
		return 0;
	}
	if (!f2_fs_in_main(w->fs, addr))
		return eng_fail(w, F2_ECORRUPT, "ino %u block %llu: address %u outside main",
			       ino, (unsigned long long)fofs, addr);
	err = f2_fs_read_block(w->fs, addr, buf);
	if (err)
		return eng_fail(w, err, "ino %u: %s", ino, w->fs->why);
	return 0;
}

/* ---- truncation --------------------------------------------------------- */
static int free_addrs(struct f2_engine *w, struct eng_blk *inode, struct eng_blk *b, le32 *a,
		      uint32_t n, uint64_t base, uint64_t from)
{
	int released = !!(eng_node(inode)->i.i_inline & F2_COMPRESS_RELEASED);

	for (uint32_t i = 0; i < n; i++) {
		uint32_t addr = f2_le32(a[i]);
		int err;

		if (base + i < from || addr == F2_NULL_ADDR)
			continue;
		if (addr == F2_COMPRESS_ADDR && released) {
			/* a released cluster's head is counted nowhere */
			a[i] = 0;
			b->dirty = 1;
			continue;
		}
		/* a cluster head is counted like a reservation */
		err = eng_drop_data(w, addr == F2_COMPRESS_ADDR ? F2_NEW_ADDR : addr);
		if (err)
			return err;
		a[i] = 0;
		b->dirty = 1;
		add_iblocks(inode, -1);
	}
	return 0;
}

/* Free the part >= from of the subtree at nid (depth 0 direct, 1
 * indirect, 2 double indirect) covering file blocks from base; the node
 * itself goes when all of it does. */
static int trunc_tree(struct f2_engine *w, struct eng_blk *inode, uint32_t nid, int depth,
		      uint32_t baddrs, uint64_t base, uint64_t from, int *freed)
{
	/* file blocks under one child of this node, and under the node */
	uint64_t child = depth == 0 ? 1 : depth == 1 ? baddrs : (uint64_t)NPB * baddrs;
	uint64_t span = depth == 0 ? baddrs : child * NPB;
	struct eng_blk *b;
	int err;

	*freed = 0;
	if (base + span <= from)
		return 0;
	err = eng_node_get(w, nid, inode->ino, &b);
	if (err)
		return err;
	if (depth == 0) {
		err = free_addrs(w, inode, b, ENG_NADDR(eng_node(b), 0), baddrs, base, from);
	} else {
		for (uint32_t i = 0; i < NPB && !err; i++) {
			uint32_t c = f2_le32(eng_node(b)->in.nid[i]);
			int gone;

			if (!c)
				continue;
			err = trunc_tree(w, inode, c, depth - 1, baddrs, base + i * child, from,
					 &gone);
			if (!err && gone) {
				eng_node(b)->in.nid[i] = 0;
				b->dirty = 1;
			}
		}
	}
	if (err || from > base)
		return err;
	add_iblocks(inode, -1);
	*freed = 1;
	return eng_node_free(w, nid);
}

int eng_truncate_blocks(struct f2_engine *w, uint32_t ino, uint64_t from)
{
	static const int depth[F2_NIDS_PER_INODE] = { 0, 0, 1, 1, 2 };
	struct eng_blk *inode;
	struct eng_ilayout l;
	uint64_t base;
	int err = eng_inode_get(w, ino, &inode);

	if (err)
		return err;
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	if (eng_node(inode)->i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY))
		return 0;
	drop_extent(inode, from, UINT64_MAX);
	/* cached directory blocks past the end go first */
	if (w->dblks.n) {
		struct eng_blk **v = (struct eng_blk **)f2_pmap_values(&w->dblks);
		size_t n = w->dblks.n;

		if (!v)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			if (v[i]->ino == ino && v[i]->fofs >= from) {
				f2_pmap_del(&w->dblks, v[i]->key);
				free(v[i]);
				w->cached--;
			}
		free(v);
	}
	err = free_addrs(w, inode, inode, ENG_IADDR(eng_node(inode), l.extra), l.addrs, 0, from);
	for (int r = 0; r < F2_NIDS_PER_INODE && !err; r++) {
		uint32_t nid = f2_le32(eng_node(inode)->i.i_nid[r]);
		int gone;

		if (!nid)
			continue;
		base = (uint64_t)f2_node_first_bidx(f2_node_top_ofs(r), l.addrs, l.baddrs);
		err = trunc_tree(w, inode, nid, depth[r], l.baddrs, base, from, &gone);
		if (!err && gone) {
			eng_node(inode)->i.i_nid[r] = 0;
			inode->dirty = 1;
		}
	}
	return err;
}

/* ---- writes --------------------------------------------------------------- */
static uint8_t *inline_area(struct eng_blk *inode, const struct eng_ilayout *l)
{
	return (uint8_t *)&eng_node(inode)->i.i_addr[l->extra + 1];
}

static int data_log(struct eng_blk *inode)
{
	uint8_t adv = eng_node(inode)->i.i_advise;

	if (S_ISDIR(f2_le16(eng_node(inode)->i.i_mode)))
		return F2_CURSEG_HOT_DATA;
	if (adv & F2_ADVISE_COLD)
		return F2_CURSEG_COLD_DATA;
	if (adv & F2_ADVISE_HOT)
		return F2_CURSEG_HOT_DATA;
	return F2_CURSEG_WARM_DATA;
}

/* Move inline data (if any) into block 0 and drop the inline flags. */
static int convert_inline(struct f2_engine *w, uint32_t ino, struct eng_blk *inode)
{
	struct f2_inode *i = &eng_node(inode)->i;
	struct eng_ilayout l;
	uint64_t size = f2_le64(i->i_size);
	size_t n;
	uint8_t blk[F2_BLKSIZE];
	int err = 0;

	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	n = size < l.inline_bytes ? (size_t)size : l.inline_bytes;
	/* (a new file's first write: nothing inline yet, nothing to copy) */
	if (size) {
		memcpy(blk, inline_area(inode, &l), n);
		memset(blk + n, 0, sizeof(blk) - n);
	}
	memset(inline_area(inode, &l), 0, l.inline_bytes);
	i->i_inline &= (uint8_t)~(F2_INLINE_DATA | F2_DATA_EXIST);
	inode->dirty = 1;
	if (size)
		err = eng_write_block_at(w, ino, 0, data_log(inode), blk);
	return err;
}

int eng_place_data(struct f2_engine *w, uint32_t ino, uint64_t fofs, uint32_t *addr)
{
	struct eng_blk *inode;
	int err = eng_inode_get(w, ino, &inode);

	if (!err && (eng_node(inode)->i.i_inline & F2_INLINE_DATA)) {
		err = convert_inline(w, ino, inode);
		if (!err)	/* its write may have moved the cached inode */
			err = eng_inode_get(w, ino, &inode);
	}
	return err ? err : place_block(w, ino, fofs, data_log(inode), addr);
}

static int write_partial(struct f2_engine *w, uint32_t ino, int t, uint64_t fofs, uint32_t at,
			 const uint8_t *src, uint32_t n)
{
	uint8_t blk[F2_BLKSIZE];
	int err = eng_read_file_block(w, ino, fofs, blk, NULL);

	if (!err) {
		memcpy(blk + at, src, n);
		err = eng_write_block_at(w, ino, fofs, t, blk);
	}
	return err;
}

int eng_write_range(struct f2_engine *w, uint32_t ino, int t, uint64_t off, const uint8_t *src,
		    size_t len)
{
	uint64_t end = off + len, run_start = 0;
	uint32_t run_n = 0;
	const uint8_t *run_src = NULL;
	int err;

	while (off < end) {
		uint64_t fofs = off / F2_BLKSIZE;
		uint32_t at = (uint32_t)(off % F2_BLKSIZE), n = F2_BLKSIZE - at, addr;

		if (n > end - off)
			n = (uint32_t)(end - off);
		if (n < F2_BLKSIZE) {
			/* partial block: read, modify, write */
			if (run_n && (err = f2_io_write(w->fs->io, run_start * F2_BLKSIZE, run_src,
						       (size_t)run_n * F2_BLKSIZE)))
				return eng_fail(w, err, "ino %u: data write failed", ino);
			run_n = 0;
			err = write_partial(w, ino, t, fofs, at, src, n);
			if (err)
				return err;
		} else {
			err = place_block(w, ino, fofs, t, &addr);
			if (err)
				return err;
			if (run_n && (addr != run_start + run_n || run_n == BATCH)) {
				err = f2_io_write(w->fs->io, run_start * F2_BLKSIZE, run_src,
						  (size_t)run_n * F2_BLKSIZE);
				if (err)
					return eng_fail(w, err, "ino %u: data write failed", ino);
				run_n = 0;
			}
			if (!run_n) {
				run_start = addr;
				run_src = src;
			}
			run_n++;
		}
		src += n;
		off += n;
	}
	if (run_n && (err = f2_io_write(w->fs->io, run_start * F2_BLKSIZE, run_src,
				       (size_t)run_n * F2_BLKSIZE)))
		return eng_fail(w, err, "ino %u: data write failed", ino);
	return 0;
}

int f2_engine_write(struct f2_engine *w, uint32_t ino, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *src = buf;
	struct eng_blk *inode;
	struct eng_ilayout l;
	uint64_t size, end = off + len;
	int err;

	err = eng_maybe_writeback(w);
	if (err)
		return err;
	err = eng_inode_get(w, ino, &inode);
	if (err)
		return err;
	if (S_ISDIR(f2_le16(eng_node(inode)->i.i_mode)))
		return eng_fail(w, -EISDIR, "ino %u: a directory", ino);
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	size = f2_le64(eng_node(inode)->i.i_size);
	if (!len)
		return 0;
	if (eng_node(inode)->i.i_inline & F2_INLINE_DATA) {
		if (end <= l.inline_bytes) {
			memcpy(inline_area(inode, &l) + off, src, len);
			eng_node(inode)->i.i_inline |= F2_DATA_EXIST;
			if (end > size)
				f2_set_le64(eng_node(inode)->i.i_size, end);
			inode->dirty = 1;
			return 0;
		}
		err = convert_inline(w, ino, inode);
		if (err)
			return err;
	}
	if (l.cluster)
		err = eng_write_compressed(w, ino, data_log(inode), off, src, len);
	else
		err = eng_write_range(w, ino, data_log(inode), off, src, len);
	if (err)
		return err;
	err = eng_inode_get(w, ino, &inode);
	if (err)
		return err;
	if (end > f2_le64(eng_node(inode)->i.i_size)) {
		f2_set_le64(eng_node(inode)->i.i_size, end);
		inode->dirty = 1;
	}
	return 0;
}

int f2_engine_truncate(struct f2_engine *w, uint32_t ino, uint64_t size)
{
	struct eng_blk *inode;
	struct eng_ilayout l;
	uint64_t old;
	int err = eng_maybe_writeback(w);

	if (err || (err = eng_inode_get(w, ino, &inode)))
		return err;
	if (S_ISDIR(f2_le16(eng_node(inode)->i.i_mode)))
		return eng_fail(w, -EISDIR, "ino %u: a directory", ino);
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	old = f2_le64(eng_node(inode)->i.i_size);
	if (l.cluster && size < old)
		return eng_fail(w, F2_EUNSUPP, "ino %u: shrinking a compressed file", ino);
	if (eng_node(inode)->i.i_inline & F2_INLINE_DATA) {
		if (size > l.inline_bytes) {
			err = convert_inline(w, ino, inode);
			if (err)
				return err;
		} else if (size < old) {
			memset(inline_area(inode, &l) + size, 0, l.inline_bytes - size);
		}
	}
	if (!(eng_node(inode)->i.i_inline & F2_INLINE_DATA) && size < old) {
		err = eng_truncate_blocks(w, ino, (size + F2_BLKSIZE - 1) / F2_BLKSIZE);
		if (!err && size % F2_BLKSIZE) {
			uint8_t *blk = malloc(F2_BLKSIZE);
			int hole;

			if (!blk)
				return -ENOMEM;
			err = eng_read_file_block(w, ino, size / F2_BLKSIZE, blk, &hole);
			if (!err && !hole) {
				memset(blk + size % F2_BLKSIZE, 0, F2_BLKSIZE - size % F2_BLKSIZE);
				err = eng_write_block_at(w, ino, size / F2_BLKSIZE, data_log(inode),
							blk);
			}
			free(blk);
		}
		if (err)
			return err;
	}
	err = eng_inode_get(w, ino, &inode);
	if (err)
		return err;
	f2_set_le64(eng_node(inode)->i.i_size, size);
	inode->dirty = 1;
	return 0;
}
