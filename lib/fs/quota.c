// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quota.c - the quota v2r1 file format (f2/quota.h): checking a file's
 * header, walking its tree to every entry with each ref bounded and each
 * block reached at most once, and laying a file out from a list of ids.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/quota.h"

static const uint32_t magics[F2_MAX_QUOTAS] = { 0xd9c01f11, 0xd9c01927, 0xd9c03f14 };

uint32_t f2_quota_magic(int type)
{
	return type >= 0 && type < F2_MAX_QUOTAS ? magics[type] : 0;
}

static uint8_t *blk_at(const void *buf, uint32_t blk)
{
	return (uint8_t *)buf + (size_t)blk * F2_QT_BLKSIZE;
}

static struct f2_qt_dquot *entry_at(uint8_t *dblk, uint32_t k)
{
	return (struct f2_qt_dquot *)(dblk + sizeof(struct f2_qt_dblk) +
				      k * sizeof(struct f2_qt_dquot));
}

static le32 *ref_at(uint8_t *tblk, uint32_t i)
{
	return (le32 *)(void *)(tblk + 4 * (size_t)i);
}

/* Index of id in a tree block of level depth. */
static uint32_t id_index(uint32_t id, int depth)
{
	return (id >> (8 * (F2_QT_DEPTH - 1 - depth))) & 0xff;
}

static void dq_from_disk(const struct f2_qt_dquot *d, struct f2_quota_dq *q)
{
	q->id = f2_le32(d->id);
	q->ihard = f2_le64(d->ihardlimit);
	q->isoft = f2_le64(d->isoftlimit);
	q->inodes = f2_le64(d->curinodes);
	q->bhard = f2_le64(d->bhardlimit);
	q->bsoft = f2_le64(d->bsoftlimit);
	q->space = f2_le64(d->curspace);
	q->btime = f2_le64(d->btime);
	q->itime = f2_le64(d->itime);
}

static int all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

static void dq_to_disk(const struct f2_quota_dq *q, struct f2_qt_dquot *d)
{
	memset(d, 0, sizeof(*d));
	f2_set_le32(d->id, q->id);
	f2_set_le64(d->ihardlimit, q->ihard);
	f2_set_le64(d->isoftlimit, q->isoft);
	f2_set_le64(d->curinodes, q->inodes);
	f2_set_le64(d->bhardlimit, q->bhard);
	f2_set_le64(d->bsoftlimit, q->bsoft);
	f2_set_le64(d->curspace, q->space);
	f2_set_le64(d->btime, q->btime);
	f2_set_le64(d->itime, q->itime);
	if (all_zero(d, sizeof(*d)))	/* id 0 owning nothing: not "unused" */
		f2_set_le64(d->itime, 1);
}

int f2_quota_header(const void *buf, size_t len, int type, struct f2_quota_hdr *h,
		    char *why, size_t whylen)
{
	const struct f2_qt_header *qh = buf;
	const struct f2_qt_info *qi = (const void *)((const uint8_t *)buf + F2_QT_INFO_OFF);
	size_t nblk = len / F2_QT_BLKSIZE;

	memset(h, 0, sizeof(*h));
	if (nblk < 2)
		return f2_why(why, whylen, F2_ERANGE, "size %zu bytes (%zu KiB blocks) out of range",
			      len, nblk);
	if (f2_le32(qh->magic) != f2_quota_magic(type) ||
	    f2_le32(qh->version) != F2_QT_REVISION)
		return f2_why(why, whylen, F2_EBADMAGIC,
			      "magic 0x%08x revision %u (not a v2r1 quota file)",
			      f2_le32(qh->magic), f2_le32(qh->version));
	h->bgrace = f2_le32(qi->bgrace);
	h->igrace = f2_le32(qi->igrace);
	h->flags = f2_le32(qi->flags);
	h->blocks = f2_le32(qi->blocks);
	h->free_blk = f2_le32(qi->free_blk);
	h->free_entry = f2_le32(qi->free_entry);
	if (h->blocks < 2 || h->blocks > nblk)
		return f2_why(why, whylen, F2_ERANGE, "header says %u blocks, the file has %zu",
			      h->blocks, nblk);
	if (h->free_blk >= h->blocks || h->free_entry >= h->blocks)
		return f2_why(why, whylen, F2_ERANGE,
			      "free block list %u or free entry list %u beyond the file",
			      h->free_blk, h->free_entry);
	return 0;
}

/* ---- the walk ------------------------------------------------------------- */
struct walk {
	const uint8_t *buf;
	uint32_t blocks;
	uint8_t *seen;		/* per block: 1 tree, 2 data */
	f2_quota_fn fn;
	void *arg;
	char *why;
	size_t whylen;
};

/* Find id's entry in data block blk and give it to the caller. */
static int take_entry(struct walk *w, uint32_t id, uint32_t blk)
{
	uint8_t *d = blk_at(w->buf, blk);
	const struct f2_qt_dblk *dh = (const void *)d;
	struct f2_quota_dq q;

	if (f2_le16(dh->entries) > F2_QT_ENTRIES)
		return f2_why(w->why, w->whylen, F2_ECORRUPT,
			      "data block %u holds %u records (at most %u)", blk,
			      f2_le16(dh->entries), F2_QT_ENTRIES);
	for (uint32_t k = 0; k < F2_QT_ENTRIES; k++) {
		const struct f2_qt_dquot *e = entry_at(d, k);

		if (all_zero(e, sizeof(*e)) || f2_le32(e->id) != id)
			continue;
		dq_from_disk(e, &q);
		return w->fn ? w->fn(w->arg, &q) : 0;
	}
	return f2_why(w->why, w->whylen, F2_ECORRUPT,
		      "the tree leads id %u to data block %u, which has no record for it", id, blk);
}

static int walk_tree(struct walk *w, uint32_t blk, int depth, uint32_t prefix)
{
	uint8_t *b = blk_at(w->buf, blk);

	for (uint32_t i = 0; i < F2_QT_REFS; i++) {
		uint32_t ref = f2_le32(*ref_at(b, i)), id = prefix << 8 | i;
		int err;

		if (!ref)
			continue;
		if (ref <= F2_QT_ROOT || ref >= w->blocks)
			return f2_why(w->why, w->whylen, F2_ERANGE,
				      "tree block %u names block %u, outside the file", blk, ref);
		if (depth < F2_QT_DEPTH - 1) {
			if (w->seen[ref])
				return f2_why(w->why, w->whylen, F2_ECORRUPT,
					      "tree block %u names block %u a second time", blk, ref);
			w->seen[ref] = 1;
			err = walk_tree(w, ref, depth + 1, id);
		} else {
			if (w->seen[ref] == 1)
				return f2_why(w->why, w->whylen, F2_ECORRUPT,
					      "leaf names tree block %u as data (id %u)", ref, id);
			w->seen[ref] = 2;
			err = take_entry(w, id, ref);
		}
		if (err)
			return err;
	}
	return 0;
}

int f2_quota_parse(const void *buf, size_t len, int type, struct f2_quota_hdr *h,
		   f2_quota_fn fn, void *arg, char *why, size_t whylen)
{
	struct walk w = { .buf = buf, .fn = fn, .arg = arg, .why = why, .whylen = whylen };
	int err = f2_quota_header(buf, len, type, h, why, whylen);

	if (err)
		return err;
	w.blocks = h->blocks;	/* the driver refuses refs past info.blocks */
	w.seen = calloc(w.blocks, 1);
	if (!w.seen)
		return -ENOMEM;
	w.seen[0] = w.seen[F2_QT_ROOT] = 1;
	err = walk_tree(&w, F2_QT_ROOT, 0, 0);
	free(w.seen);
	return err;
}

/* ---- building --------------------------------------------------------------- */
/* Blocks of the file holding ids[0..n) (sorted): header, root, the tree
 * blocks of each level (one per distinct prefix), the data blocks. */
static uint64_t count_blocks(const struct f2_quota_dq *dq, size_t n)
{
	uint64_t blocks = 2 + (n + F2_QT_ENTRIES - 1) / F2_QT_ENTRIES;

	for (int depth = 1; depth < F2_QT_DEPTH; depth++) {
		int shift = 8 * (F2_QT_DEPTH - depth);

		for (size_t k = 0; k < n; k++)
			if (!k || dq[k].id >> shift != dq[k - 1].id >> shift)
				blocks++;
	}
	return blocks;
}

int f2_quota_build(int type, const struct f2_quota_hdr *h, const struct f2_quota_dq *dq,
		   size_t n, uint8_t **out, uint32_t *nblk)
{
	struct f2_qt_header *qh;
	struct f2_qt_info *qi;
	uint32_t next = 2, data = 0;	/* next free block, data block with a free entry */
	uint64_t blocks;
	uint8_t *buf;

	*out = NULL;
	*nblk = 0;
	if (!f2_quota_magic(type))
		return -EINVAL;
	for (size_t k = 1; k < n; k++)
		if (dq[k].id <= dq[k - 1].id)
			return -EINVAL;
	blocks = count_blocks(dq, n);
	if (blocks > UINT32_MAX || blocks > SIZE_MAX / F2_QT_BLKSIZE)
		return -EINVAL;
	buf = calloc((size_t)blocks, F2_QT_BLKSIZE);
	if (!buf)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		uint32_t at = F2_QT_ROOT, cnt;
		struct f2_qt_dblk *dh;
		le32 *ref;

		/* the path first, then the entry: the driver's order */
		for (int depth = 0; depth < F2_QT_DEPTH - 1; depth++) {
			ref = ref_at(blk_at(buf, at), id_index(dq[k].id, depth));
			if (!f2_le32(*ref))
				f2_set_le32(*ref, next++);
			at = f2_le32(*ref);
		}
		if (!data)
			data = next++;
		f2_set_le32(*ref_at(blk_at(buf, at), id_index(dq[k].id, F2_QT_DEPTH - 1)), data);
		dh = (struct f2_qt_dblk *)blk_at(buf, data);
		cnt = f2_le16(dh->entries);
		dq_to_disk(&dq[k], entry_at(blk_at(buf, data), cnt));
		f2_set_le16(dh->entries, (uint16_t)(cnt + 1));
		if (cnt + 1 == F2_QT_ENTRIES)
			data = 0;	/* full: off the free entry list */
	}
	qh = (struct f2_qt_header *)buf;
	qi = (struct f2_qt_info *)(buf + F2_QT_INFO_OFF);
	f2_set_le32(qh->magic, f2_quota_magic(type));
	f2_set_le32(qh->version, F2_QT_REVISION);
	f2_set_le32(qi->bgrace, h->bgrace);
	f2_set_le32(qi->igrace, h->igrace);
	f2_set_le32(qi->flags, h->flags);
	f2_set_le32(qi->blocks, next);
	f2_set_le32(qi->free_blk, 0);
	f2_set_le32(qi->free_entry, data);
	*out = buf;
	*nblk = next;
	return 0;
}

void f2_quota_charge(uint32_t features, const struct f2_inode *in, uint32_t ids[3],
		     uint64_t *space)
{
	uint64_t blocks = f2_le64(in->i_blocks);

	ids[0] = f2_le32(in->i_uid);
	ids[1] = f2_le32(in->i_gid);
	ids[2] = 0;
	if ((features & F2_FEAT_PRJQUOTA) && (in->i_inline & F2_EXTRA_ATTR) &&
	    f2_le16(in->i_extra_isize) >= offsetof(struct f2_inode, i_projid) + 4 -
					  offsetof(struct f2_inode, i_extra_isize))
		ids[2] = f2_le32(in->i_projid);
	*space = blocks ? (blocks - 1) * F2_BLKSIZE : 0;
}
