// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/dir.c - directories through the engine: inline dentries (moved to
 * block 0 when full, as the kernel does), the multi-level hash table
 * (bucket counts and block indexes per level as Linux 6.1 with
 * dir_level 0, levels added on demand up to 63), entry insert, lookup
 * and removal.  Directory blocks live in the engine's block cache; walks
 * over every block (eng_dwalk) pass a sparse directory's holes unread.
 *
 * A casefolded directory (F2_CASEFOLD_FL on a casefold volume) differs
 * only in its name rule (struct dname): the stored hash is
 * f2_dentry_hash_casefold()'s, names compare with f2_casefold_name_eq(),
 * and a lookup the hash misses scans every entry, as both kernels do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/bitmap.h"
#include "f2/casefold.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/hash.h"
#include "internal.h"

#define SLOTS(len)	(((len) + F2_SLOT_LEN - 1) / F2_SLOT_LEN)

/* A dentry area: inline or one block. */
struct area {
	uint8_t *bitmap;
	struct f2_dir_entry *de;
	uint8_t (*names)[F2_SLOT_LEN];
	uint32_t max;
};

uint8_t eng_ftype(uint16_t mode)
{
	return f2_ftype_of_mode(mode);
}

static void area_inline(struct f2_engine *w, struct eng_blk *inode, struct area *a)
{
	struct eng_ilayout l;
	struct f2_inline_dentry_geom g;
	uint8_t *p;

	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	p = (uint8_t *)&eng_node(inode)->i.i_addr[l.extra + 1];
	f2_inline_dentry_geom(l.inline_bytes, &g);
	a->bitmap = p;
	a->de = (struct f2_dir_entry *)(p + g.dentry_off);
	a->names = (uint8_t (*)[F2_SLOT_LEN])(p + g.name_off);
	a->max = g.nr;
}

static void area_block(uint8_t *blk, struct area *a)
{
	struct f2_dentry_block *d = (struct f2_dentry_block *)blk;

	a->bitmap = d->dentry_bitmap;
	a->de = d->dentry;
	a->names = d->filename;
	a->max = F2_NR_DENTRY_IN_BLOCK;
}

/* A whole bitmap byte from slot s on holds v (s a multiple of 8). */
static int byte_is(const struct area *a, uint32_t s, uint8_t v)
{
	return !(s & 7) && s + 8 <= a->max && a->bitmap[s >> 3] == v;
}

/* First run of n free slots, or -1 (full bytes skipped whole). */
static int find_slots(const struct area *a, uint32_t n)
{
	uint32_t run = 0;

	for (uint32_t s = 0; s < a->max; s++) {
		if (byte_is(a, s, 0xff)) {
			run = 0;
			s += 7;
		} else if (f2_test_bit_lsb(a->bitmap, s)) {
			run = 0;
		} else if (++run == n) {
			return (int)(s + 1 - n);
		}
	}
	return -1;
}

static void put_entry(struct area *a, uint32_t s, const uint8_t *name, size_t len,
		      uint32_t hash, uint32_t ino, uint8_t type)
{
	f2_set_le32(a->de[s].hash_code, hash);
	f2_set_le32(a->de[s].ino, ino);
	f2_set_le16(a->de[s].name_len, (uint16_t)len);
	a->de[s].file_type = type;
	for (uint32_t i = 0; i < SLOTS(len); i++) {
		size_t k = len - i * F2_SLOT_LEN;

		memset(a->names[s + i], 0, F2_SLOT_LEN);
		memcpy(a->names[s + i], name + i * F2_SLOT_LEN, k < F2_SLOT_LEN ? k : F2_SLOT_LEN);
		f2_set_bit_lsb(a->bitmap, s + i);
	}
}

/* The first slot at or after s that starts an entry (a->max if none). */
static uint32_t next_entry(const struct area *a, uint32_t s)
{
	while (s < a->max && !f2_test_bit_lsb(a->bitmap, s))
		s += byte_is(a, s, 0) ? 8 : 1;
	return s;
}

/* The slot after entry s's name (an empty name takes one slot). */
static uint32_t after_entry(const struct area *a, uint32_t s)
{
	uint32_t l = f2_le16(a->de[s].name_len);

	return s + (l ? SLOTS(l) : 1);
}

/*
 * A name as directory dir sees it: its hash and how it compares.  Plain
 * directories hash with f2_dentry_hash() and compare bytes; casefolded
 * ones hash the fold and compare folds (strict: the superblock's
 * F2_ENC_STRICT_MODE_FL).
 */
struct dname {
	const uint8_t *name;
	size_t len;
	uint32_t hash;
	int cf, strict;
};

static int dname_eq(const struct dname *n, const uint8_t *ename, size_t elen)
{
	if (n->cf)
		return f2_casefold_name_eq(n->name, n->len, ename, elen, n->strict);
	return elen == n->len && !memcmp(ename, n->name, elen);
}

/* Why the kernel refuses name in a strict casefolded directory. */
static const char *cf_refusal(const uint8_t *name, size_t len)
{
	uint8_t fold[F2_CASEFOLD_BUF];
	int r = f2_utf8_casefold(name, len, fold, sizeof(fold));

	if (r == -EILSEQ)
		return "not valid UTF-8";
	if (r == -ENAMETOOLONG)
		return "its fold is 255 bytes or longer";
	return "its fold is empty (ignorable code points only)";
}

/* Fill n for name in directory dir (rule from check_dir()); -EINVAL,
 * with the reason, for a name the kernel refuses. */
static int dname_set(struct f2_engine *w, uint32_t dir, struct dname *n, const uint8_t *name,
		     size_t len)
{
	n->name = name;
	n->len = len;
	if (!n->cf) {
		n->hash = f2_dentry_hash(name, len);
		return 0;
	}
	if (f2_dentry_hash_casefold(name, len, n->strict, &n->hash) < 0)
		return eng_fail(w, -EINVAL, "name '%.*s' refused in casefolded directory ino %u "
				"of a strict volume: %s", (int)len, (const char *)name, dir,
				cf_refusal(name, len));
	return 0;
}

/* Find n in an area (by hash too when use_hash); returns its slot or -1. */
static int area_find(const struct area *a, const struct dname *n, int use_hash)
{
	for (uint32_t s = next_entry(a, 0); s < a->max; s = next_entry(a, after_entry(a, s))) {
		uint32_t l = f2_le16(a->de[s].name_len);

		if (l && l <= F2_NAME_LEN && s + SLOTS(l) <= a->max &&
		    (!use_hash || f2_le32(a->de[s].hash_code) == n->hash) &&
		    dname_eq(n, a->names[s], l))
			return (int)s;
	}
	return -1;
}

/* Entries other than . and .. in an area. */
static int area_has_entries(const struct area *a)
{
	for (uint32_t s = next_entry(a, 0); s < a->max; s = next_entry(a, after_entry(a, s))) {
		uint32_t l = f2_le16(a->de[s].name_len);

		if (!((l == 1 && a->names[s][0] == '.') ||
		      (l == 2 && a->names[s][0] == '.' && a->names[s][1] == '.')))
			return 1;
	}
	return 0;
}

static void remove_entry(struct area *a, uint32_t s)
{
	uint32_t l = f2_le16(a->de[s].name_len);

	for (uint32_t i = 0; i < SLOTS(l) && s + i < a->max; i++)
		f2_clear_bit_lsb(a->bitmap, s + i);
}

static uint64_t dir_buckets(uint32_t level)
{
	if (level < F2_MAX_DIR_HASH_DEPTH / 2)
		return 1ull << level;
	return 1ull << ((F2_MAX_DIR_HASH_DEPTH / 2) - 1);
}

static uint32_t bucket_blocks(uint32_t level)
{
	return level < F2_MAX_DIR_HASH_DEPTH / 2 ? 2 : 4;
}

static uint64_t level_start(uint32_t level)
{
	uint64_t b = 0;

	for (uint32_t i = 0; i < level; i++)
		b += dir_buckets(i) * bucket_blocks(i);
	return b;
}

int eng_dblk_get(struct f2_engine *w, uint32_t dir, uint64_t fofs, struct eng_blk **out,
		 int *hole)
{
	uint64_t key = (uint64_t)dir << 32 | fofs;
	struct eng_blk *b = f2_pmap_get(&w->dblks, key);
	int err;

	*hole = 0;
	if (b) {
		*out = b;
		return 0;
	}
	if (fofs >= UINT32_MAX)
		return eng_fail(w, F2_ERANGE, "directory ino %u: block %llu too far", dir,
			       (unsigned long long)fofs);
	b = eng_blk_new(w);
	if (!b)
		return -ENOMEM;
	err = eng_read_file_block(w, dir, fofs, b->data, hole);
	if (err) {
		eng_blk_free(w, b);
		return err;
	}
	b->key = key;
	b->kind = 'd';
	b->dirty = 0;
	b->log = F2_CURSEG_HOT_DATA;
	b->ino = dir;
	b->fofs = (uint32_t)fofs;
	err = eng_cache_put(w, &w->dblks, b);
	if (err)
		return err;
	*out = b;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int eng_dwalk_start(struct f2_engine *w, uint32_t dir, uint64_t end, struct eng_dwalk *d)
{
	size_t pos = 0;
	uint64_t key;

	memset(d, 0, sizeof(*d));
	d->dir = dir;
	d->end = end;
	if (w->dblks.n) {
		d->cached = malloc(w->dblks.n * sizeof(*d->cached));
		if (!d->cached)
			return -ENOMEM;
	}
	while (f2_map_next(&w->dblks, &pos, &key))
		if (key >> 32 == dir && (uint32_t)key < end)
			d->cached[d->n++] = (uint32_t)key;
	if (d->n)
		qsort(d->cached, d->n, sizeof(*d->cached), cmp_u64);
	return 0;
}

int eng_dwalk_next(struct f2_engine *w, struct eng_dwalk *d, struct eng_blk **b, uint64_t *fofs)
{
	uint64_t at, stop;
	int hole, err;

	while (d->fofs < d->end) {
		while (d->i < d->n && d->cached[d->i] < d->fofs)
			d->i++;
		stop = d->i < d->n ? d->cached[d->i] : d->end;
		err = eng_next_mapped(w, d->dir, d->fofs, stop, &at);
		if (err)
			return err;
		if (at >= d->end)
			break;
		d->fofs = at + 1;
		err = eng_dblk_get(w, d->dir, at, b, &hole);
		if (err)
			return err;
		if (!hole) {
			*fofs = at;
			return 1;
		}
	}
	d->fofs = d->end;
	return 0;
}

void eng_dwalk_end(struct eng_dwalk *d)
{
	free(d->cached);
	d->cached = NULL;
}

/* Is the casefold flag of a directory usable on this volume?  0 or why not. */
static int cf_usable(struct f2_engine *w, uint32_t dir)
{
	uint16_t enc = f2_le16(w->fs->sb.s_encoding);

	if (!(w->fs->features & F2_FEAT_CASEFOLD))
		return eng_fail(w, F2_EUNSUPP, "directory ino %u: casefolding needs the casefold "
				"feature", dir);
	if (!f2_encoding_name(enc))
		return eng_fail(w, F2_EUNSUPP, "directory ino %u: casefold encoding %u unknown",
				dir, enc);
	return 0;
}

/* Directory dir's inode and its name rule (n->cf, n->strict). */
static int check_dir(struct f2_engine *w, uint32_t dir, struct eng_blk **inode, struct dname *n)
{
	int err = eng_inode_get(w, dir, inode);
	struct f2_inode *i;

	if (err)
		return err;
	i = &eng_node(*inode)->i;
	if (!S_ISDIR(f2_le16(i->i_mode)))
		return eng_fail(w, -ENOTDIR, "ino %u is not a directory", dir);
	if ((f2_le32(i->i_flags) & F2_ENCRYPT_FL) || (i->i_advise & F2_ADVISE_ENCRYPT))
		return eng_fail(w, F2_EUNSUPP, "directory ino %u is encrypted", dir);
	if (i->i_dir_level)
		return eng_fail(w, F2_EUNSUPP, "directory ino %u: dir_level %u", dir,
			       i->i_dir_level);
	memset(n, 0, sizeof(*n));
	if (f2_le32(i->i_flags) & F2_CASEFOLD_FL) {
		err = cf_usable(w, dir);
		if (err)
			return err;
		n->cf = 1;
		n->strict = f2_fs_cf_strict(w->fs);
	}
	return 0;
}

static int cf_mark_exact(struct f2_engine *w, uint32_t dir);

int eng_dir_init(struct f2_engine *w, struct eng_blk *inode, uint32_t parent)
{
	struct eng_ilayout l;
	struct area a;

	eng_node(inode)->i.i_inline |= F2_INLINE_DENTRY;
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	area_inline(w, inode, &a);
	put_entry(&a, 0, (const uint8_t *)".", 1, 0, (uint32_t)inode->key, F2_FT_DIR);
	put_entry(&a, 1, (const uint8_t *)"..", 2, 0, parent, F2_FT_DIR);
	f2_set_le64(eng_node(inode)->i.i_size, l.inline_bytes);
	f2_set_le32(eng_node(inode)->i.i_current_depth, 1);
	inode->dirty = 1;
	return cf_mark_exact(w, (uint32_t)inode->key);
}

/* Inline dentries into block 0, positions kept (they fit: fewer slots). */
static int convert_inline_dir(struct f2_engine *w, uint32_t dir, struct eng_blk *inode)
{
	struct eng_ilayout l;
	struct area in, out;
	struct eng_blk *b;
	int hole, err;

	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	area_inline(w, inode, &in);
	err = eng_dblk_get(w, dir, 0, &b, &hole);
	if (err)
		return err;
	memset(b->data, 0, F2_BLKSIZE);
	area_block(b->data, &out);
	memcpy(out.bitmap, in.bitmap, (in.max + 7) / 8);
	memcpy(out.de, in.de, in.max * sizeof(*in.de));
	memcpy(out.names, in.names, (size_t)in.max * F2_SLOT_LEN);
	/* clear any bitmap bits past the inline slot count */
	for (uint32_t s = in.max; s < ((in.max + 7) & ~7u); s++)
		f2_clear_bit_lsb(out.bitmap, s);
	b->dirty = 1;
	memset(in.bitmap, 0, l.inline_bytes);
	eng_node(inode)->i.i_inline &= (uint8_t)~F2_INLINE_DENTRY;
	f2_set_le64(eng_node(inode)->i.i_size, F2_BLKSIZE);
	f2_set_le32(eng_node(inode)->i.i_current_depth, 1);
	inode->dirty = 1;
	return 0;
}

int eng_dir_init_block(struct f2_engine *w, struct eng_blk *inode, uint32_t parent)
{
	int err = eng_dir_init(w, inode, parent);

	return err ? err : convert_inline_dir(w, (uint32_t)inode->key, inode);
}

/* Level and bucket of directory block fofs (within levels < depth). */
static void block_bucket(uint64_t fofs, uint32_t *level, uint64_t *bucket)
{
	uint32_t lv = 0;
	uint64_t start = 0;

	while (lv + 1 < F2_MAX_DIR_HASH_DEPTH &&
	       fofs >= start + dir_buckets(lv) * bucket_blocks(lv)) {
		start += dir_buckets(lv) * bucket_blocks(lv);
		lv++;
	}
	*level = lv;
	*bucket = (fofs - start) / bucket_blocks(lv);
}

/*
 * Are the hash and the bucket of every entry of casefolded directory dir
 * the ones a lookup computes?  Then the kernel's fallback scan can find
 * nothing the hash lookup missed, and the engine skips it (entries it
 * adds keep this true; w->cf_checked remembers the directories).  1, 0
 * or an error.
 */
static int cf_hashes_exact(struct f2_engine *w, uint32_t dir, struct eng_blk *inode,
			   const struct dname *rule)
{
	uint32_t depth = f2_le32(eng_node(inode)->i.i_current_depth), level;
	uint64_t nblocks = (f2_le64(eng_node(inode)->i.i_size) + F2_BLKSIZE - 1) / F2_BLKSIZE;
	uint64_t bucket, fofs;
	struct eng_dwalk d;
	struct eng_blk *b;
	struct area a;
	int err, exact = 1;

	if (f2_map_find(&w->cf_checked, dir))
		return 1;
	if (depth > F2_MAX_DIR_HASH_DEPTH)
		return eng_fail(w, F2_ECORRUPT, "directory ino %u: depth %u", dir, depth);
	if (nblocks > level_start(depth))
		nblocks = level_start(depth);
	err = eng_dwalk_start(w, dir, nblocks, &d);
	while (!err && exact && (err = eng_dwalk_next(w, &d, &b, &fofs)) > 0) {
		err = 0;
		area_block(b->data, &a);
		block_bucket(fofs, &level, &bucket);
		for (uint32_t s = next_entry(&a, 0); s < a.max && exact;
		     s = next_entry(&a, after_entry(&a, s))) {
			uint32_t l = f2_le16(a.de[s].name_len), h;

			if (!l || l > F2_NAME_LEN || s + SLOTS(l) > a.max)
				continue;	/* never matches */
			if (f2_dentry_hash_casefold(a.names[s], l, rule->strict, &h) < 0)
				continue;	/* matches no lookup */
			if (h != f2_le32(a.de[s].hash_code) || h % dir_buckets(level) != bucket)
				exact = 0;
		}
	}
	eng_dwalk_end(&d);
	if (err < 0)
		return err;
	if (!exact)
		return 0;
	return f2_map_insert(&w->cf_checked, dir, NULL) ? 1 : -ENOMEM;
}

/* A fresh directory: every entry it will hold is added by the engine. */
static int cf_mark_exact(struct f2_engine *w, uint32_t dir)
{
	return f2_map_insert(&w->cf_checked, dir, NULL) ? 0 : -ENOMEM;
}

void eng_dir_forget(struct f2_engine *w, uint32_t dir)
{
	f2_map_remove(&w->cf_checked, dir, NULL);
}

int eng_dir_add(struct f2_engine *w, uint32_t dir, const uint8_t *name, size_t len,
	       uint32_t ino, uint8_t type)
{
	struct eng_blk *inode, *b;
	uint32_t need = SLOTS(len), depth;
	struct dname n;
	struct area a;
	int s, err = check_dir(w, dir, &inode, &n), hole;

	if (err)
		return err;
	if (!len || len > F2_NAME_LEN)
		return eng_fail(w, F2_ERANGE, "name of length %zu", len);
	err = dname_set(w, dir, &n, name, len);
	if (err)
		return err;
	if (eng_node(inode)->i.i_inline & F2_INLINE_DENTRY) {
		area_inline(w, inode, &a);
		s = find_slots(&a, need);
		if (s >= 0) {
			put_entry(&a, (uint32_t)s, name, len, n.hash, ino, type);
			inode->dirty = 1;
			return 0;
		}
		err = convert_inline_dir(w, dir, inode);
		if (err)
			return err;
	}
	depth = f2_le32(eng_node(inode)->i.i_current_depth);
	for (uint32_t level = 0; level < F2_MAX_DIR_HASH_DEPTH; level++) {
		uint64_t first = level_start(level) + (n.hash % dir_buckets(level)) *
				 bucket_blocks(level);

		if (level >= depth) {
			depth = level + 1;
			f2_set_le32(eng_node(inode)->i.i_current_depth, depth);
			inode->dirty = 1;
		}
		for (uint64_t fofs = first; fofs < first + bucket_blocks(level); fofs++) {
			err = eng_dblk_get(w, dir, fofs, &b, &hole);
			if (err)
				return err;
			area_block(b->data, &a);
			s = find_slots(&a, need);
			if (s < 0)
				continue;
			put_entry(&a, (uint32_t)s, name, len, n.hash, ino, type);
			b->dirty = 1;
			/* the inode may have been evicted? no: only top-level calls evict */
			if ((fofs + 1) * F2_BLKSIZE > f2_le64(eng_node(inode)->i.i_size)) {
				f2_set_le64(eng_node(inode)->i.i_size, (fofs + 1) * F2_BLKSIZE);
				inode->dirty = 1;
			}
			return 0;
		}
	}
	return eng_fail(w, F2_ENOSPC, "directory ino %u: all %d levels full", dir,
		       F2_MAX_DIR_HASH_DEPTH);
}

/* Where a search found its entry. */
struct hit {
	struct area a;
	struct eng_blk *b;	/* the block holding it: the inode when inline */
	uint32_t slot;
};

/* Find n in every block of directory dir below end: 0 with *h, -ENOENT. */
static int dir_scan(struct f2_engine *w, uint32_t dir, const struct dname *n, uint64_t end,
		    struct hit *h)
{
	struct eng_dwalk d;
	uint64_t fofs;
	int s = -1, err = eng_dwalk_start(w, dir, end, &d);

	while (!err && s < 0 && (err = eng_dwalk_next(w, &d, &h->b, &fofs)) > 0) {
		err = 0;
		area_block(h->b->data, &h->a);
		s = area_find(&h->a, n, 0);
	}
	eng_dwalk_end(&d);
	if (err < 0)
		return err;
	if (s < 0)
		return -ENOENT;
	h->slot = (uint32_t)s;
	return 0;
}

/*
 * Find n in directory dir: in the inline area, else in n's bucket of
 * every level (use_hash) or in every bucket of every level (the scan the
 * kernel falls back to in casefolded directories).  0 with *h, -ENOENT.
 */
static int dir_search(struct f2_engine *w, uint32_t dir, struct eng_blk *inode,
		      const struct dname *n, int use_hash, struct hit *h)
{
	uint32_t depth = f2_le32(eng_node(inode)->i.i_current_depth);
	uint64_t nblocks = (f2_le64(eng_node(inode)->i.i_size) + F2_BLKSIZE - 1) / F2_BLKSIZE;
	int s, hole, err;

	if (eng_node(inode)->i.i_inline & F2_INLINE_DENTRY) {
		area_inline(w, inode, &h->a);
		s = area_find(&h->a, n, 0);
		if (s < 0)
			return -ENOENT;
		h->b = inode;
		h->slot = (uint32_t)s;
		return 0;
	}
	if (depth > F2_MAX_DIR_HASH_DEPTH)
		return eng_fail(w, F2_ECORRUPT, "directory ino %u: depth %u", dir, depth);
	if (!use_hash)
		return dir_scan(w, dir, n, nblocks < level_start(depth) ? nblocks :
				level_start(depth), h);
	for (uint32_t level = 0; level < depth; level++) {
		uint64_t per = bucket_blocks(level);
		uint64_t first = level_start(level) + (n->hash % dir_buckets(level)) * per;

		if (first >= nblocks)
			break;
		for (uint64_t fofs = first; fofs < first + per && fofs < nblocks; fofs++) {
			err = eng_dblk_get(w, dir, fofs, &h->b, &hole);
			if (err)
				return err;
			area_block(h->b->data, &h->a);
			s = area_find(&h->a, n, use_hash);
			if (s >= 0) {
				h->slot = (uint32_t)s;
				return 0;
			}
		}
	}
	return -ENOENT;
}

int eng_dir_find(struct f2_engine *w, uint32_t dir, const uint8_t *name, size_t len,
		uint32_t *ino, int remove, char *found)
{
	struct eng_blk *inode;
	struct dname n;
	struct hit h;
	int err = check_dir(w, dir, &inode, &n);

	if (err)
		return err;
	if (!len || len > F2_NAME_LEN)
		return -ENOENT;
	err = dname_set(w, dir, &n, name, len);
	if (err)
		return err;
	err = dir_search(w, dir, inode, &n, 1, &h);
	if (err == -ENOENT && n.cf && !(eng_node(inode)->i.i_inline & F2_INLINE_DENTRY)) {
		err = cf_hashes_exact(w, dir, inode, &n);
		err = err < 0 ? err : err ? -ENOENT : dir_search(w, dir, inode, &n, 0, &h);
	}
	if (err)
		return err;
	*ino = f2_le32(h.a.de[h.slot].ino);
	if (found) {
		uint32_t l = f2_le16(h.a.de[h.slot].name_len);

		memcpy(found, h.a.names[h.slot], l);
		found[l] = 0;
	}
	if (remove) {
		remove_entry(&h.a, h.slot);
		h.b->dirty = 1;
	}
	return 0;
}

int eng_dir_is_empty(struct f2_engine *w, uint32_t dir)
{
	struct eng_blk *inode, *b;
	uint64_t nblocks, fofs;
	struct eng_dwalk d;
	struct dname n;
	struct area a;
	int empty = 1, err = check_dir(w, dir, &inode, &n);

	if (err)
		return err;
	if (eng_node(inode)->i.i_inline & F2_INLINE_DENTRY) {
		area_inline(w, inode, &a);
		return !area_has_entries(&a);
	}
	nblocks = (f2_le64(eng_node(inode)->i.i_size) + F2_BLKSIZE - 1) / F2_BLKSIZE;
	err = eng_dwalk_start(w, dir, nblocks, &d);
	while (!err && empty && (err = eng_dwalk_next(w, &d, &b, &fofs)) > 0) {
		err = 0;
		area_block(b->data, &a);
		empty = !area_has_entries(&a);
	}
	eng_dwalk_end(&d);
	return err < 0 ? err : empty;
}

/* Can entry s of a stay as it is once its directory is casefolded?  Its
 * name must be its own fold (or not fold, on a volume not strict) and its
 * hash the casefolded one: then no two entries fold alike either. */
static int cf_entry_fits(const struct area *a, uint32_t s, int strict)
{
	uint32_t l = f2_le16(a->de[s].name_len), h;
	uint8_t fold[F2_CASEFOLD_BUF];
	int r;

	if (!l || l > F2_NAME_LEN || s + SLOTS(l) > a->max)
		return 0;
	if ((l == 1 && a->names[s][0] == '.') ||
	    (l == 2 && a->names[s][0] == '.' && a->names[s][1] == '.'))
		return 1;
	r = f2_dentry_hash_casefold(a->names[s], l, strict, &h);
	if (r < 0 || h != f2_le32(a->de[s].hash_code))
		return 0;
	if (r == F2_CF_RAW)
		return 1;
	return f2_utf8_casefold(a->names[s], l, fold, sizeof(fold)) == (int)l &&
	       !memcmp(fold, a->names[s], l);
}

static int cf_area_fits(struct f2_engine *w, uint32_t dir, const struct area *a, int strict)
{
	for (uint32_t s = next_entry(a, 0); s < a->max; s = next_entry(a, after_entry(a, s)))
		if (!cf_entry_fits(a, s, strict))
			return eng_fail(w, -ENOTEMPTY, "directory ino %u holds '%.*s', which "
					"casefolding would change", dir,
					(int)f2_le16(a->de[s].name_len), (const char *)a->names[s]);
	return 0;
}

int f2_engine_casefold_dir(struct f2_engine *w, uint32_t dir)
{
	struct eng_blk *inode, *b;
	struct eng_dwalk d;
	struct dname n;
	struct area a;
	uint64_t nblocks, fofs;
	int strict, err = eng_maybe_writeback(w);

	if (err || (err = check_dir(w, dir, &inode, &n)))
		return err;
	if (n.cf)
		return 0;
	err = cf_usable(w, dir);
	if (err)
		return err;
	strict = f2_fs_cf_strict(w->fs);
	if (eng_node(inode)->i.i_inline & F2_INLINE_DENTRY) {
		area_inline(w, inode, &a);
		err = cf_area_fits(w, dir, &a, strict);
	} else {
		nblocks = (f2_le64(eng_node(inode)->i.i_size) + F2_BLKSIZE - 1) / F2_BLKSIZE;
		err = eng_dwalk_start(w, dir, nblocks, &d);
		while (!err && (err = eng_dwalk_next(w, &d, &b, &fofs)) > 0) {
			area_block(b->data, &a);
			err = cf_area_fits(w, dir, &a, strict);
		}
		eng_dwalk_end(&d);
	}
	if (err)
		return err;
	eng_dir_forget(w, dir);
	f2_set_le32(eng_node(inode)->i.i_flags, f2_le32(eng_node(inode)->i.i_flags) |
		    F2_CASEFOLD_FL);
	inode->dirty = 1;
	return 0;
}
