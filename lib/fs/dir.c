// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dir.c - directories: inline dentries, dentry blocks of the multi-level
 * hash table, readdir over every block, lookup by hash bucket, and path
 * resolution from the root.  Every slot, name length and ino is bounded.
 * A casefolded directory is searched as the kernel searches it: the hash
 * of the name's fold picks the buckets, f2_casefold_name_eq() compares,
 * and a miss falls back to a scan of every entry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/bitmap.h"
#include "f2/casefold.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/hash.h"

#define MAX_BAD_BLOCKS	16	/* unreadable dentry blocks before giving up */
#define SLOTS(len)	(((len) + F2_SLOT_LEN - 1) / F2_SLOT_LEN)

void f2_inline_dentry_geom(uint32_t bytes, struct f2_inline_dentry_geom *g)
{
	g->nr = bytes * 8 / ((sizeof(struct f2_dir_entry) + F2_SLOT_LEN) * 8 + 1);
	g->bitmap_size = (g->nr + 7) / 8;
	g->reserved = bytes - ((uint32_t)(sizeof(struct f2_dir_entry) + F2_SLOT_LEN) * g->nr +
			       g->bitmap_size);
	g->dentry_off = g->bitmap_size + g->reserved;
	g->name_off = g->dentry_off + (uint32_t)sizeof(struct f2_dir_entry) * g->nr;
}

/* A view of one dentry area (block or inline). */
struct dview {
	const uint8_t *bitmap;
	const struct f2_dir_entry *de;
	const uint8_t (*names)[F2_SLOT_LEN];
	uint32_t max;
	uint64_t block;
};

static void view_block(const struct f2_dentry_block *b, uint64_t blk, struct dview *v)
{
	v->bitmap = b->dentry_bitmap;
	v->de = b->dentry;
	v->names = b->filename;
	v->max = F2_NR_DENTRY_IN_BLOCK;
	v->block = blk;
}

static void view_inline(const struct f2_inode_ref *ir, struct dview *v)
{
	struct f2_inline_dentry_geom g;
	const uint8_t *a = f2_inline_data(ir);

	f2_inline_dentry_geom(ir->inline_bytes, &g);
	v->bitmap = a;
	v->de = (const struct f2_dir_entry *)(a + g.dentry_off);
	v->names = (const uint8_t (*)[F2_SLOT_LEN])(a + g.name_off);
	v->max = g.nr;
	v->block = UINT64_MAX;
}

struct walk {
	struct f2_fs *fs;
	uint32_t dir_ino;
	int (*fn)(void *ctx, const struct f2_dirent *d);
	void *ctx;
	unsigned bad;
};

static void bad_entry(struct walk *w, const struct dview *v, uint32_t slot, const char *what,
		      unsigned val)
{
	w->bad++;
	if (v->block == UINT64_MAX)
		f2_fs_fail(w->fs, F2_ECORRUPT, "directory ino %u, inline slot %u: %s %u",
			   w->dir_ino, slot, what, val);
	else
		f2_fs_fail(w->fs, F2_ECORRUPT, "directory ino %u, block %llu slot %u: %s %u",
			   w->dir_ino, (unsigned long long)v->block, slot, what, val);
	if (w->fs->warn)
		w->fs->warn(w->fs->warn_ctx, "%s", w->fs->why);
}

/* Decode the entry at slot; returns slots used or 0 if malformed. */
static uint32_t decode(struct walk *w, const struct dview *v, uint32_t slot, struct f2_dirent *d)
{
	const struct f2_dir_entry *de = &v->de[slot];
	uint32_t len = f2_le16(de->name_len), n;

	if (len == 0 || len > F2_NAME_LEN) {
		bad_entry(w, v, slot, "name length", len);
		return 0;
	}
	n = SLOTS(len);
	if (slot + n > v->max) {
		bad_entry(w, v, slot, "name runs past the last slot, length", len);
		return 0;
	}
	d->ino = f2_le32(de->ino);
	if (d->ino >= w->fs->max_nid || d->ino <= F2_META_INO) {
		bad_entry(w, v, slot, "ino out of range:", d->ino);
		return n;
	}
	d->hash = f2_le32(de->hash_code);
	d->type = de->file_type;
	d->name_len = (uint16_t)len;
	memcpy(d->name, v->names[slot], len);
	d->name[len] = 0;
	d->block = v->block;
	d->slot = slot;
	return n;
}

static int walk_view(struct walk *w, const struct dview *v)
{
	for (uint32_t s = 0; s < v->max;) {
		struct f2_dirent d;
		uint32_t n;
		int r;

		if (!f2_test_bit_lsb(v->bitmap, s)) {
			s++;
			continue;
		}
		d.ino = 0;
		n = decode(w, v, s, &d);
		if (!n) {
			s++;
			continue;
		}
		s += n;
		if (!d.ino || d.ino >= w->fs->max_nid || d.ino <= F2_META_INO)
			continue;
		r = w->fn(w->ctx, &d);
		if (r)
			return r;
	}
	return 0;
}

static int check_dir(struct f2_fs *fs, const struct f2_inode_ref *dir)
{
	if (!S_ISDIR(dir->mode))
		return f2_fs_fail(fs, -ENOTDIR, "ino %u is not a directory", dir->ino);
	return 0;
}

/* The directory's file and a block buffer; on error nothing is held. */
static int open_blocks(struct f2_fs *fs, const struct f2_inode_ref *dir, struct f2_file **f,
		       uint8_t **blk)
{
	int err = f2_file_open_ref(fs, dir, f);

	if (err)
		return err;
	*blk = malloc(F2_BLKSIZE);
	if (!*blk) {
		f2_file_close(*f);
		return -ENOMEM;
	}
	return 0;
}

int f2_dir_iter(struct f2_fs *fs, const struct f2_inode_ref *dir,
		int (*fn)(void *ctx, const struct f2_dirent *d), void *ctx)
{
	struct walk w = { fs, dir->ino, fn, ctx, 0 };
	struct f2_file *f;
	struct dview v;
	uint8_t *blk;
	uint64_t nblocks;
	unsigned bad_blocks = 0;
	int err, first_err = 0;
	char why[F2_WHY_LEN];

	err = check_dir(fs, dir);
	if (err)
		return err;
	if (dir->node.i.i_inline & F2_INLINE_DENTRY) {
		view_inline(dir, &v);
		err = walk_view(&w, &v);
		goto out;
	}
	err = open_blocks(fs, dir, &f, &blk);
	if (err)
		return err;
	nblocks = (dir->size + F2_BLKSIZE - 1) / F2_BLKSIZE;
	/* a bad block costs its entries, not the rest of the directory */
	for (uint64_t b = f2_file_next_data(f, 0); b < nblocks && !err;
	     b = f2_file_next_data(f, b + 1)) {
		uint32_t a;
		int e = f2_file_map(f, b, &a, NULL);

		if (!e && (a == F2_NULL_ADDR || a == F2_NEW_ADDR))
			continue;
		if (!e && a == F2_COMPRESS_ADDR)
			e = f2_fs_fail(fs, F2_ECORRUPT, "directory ino %u: compressed block %llu",
				       dir->ino, (unsigned long long)b);
		if (!e)
			e = f2_fs_read_block(fs, a, blk);
		if (e) {
			if (e == -ENOMEM || ++bad_blocks > MAX_BAD_BLOCKS)
				err = e;
			else if (fs->warn)
				fs->warn(fs->warn_ctx, "directory ino %u, block %llu skipped: %s",
					 dir->ino, (unsigned long long)b, fs->why);
			if (!first_err) {
				first_err = e;
				snprintf(why, sizeof(why), "%s", fs->why);
			}
			continue;
		}
		view_block((const struct f2_dentry_block *)blk, b, &v);
		err = walk_view(&w, &v);
	}
	if (!err && first_err) {
		err = first_err;
		snprintf(fs->why, sizeof(fs->why), "%s", why);
	}
	free(blk);
	f2_file_close(f);
out:
	if (!err && w.bad)
		err = F2_ECORRUPT;	/* fs->why names the last bad entry */
	return err;
}

/* ---- lookup ---------------------------------------------------------- */

static uint64_t dir_buckets(uint32_t level, uint32_t dir_level)
{
	if (level + dir_level < F2_MAX_DIR_HASH_DEPTH / 2)
		return 1ull << (level + dir_level);
	return 1ull << ((F2_MAX_DIR_HASH_DEPTH / 2) - 1);
}

static uint32_t bucket_blocks(uint32_t level)
{
	return level < F2_MAX_DIR_HASH_DEPTH / 2 ? 2 : 4;
}

int f2_dir_block_place(uint64_t bidx, uint32_t dir_level, uint32_t *level, uint64_t *bucket,
		       uint64_t *nbuckets)
{
	uint64_t start = 0;

	for (uint32_t l = 0; l < F2_MAX_DIR_HASH_DEPTH; l++) {
		uint64_t nb = dir_buckets(l, dir_level), len = nb * bucket_blocks(l);

		if (bidx - start < len) {
			if (level)
				*level = l;
			if (bucket)
				*bucket = (bidx - start) / bucket_blocks(l);
			if (nbuckets)
				*nbuckets = nb;
			return 0;
		}
		start += len;
	}
	return -1;
}

struct find {
	const uint8_t *name;
	size_t len;
	uint32_t hash;
	int use_hash;
	int cf, strict;		/* casefolded directory; strict encoding */
	struct f2_dirent *out;
};

static int same_name(const struct find *q, const struct f2_dirent *d)
{
	if (q->cf)
		return f2_casefold_name_eq(q->name, q->len, d->name, d->name_len, q->strict);
	return d->name_len == q->len && !memcmp(d->name, q->name, q->len);
}

static int match(void *ctx, const struct f2_dirent *d)
{
	struct find *q = ctx;

	if ((!q->use_hash || d->hash == q->hash) && same_name(q, d)) {
		*q->out = *d;
		return 1;
	}
	return 0;
}

static int lookup_blocks(struct f2_fs *fs, const struct f2_inode_ref *dir, struct find *q)
{
	struct walk w = { fs, dir->ino, match, q, 0 };
	uint32_t depth = f2_le32(dir->node.i.i_current_depth);
	uint32_t dlevel = dir->node.i.i_dir_level;
	uint64_t nblocks = (dir->size + F2_BLKSIZE - 1) / F2_BLKSIZE, start = 0;
	struct f2_file *f;
	uint8_t *blk;
	int err, found = 0;

	if (depth > F2_MAX_DIR_HASH_DEPTH || dlevel >= F2_MAX_DIR_HASH_DEPTH)
		return f2_fs_fail(fs, F2_ECORRUPT, "directory ino %u: depth %u / dir_level %u invalid",
				  dir->ino, depth, dlevel);
	err = open_blocks(fs, dir, &f, &blk);
	if (err)
		return err;
	for (uint32_t lv = 0; lv < depth && !found && !err && start < nblocks; lv++) {
		uint64_t nb = dir_buckets(lv, dlevel), per = bucket_blocks(lv);
		uint64_t first = start + (q->hash % nb) * per;

		for (uint64_t b = first; b < first + per && b < nblocks && !found; b++) {
			uint32_t a;
			struct dview v;

			err = f2_file_map(f, b, &a, NULL);
			if (err)
				break;
			if (a == F2_NULL_ADDR || a == F2_NEW_ADDR || a == F2_COMPRESS_ADDR)
				continue;
			err = f2_fs_read_block(fs, a, blk);
			if (err)
				break;
			view_block((const struct f2_dentry_block *)blk, b, &v);
			found = walk_view(&w, &v) == 1;
		}
		start += nb * per;
	}
	free(blk);
	f2_file_close(f);
	if (err)
		return err;
	return found ? 0 : -ENOENT;
}

int f2_dir_lookup(struct f2_fs *fs, const struct f2_inode_ref *dir,
		  const uint8_t *name, size_t len, struct f2_dirent *out)
{
	struct find q = { name, len, 0, 1, 0, 0, out };
	int r;

	r = check_dir(fs, dir);
	if (r)
		return r;
	if (!len || len > F2_NAME_LEN)
		return f2_fs_fail(fs, -ENOENT, "name of length %zu cannot exist", len);
	q.hash = f2_dentry_hash(name, len);
	if ((f2_le32(dir->node.i.i_flags) & F2_CASEFOLD_FL) && !dir->encrypted) {
		q.cf = 1;
		q.strict = f2_fs_cf_strict(fs);
		if (f2_dentry_hash_casefold(name, len, q.strict, &q.hash) < 0)
			return f2_fs_fail(fs, -ENOENT, "directory ino %u is casefolded and the "
					  "strict encoding refuses the name '%.*s'", dir->ino,
					  (int)len, (const char *)name);
	}
	if (dir->encrypted || (dir->node.i.i_inline & F2_INLINE_DENTRY)) {
		q.use_hash = 0;
		r = f2_dir_iter(fs, dir, match, &q);
		if (r == 1)
			return 0;
		if (r < 0 && r != F2_ECORRUPT)
			return r;
		return f2_fs_fail(fs, -ENOENT, "directory ino %u has no entry '%.*s'",
				  dir->ino, (int)len, (const char *)name);
	}
	r = lookup_blocks(fs, dir, &q);
	if (r == -ENOENT) {
		/* not in its bucket: a writer that hashed differently (or a
		 * damaged hash_code); a full scan still finds it */
		q.use_hash = 0;
		r = f2_dir_iter(fs, dir, match, &q);
		r = r == 1 ? 0 : (r < 0 && r != F2_ECORRUPT) ? r : -ENOENT;
	}
	if (r == -ENOENT)
		return f2_fs_fail(fs, -ENOENT, "directory ino %u has no entry '%.*s'",
				  dir->ino, (int)len, (const char *)name);
	return r;
}

int f2_path_lookup(struct f2_fs *fs, const char *path, struct f2_inode_ref *ir)
{
	int err = f2_inode_read(fs, F2_ROOT_INO, ir);

	while (!err) {
		struct f2_dirent d;
		size_t n;

		while (*path == '/')
			path++;
		if (!*path)
			break;
		n = strcspn(path, "/");
		if (!S_ISDIR(ir->mode))
			return f2_fs_fail(fs, -ENOTDIR, "'%.*s': ino %u is not a directory",
					  (int)n, path, ir->ino);
		err = f2_dir_lookup(fs, ir, (const uint8_t *)path, n, &d);
		if (!err)
			err = f2_inode_read(fs, d.ino, ir);
		path += n;
	}
	return err;
}
