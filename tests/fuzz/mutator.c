// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mutator.c - a structure-aware libFuzzer mutator for the patch format of
 * harness.h.  Random byte mutations of a patch list mostly land in blocks
 * nothing reads; this one mostly rewrites a few bytes of a block that some
 * run has read (superblock, checkpoint, NAT, SIT, SSA, nodes, dentries),
 * starting from the bytes the image holds there, so the fuzzer spends its
 * time inside structures the code parses.  A quarter of the mutations set
 * one field, a row of the library's field tables (f2/fields.h) of the
 * structure the block holds, to a boundary value (0, 1, all ones, the old
 * value +- 1, a flipped bit).  One mutation in eight is libFuzzer's own on
 * the raw input (which also reaches record headers).
 */
#include <stdlib.h>
#include <string.h>
#include "f2/fields.h"
#include "f2/format.h"
#include "f2/io.h"
#include "harness.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
				 uint8_t *out, size_t max_out, unsigned seed);

#define MAX_RECS 512

struct recs {
	size_t n;
	struct fz_rec r[MAX_RECS];
};

static void collect(void *ctx, const struct fz_rec *r)
{
	struct recs *rs = ctx;

	if (rs->n < MAX_RECS)
		rs->r[rs->n++] = *r;
}

static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Bytes [off, off+len) of blk as the input's image has them. */
static void image_bytes(unsigned v, const struct recs *rs, uint32_t blk, uint16_t off,
			uint16_t len, uint8_t *out)
{
	if (f2_io_read(fz_base(v), (uint64_t)blk * F2_BLKSIZE + off, out, len))
		memset(out, 0, len);
	for (size_t i = 0; i < rs->n; i++) {
		const struct fz_rec *r = &rs->r[i];
		unsigned lo, hi;

		if (r->blk != blk)
			continue;
		lo = r->off > off ? r->off : off;
		hi = r->off + r->len < off + len ? r->off + r->len : off + len;
		if (lo < hi)
			memcpy(out + (lo - off), r->data + (lo - r->off), hi - lo);
	}
}

/* Where variant v's base image keeps its areas (from its superblock). */
struct areas {
	int known;
	uint32_t cp, sit, nat, ssa, main;
};

static const struct areas *areas_of(unsigned v)
{
	static struct areas a[FZ_NVARIANTS];
	struct f2_super sb;

	v %= FZ_NVARIANTS;
	if (!a[v].known) {
		if (f2_io_read(fz_base(v), F2_SUPER_OFFSET, &sb, sizeof(sb)))
			memset(&sb, 0, sizeof(sb));
		a[v].cp = f2_le32(sb.cp_blkaddr);
		a[v].sit = f2_le32(sb.sit_blkaddr);
		a[v].nat = f2_le32(sb.nat_blkaddr);
		a[v].ssa = f2_le32(sb.ssa_blkaddr);
		a[v].main = f2_le32(sb.main_blkaddr);
		a[v].known = 1;
	}
	return &a[v];
}

/*
 * The structure of block blk (its bytes in b) that field mutations aim at,
 * and where in the block it starts; 0 if none.  A main-area block whose
 * footer names itself is an inode, another with a footer nid a node, any
 * other a dentry block (so data blocks get dentry-shaped damage).
 */
static int target_of(const struct areas *a, uint32_t blk, const uint8_t *b, uint32_t *s,
		     enum f2_struct_id *st, uint32_t *at)
{
	const struct f2_node *n = (const void *)b;
	uint32_t r = next_rand(s);

	if (blk < 2) {
		*st = F2_ST_SUPER;
		*at = F2_SUPER_OFFSET;
	} else if (blk < a->cp) {
		return 0;
	} else if (blk < a->sit) {
		*st = (blk - a->cp) % F2_BLKS_PER_SEG ? F2_ST_ORPHAN : F2_ST_CHECKPOINT;
		*at = 0;
	} else if (blk < a->nat) {
		*st = F2_ST_SIT_ENTRY;
		*at = (uint32_t)(r % F2_SIT_ENTRIES_PER_BLOCK * sizeof(struct f2_sit_entry));
	} else if (blk < a->ssa) {
		*st = F2_ST_NAT_ENTRY;
		*at = (uint32_t)(r % F2_NAT_ENTRIES_PER_BLOCK * sizeof(struct f2_nat_entry));
	} else if (blk < a->main) {
		*st = r % 8 ? F2_ST_SUMMARY : F2_ST_SUM_FOOTER;
		*at = r % 8 ? (r >> 3) % F2_ENTRIES_IN_SUM * F2_SUMMARY_SIZE :
			      F2_BLKSIZE - F2_SUM_FOOTER_SIZE;
	} else if (f2_le32(n->footer.nid) && f2_le32(n->footer.nid) == f2_le32(n->footer.ino) &&
		   r % 4) {
		*st = F2_ST_INODE;
		*at = 0;
	} else if (f2_le32(n->footer.nid)) {
		*st = F2_ST_NODE_FOOTER;
		*at = offsetof(struct f2_node, footer);
	} else {
		*st = F2_ST_DIR_ENTRY;
		*at = offsetof(struct f2_dentry_block, dentry) +
		      r % F2_NR_DENTRY_IN_BLOCK * sizeof(struct f2_dir_entry);
	}
	return 1;
}

/* A record setting one number field of the structure block blk holds to
 * a boundary value; 0 if the block holds none. */
static int field_rec(unsigned v, const struct recs *rs, uint32_t blk, uint32_t *s,
		     uint8_t *win, struct fz_rec *nr)
{
	static uint8_t b[F2_BLKSIZE];
	const struct f2_struct_desc *d;
	const struct f2_field *f;
	enum f2_struct_id st;
	uint32_t at, idx, off;
	uint64_t old, val, ones;

	image_bytes(v, rs, blk, 0, F2_BLKSIZE, b);
	if (!target_of(areas_of(v), blk, b, s, &st, &at))
		return 0;
	d = f2_struct_get(st);
	f = &d->fields[next_rand(s) % d->n];
	if (f->fmt != F2_FMT_UINT || f->width > 8)
		return 0;
	idx = next_rand(s) % (f->used ? f->used : f->count);
	off = at + f2_field_offset(f, idx);
	if (off + f->width > F2_BLKSIZE)
		return 0;
	old = f2_field_get(f, b + at, idx);
	ones = f->width == 8 ? ~0ull : (1ull << (8 * f->width)) - 1;
	switch (next_rand(s) % 7) {
	case 0: val = 0; break;
	case 1: val = 1; break;
	case 2: val = ones; break;
	case 3: val = old + 1; break;
	case 4: val = old - 1; break;
	case 5: val = old ^ (1ull << (next_rand(s) % (8 * f->width))); break;
	default: val = (uint64_t)next_rand(s) << 32 | next_rand(s); break;
	}
	f2_field_set(f, b + at, idx, val & ones);
	memcpy(win, b + off, f->width);
	nr->blk = blk;
	nr->off = (uint16_t)off;
	nr->len = f->width;
	nr->data = win;
	return 1;
}

/* Serialise variant + records + an optional new one into out. */
static size_t emit(uint8_t *out, size_t max, unsigned v, const struct recs *rs, size_t skip,
		   const struct fz_rec *extra)
{
	static uint8_t tmp[1 << 20];
	size_t pos = 1;

	tmp[0] = (uint8_t)v;
	for (size_t i = 0; i < rs->n; i++) {
		if (i == skip)
			continue;
		if (pos + FZ_REC_HDR + rs->r[i].len > sizeof(tmp))
			break;
		pos += fz_put_rec(tmp + pos, rs->r[i].blk, rs->r[i].off, rs->r[i].len,
				  rs->r[i].data);
	}
	if (extra && pos + FZ_REC_HDR + extra->len <= sizeof(tmp))
		pos += fz_put_rec(tmp + pos, extra->blk, extra->off, extra->len, extra->data);
	if (pos > max)
		return 0;
	memcpy(out, tmp, pos);
	return pos;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
	static struct recs rs;
	static uint8_t in[1 << 20], win[64];
	uint32_t s = seed;
	unsigned v, what;
	size_t out;

	if (size > sizeof(in) || max_size < 1 + FZ_REC_HDR + 1)
		return LLVMFuzzerMutate(data, size, max_size);
	memcpy(in, data, size);	/* records point into in, data is rewritten */
	rs.n = 0;
	v = fz_parse(in, size, collect, &rs);
	what = next_rand(&s) % 16;
	if (what < 10) {
		/* rewrite a window of a block that has been read (or patched),
		 * or one field of it */
		struct fz_rec nr;
		size_t hot = fz_hot_count();
		uint32_t blk;
		uint16_t off, len;

		if (rs.n && (!hot || next_rand(&s) % 4 == 0))
			blk = rs.r[next_rand(&s) % rs.n].blk;
		else if (hot)
			blk = fz_hot_block(next_rand(&s) % hot);
		else
			blk = next_rand(&s) % 4;	/* superblocks, before any run */
		if (what < 4 && field_rec(v, &rs, blk, &s, win, &nr)) {
			out = emit(data, max_size, v, &rs, SIZE_MAX, &nr);
			return out ? out : LLVMFuzzerMutate(data, size, max_size);
		}
		len = (uint16_t)(1 + next_rand(&s) % (next_rand(&s) % 2 ? 4 : 32));
		off = (uint16_t)(next_rand(&s) % (F2_BLKSIZE - len + 1));
		if (next_rand(&s) % 2)
			off &= ~3u;
		image_bytes(v, &rs, blk, off, len, win);
		len = (uint16_t)LLVMFuzzerMutate(win, len, len);
		if (!len)
			return LLVMFuzzerMutate(data, size, max_size);
		nr.blk = blk;
		nr.off = off;
		nr.len = len;
		nr.data = win;
		out = emit(data, max_size, v, &rs, SIZE_MAX, &nr);
	} else if (what < 12 && rs.n) {
		/* mutate an existing record's bytes in place */
		static uint8_t buf[F2_BLKSIZE];
		size_t i = next_rand(&s) % rs.n;
		struct fz_rec r = rs.r[i];

		memcpy(buf, r.data, r.len);
		r.len = (uint16_t)LLVMFuzzerMutate(buf, r.len, r.len);
		r.data = buf;
		if (!r.len)
			return LLVMFuzzerMutate(data, size, max_size);
		rs.r[i] = r;
		out = emit(data, max_size, v, &rs, SIZE_MAX, NULL);
	} else if (what == 12 && rs.n) {
		out = emit(data, max_size, v, &rs, next_rand(&s) % rs.n, NULL);
	} else if (what == 13) {
		out = emit(data, max_size, (v + 1 + next_rand(&s) % (FZ_NVARIANTS - 1)) %
			   FZ_NVARIANTS, &rs, SIZE_MAX, NULL);
	} else {
		return LLVMFuzzerMutate(data, size, max_size);
	}
	return out ? out : LLVMFuzzerMutate(data, size, max_size);
}

/* Records of the first input, then some of the second, over the first's
 * base image. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
				 uint8_t *out, size_t max_out, unsigned seed)
{
	static struct recs a, b;
	uint32_t s = seed;
	unsigned v;
	size_t pos;

	if (!s1 || !max_out)
		return 0;
	a.n = b.n = 0;
	v = fz_parse(d1, s1, collect, &a);
	fz_parse(d2, s2, collect, &b);
	for (size_t i = 0; i < b.n && a.n < MAX_RECS; i++)
		if (next_rand(&s) % 2)
			a.r[a.n++] = b.r[i];
	pos = emit(out, max_out, v, &a, SIZE_MAX, NULL);
	return pos;
}
