// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recovery/replay.c - offline roll-forward (f2/recovery.h), the writing half:
 * the rebuild of each fsync-ed file through the write engine (the chain
 * is walked by recovery/scan.c), committed by one checkpoint.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/node.h"
#include "f2/file.h"
#include "f2/recovery.h"
#include "../engine/internal.h"
#include "../engine/copy.h"
#include "../engine/recover.h"


/* ---- keeping the pre-recovery state intact until the commit ------------- */

static int reserve_seg(struct f2_engine *w, uint8_t *mark, uint32_t addr)
{
	struct eng_sit *e;
	uint32_t segno;
	int err;

	if (!f2_fs_in_main(w->fs, addr))
		return 0;
	segno = f2_fs_segno(w->fs, addr);
	if (f2_test_bit_lsb(mark, segno))
		return 0;
	f2_set_bit_lsb(mark, segno);
	if (f2_test_bit_lsb(w->freemap, segno)) {
		/* loaded so that the checkpoint frees it again (prefree) */
		err = eng_sit_entry(w, segno, &e);
		if (err)
			return err;
		f2_clear_bit_lsb(w->freemap, segno);
		w->free_segs--;
	}
	return 0;
}

/* Keep every segment with a chain node or a block the chain points to out
 * of allocation, and move every log to a fresh segment. */
static int reserve(struct f2_rf *rf, struct f2_engine *w)
{
	struct f2_fs *fs = rf->fs;
	uint8_t *mark = calloc(fs->main_segs / 8 + 1, 1);
	struct f2_node n;

	if (!mark)
		return -ENOMEM;
	int err;

	for (size_t i = 0; i < rf->nchain; i++) {
		err = f2_fs_read_block(fs, rf->chain[i].addr, &n);

		if (err) {
			free(mark);
			return eng_fail(w, err, "chain block %u unreadable", rf->chain[i].addr);
		}
		err = reserve_seg(w, mark, rf->chain[i].addr);
		if (rf->chain[i].ofs == F2_NODE_OFS_XATTR) {
			/* xattr entries, no addresses */
		} else if (rf->chain[i].ofs == 0) {
			if (!(n.i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY)))
				for (uint32_t k = 0; k < F2_ADDRS_PER_INODE && !err; k++)
					err = reserve_seg(w, mark, f2_le32(n.i.i_addr[k]));
		} else {
			for (uint32_t k = 0; k < F2_ADDRS_PER_BLOCK && !err; k++)
				err = reserve_seg(w, mark, f2_le32(n.dn.addr[k]));
		}
		if (err) {
			free(mark);
			return err;
		}
	}
	free(mark);
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		struct eng_sit *e;

		/* loaded so that the checkpoint frees it if it stays empty */
		err = eng_sit_entry(w, w->cur[t].segno, &e);
		if (err)
			return err;
		w->cur[t].blkoff = F2_BLKS_PER_SEG;
	}
	return 0;
}

/* ---- rebuilding one inode ----------------------------------------------- */

struct pair {
	uint64_t fofs;
	uint32_t addr;
	uint32_t seq;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->fofs != y->fofs)
		return x->fofs < y->fofs ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* An inode node of the chain: the driver sets the size and advice from
 * it before it replays the addresses it holds (their seq are >= seq). */
struct isize {
	uint32_t seq;
	uint8_t advise;
	uint64_t size;
};

struct plan {
	struct pair *p;
	size_t n, cap;
	struct isize *sz;
	size_t nsz;
};

static int plan_size(struct plan *pl, const struct f2_node *n)
{
	struct isize *q = realloc(pl->sz, (pl->nsz + 1) * sizeof(*q));

	if (!q)
		return -ENOMEM;
	pl->sz = q;
	q[pl->nsz].seq = (uint32_t)pl->n;
	q[pl->nsz].advise = n->i.i_advise;
	q[pl->nsz++].size = f2_le64(n->i.i_size);
	return 0;
}

static int plan_add(struct plan *pl, uint64_t fofs, uint32_t addr)
{
	if (pl->n == pl->cap) {
		size_t nc = pl->cap ? pl->cap * 2 : 1024;
		struct pair *q = realloc(pl->p, nc * sizeof(*q));

		if (!q)
			return -ENOMEM;
		pl->p = q;
		pl->cap = nc;
	}
	pl->p[pl->n].fofs = fofs;
	pl->p[pl->n].addr = addr;
	pl->p[pl->n].seq = (uint32_t)pl->n;
	pl->n++;
	return 0;
}

static void attrs_of(const struct f2_node *n, struct f2_wattr *a)
{
	memset(a, 0, sizeof(*a));
	a->mode = f2_le16(n->i.i_mode);
	a->uid = f2_le32(n->i.i_uid);
	a->gid = f2_le32(n->i.i_gid);
	a->atime = f2_le64(n->i.i_atime);
	a->mtime = f2_le64(n->i.i_mtime);
	a->ctime = f2_le64(n->i.i_ctime);
	a->atime_ns = f2_le32(n->i.i_atime_nsec);
	a->mtime_ns = f2_le32(n->i.i_mtime_nsec);
	a->ctime_ns = f2_le32(n->i.i_ctime_nsec);
	a->generation = f2_le32(n->i.i_generation);
	a->flags = f2_le32(n->i.i_flags);
	if ((n->i.i_inline & F2_EXTRA_ATTR) &&
	    f2_le16(n->i.i_extra_isize) >= offsetof(struct f2_inode, i_compr_blocks) -
					   offsetof(struct f2_inode, i_extra_isize)) {
		a->crtime = f2_le64(n->i.i_crtime);
		a->crtime_ns = f2_le32(n->i.i_crtime_nsec);
	}
}

/*
 * The name, as the driver's recovery adds it: whatever else holds it in
 * the parent is unlinked first; a new inode is created with its own
 * inode number (held since the start of the apply), an existing one
 * linked.
 */
static int recover_name(struct f2_rf_ino *e, struct f2_engine *w, const struct f2_node *inode,
			uint32_t *target)
{
	struct f2_wattr a;
	uint32_t have;
	int err = f2_engine_lookup(w, e->pino, (const char *)e->name, e->namelen, &have);

	if (!err && !e->is_new && have == e->ino) {
		*target = e->ino;
		return 0;
	}
	if (!err) {
		err = f2_engine_unlink(w, e->pino, (const char *)e->name, e->namelen);
		if (err)
			return err;
	} else if (err != -ENOENT) {
		return err;
	}
	*target = e->ino;
	if (!e->is_new)
		return f2_engine_link(w, e->pino, (const char *)e->name, e->namelen, e->ino);
	attrs_of(inode, &a);
	return eng_rf_create(w, e->pino, (const char *)e->name, e->namelen, &a, e->ino);
}

/*
 * Xattrs as the driver replays them: the inline area of the newest inode
 * node, the newest xattr node of the chain (each replaces what the inode
 * had); an area the chain does not hold stays as committed.
 */
static int recover_xattrs(struct f2_rf *rf, struct f2_rf_ino *e, struct f2_engine *w,
			  uint32_t target, const struct f2_inode_ref *ir, long inode_at,
			  long xnode_at)
{
	const uint8_t *inl = NULL;
	size_t inl_len = 0;
	struct f2_node *x = NULL;
	int err;

	if (inode_at >= 0 && (ir->node.i.i_inline & F2_INLINE_XATTR)) {
		inl = f2_inline_xattr(ir);
		inl_len = (size_t)ir->inline_xattr_words * 4;
	}
	if (xnode_at >= 0) {
		x = malloc(sizeof(*x));
		if (!x)
			return -ENOMEM;
		err = f2_fs_read_block(rf->fs, rf->chain[xnode_at].addr, x);
		if (err) {
			free(x);
			return eng_fail(w, err, "ino %u: xattr node at %u unreadable", e->ino,
				       rf->chain[xnode_at].addr);
		}
	}
	err = inl || x ? eng_rf_xattr_set(w, target, inl, inl_len, x ? (const uint8_t *)x : NULL)
		       : 0;
	free(x);
	return err;
}

/* Every data address the chain gives for ino, in chain order, sorted by
 * file block (a later node overrides an earlier one). */
static int gather(struct f2_rf *rf, struct f2_rf_ino *e, const struct f2_inode_ref *ir,
		  struct f2_file *f, struct plan *pl, long *xnode_at)
{
	struct f2_node *n = malloc(sizeof(*n));
	uint32_t apb = f2_file_addrs_per_block(f);
	int err = 0;

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i <= e->last_fsync && !err; i++) {
		const struct f2_rf_blk *b = &rf->chain[i];
		int64_t start;

		if (b->ino != e->ino)
			continue;
		if (b->ofs == F2_NODE_OFS_XATTR) {
			*xnode_at = (long)i;
			continue;
		}
		err = f2_fs_read_block(rf->fs, b->addr, n);
		if (err)
			break;
		if (b->ofs == 0) {
			if (b->nid != e->ino)
				continue;
			err = plan_size(pl, n);
			if (err || (n->i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY)))
				continue;
			for (uint32_t k = 0; k < ir->addrs && !err; k++)
				err = plan_add(pl, k, f2_le32(n->i.i_addr[ir->extra_words + k]));
			continue;
		}
		start = f2_file_node_start(f, b->ofs);
		if (start < 0)
			continue;
		for (uint32_t k = 0; k < apb && !err; k++)
			err = plan_add(pl, (uint64_t)start + k, f2_le32(n->dn.addr[k]));
	}
	free(n);
	if (!err && pl->n)
		qsort(pl->p, pl->n, sizeof(*pl->p), cmp_pair);
	return err;
}

static int cmp_seq(const void *a, const void *b)
{
	uint32_t x = (*(const struct pair *const *)a)->seq, y = (*(const struct pair *const *)b)->seq;

	return x < y ? -1 : x > y;
}

/*
 * The size the driver's replay leaves: it walks the chain in order, each
 * inode node setting the size (and the keep-size advice), and each
 * address that changes its slot to anything but NULL, at or past the
 * size, extending it to the end of that block unless keep-size is set.
 * Starts from the committed size (*size, advise) or, for a new inode, the
 * first inode node's.
 */
static int replay_size(const struct plan *pl, struct f2_file *cf, int fresh, uint64_t *size,
		       uint8_t advise)
{
	const struct pair **ext = malloc((pl->n ? pl->n : 1) * sizeof(*ext));
	size_t next = 0, ne = 0;

	if (!ext)
		return -ENOMEM;
	if (!cf && pl->nsz) {
		*size = pl->sz[0].size;
		advise = pl->sz[0].advise;
	}
	for (size_t i = 0; i < pl->n; i++) {
		uint32_t prev = F2_NULL_ADDR;

		if (i && pl->p[i - 1].fofs == pl->p[i].fofs)
			prev = pl->p[i - 1].addr;
		else if (!fresh && cf && f2_file_map(cf, pl->p[i].fofs, &prev, NULL))
			prev = UINT32_MAX - 1;
		if (pl->p[i].addr != prev && pl->p[i].addr != F2_NULL_ADDR)
			ext[ne++] = &pl->p[i];
	}
	qsort(ext, ne, sizeof(*ext), cmp_seq);
	for (size_t i = 0; i <= ne; i++) {
		uint32_t seq = i < ne ? ext[i]->seq : UINT32_MAX;

		for (; next < pl->nsz && pl->sz[next].seq <= seq; next++) {
			*size = pl->sz[next].size;
			advise = pl->sz[next].advise;
		}
		if (i < ne && !(advise & F2_ADVISE_KEEP_SIZE) &&
		    *size <= ext[i]->fofs * F2_BLKSIZE)
			*size = (ext[i]->fofs + 1) * F2_BLKSIZE;
	}
	free(ext);
	return 0;
}

/*
 * The blocks: each address that differs from the committed file is
 * copied to a new block, or becomes a hole when the chain says NULL or
 * NEW (a punched or truncated range); then the size.  The new blocks
 * follow each other in the file's data log, so the copies go out in runs
 * (engine/copy.h), all written before the size is set (a partial last block
 * is read back then).
 */
static int recover_blocks(struct f2_rf *rf, struct f2_rf_ino *e, struct f2_engine *w,
			  uint32_t target, const struct f2_inode_ref *ir, struct f2_file *cf,
			  int fresh, const struct plan *pl)
{
	struct f2_fs *fs = rf->fs;
	uint64_t size = cf ? cf->ir.size : ir->size, nblk;
	struct eng_copy c;
	int err = replay_size(pl, cf, fresh, &size, cf ? cf->ir.node.i.i_advise : 0);

	if (err)
		return err;
	e->size = size;
	nblk = (size + F2_BLKSIZE - 1) / F2_BLKSIZE;
	err = eng_copy_init(&c);
	if (err)
		return err;
	for (size_t i = 0; i < pl->n && !err; i++) {
		uint32_t addr = pl->p[i].addr, old = F2_NULL_ADDR, naddr;

		if (i + 1 < pl->n && pl->p[i + 1].fofs == pl->p[i].fofs)
			continue;	/* a later node overrides */
		if (pl->p[i].fofs >= nblk)
			continue;
		if (!fresh && f2_file_map(cf, pl->p[i].fofs, &old, NULL))
			old = UINT32_MAX - 1;	/* unreadable: rewrite */
		if (addr == old)
			continue;
		if (addr == F2_NULL_ADDR || addr == F2_NEW_ADDR) {
			if (!fresh && old != F2_NULL_ADDR)
				err = eng_rf_punch(w, target, pl->p[i].fofs);
			continue;
		}
		if (!f2_fs_in_main(fs, addr)) {
			err = eng_fail(w, F2_ERANGE, "ino %u block %llu: address %u outside the main area",
				      e->ino, (unsigned long long)pl->p[i].fofs, addr);
			break;
		}
		err = eng_place_data(w, target, pl->p[i].fofs, &naddr);
		if (!err)
			err = eng_copy_add(w, &c, addr, naddr);
		e->copied++;
		if (!err)
			err = eng_maybe_writeback(w);
	}
	if (!err)
		err = eng_copy_flush(w, &c);
	eng_copy_free(&c);
	return err ? err : f2_engine_truncate(w, target, size);
}

static int recover_one(struct f2_rf *rf, struct f2_rf_ino *e, struct f2_engine *w)
{
	struct f2_fs *fs = rf->fs;
	struct f2_inode_ref *ir = malloc(sizeof(*ir));
	struct f2_file *f = NULL, *cf = NULL;
	struct plan pl = { 0 };
	struct f2_node *n = malloc(sizeof(*n));
	struct f2_wattr a;
	uint32_t target = e->ino;
	long inode_at = -1, xnode_at = -1;
	int err, inline_now, fresh = e->is_new;

	if (!ir || !n) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i <= e->last_fsync; i++)
		if (rf->chain[i].ino == e->ino && rf->chain[i].nid == e->ino && !rf->chain[i].ofs)
			inode_at = (long)i;
	if (inode_at >= 0) {
		err = f2_fs_read_block(fs, rf->chain[inode_at].addr, n);
		if (!err)
			err = f2_inode_parse(fs, e->ino, n, ir);
	} else {
		err = f2_inode_read(fs, e->ino, ir);
	}
	if (err) {
		err = eng_fail(w, err, "ino %u: inode: %s", e->ino, fs->why);
		goto out;
	}
	if (!e->is_new) {
		err = f2_file_open(fs, e->ino, &cf);
		if (err) {
			err = eng_fail(w, err, "ino %u: committed inode: %s", e->ino, fs->why);
			goto out;
		}
		/* inline before or now: nothing committed to compare with */
		if ((cf->ir.node.i.i_inline & F2_INLINE_DATA) || (ir->node.i.i_inline & F2_INLINE_DATA))
			fresh = 1;
	}
	inline_now = !!(ir->node.i.i_inline & F2_INLINE_DATA);
	err = f2_file_open_ref(fs, ir, &f);
	if (!err)
		err = gather(rf, e, ir, f, &pl, &xnode_at);
	if (!err && e->last_dent >= 0 && e->namelen) {
		/* the name from the dentry-marked inode node (describe()) */
		struct f2_node *dn = n;

		if (e->last_dent != inode_at)
			err = f2_fs_read_block(fs, rf->chain[e->last_dent].addr, dn);
		else
			*dn = ir->node;
		if (!err)
			err = recover_name(e, w, dn, &target);
	}
	if (err)
		goto out;
	e->new_ino = target;
	if (!e->is_new && fresh) {
		err = f2_engine_truncate(w, target, 0);
		if (err)
			goto out;
	}
	if (inline_now) {
		if (ir->size > ir->inline_bytes) {
			err = eng_fail(w, F2_ECORRUPT, "ino %u: inline size %llu", e->ino,
				      (unsigned long long)ir->size);
			goto out;
		}
		if (ir->size)
			err = f2_engine_write(w, target, 0, f2_inline_data(ir), (size_t)ir->size);
		e->copied = ir->size ? 1 : 0;
	} else {
		err = recover_blocks(rf, e, w, target, ir, cf, fresh, &pl);
	}
	if (err)
		goto out;
	attrs_of(&ir->node, &a);
	err = f2_engine_setattr(w, target, &a);
	if (!err && inode_at >= 0)
		err = eng_rf_set_flags(w, target, a.flags, ir->node.i.i_advise);
	if (!err)
		err = recover_xattrs(rf, e, w, target, ir, inode_at, xnode_at);
out:
	free(pl.p);
	free(pl.sz);
	free(n);
	free(ir);
	f2_file_close(f);
	f2_file_close(cf);
	return err;
}

int f2_rf_apply(struct f2_rf *rf, struct f2_engine *w)
{
	int done = 0, todo = 0, err = 0;
	size_t held = 0;

	for (size_t i = 0; i < rf->ninos; i++) {
		if (rf->inos[i].unsupported)
			return eng_fail(w, F2_EUNSUPP, "roll-forward: ino %u: %s; nothing written",
				       rf->inos[i].ino, rf->inos[i].why);
		todo += !rf->inos[i].skip;
	}
	if (!todo)
		return 0;
	err = reserve(rf, w);
	if (err)
		return err;
	/* the driver takes the inode numbers of new files before replaying
	 * anything: no node allocated on the way may get one */
	for (; held < rf->ninos && !err; held++)
		if (!rf->inos[held].skip && rf->inos[held].is_new)
			err = eng_rf_hold_nid(w, rf->inos[held].ino);
	/* in chain order of the last fsync, as the driver replays */
	for (size_t i = 0; i < rf->ninos && !err; i++) {
		struct f2_rf_ino *e = &rf->inos[i];

		if (e->skip)
			continue;
		err = recover_one(rf, e, w);
		done += !err;
	}
	for (size_t i = 0; i < held; i++)
		if (rf->inos[i].is_new)
			eng_rf_release_nid(w, rf->inos[i].ino);
	/* the quota files are not charged for what was replayed: the driver
	 * says the same with this flag when it cannot keep them in step, and
	 * fsck rewrites them from the inodes (its full check after a
	 * roll-forward), clearing it */
	if (!err && done && (w->fs->features & F2_FEAT_QUOTA_INO))
		f2_engine_cp_flags(w, F2_CP_QUOTA_NEED_FSCK, 0);
	if (!err)
		err = f2_engine_checkpoint(w);
	return err ? err : done;
}

int f2_rf_run(struct f2_io *rw, int apply, struct f2_rf **out, char *why, size_t whylen)
{
	struct f2_fs *fs = NULL;
	struct f2_engine *w = NULL;
	struct f2_rf *rf = NULL;
	int todo = 0, n = 0, err;

	if (out)
		*out = NULL;
	if (why && whylen)
		why[0] = 0;
	err = f2_fs_open_io(rw, NULL, &fs);
	if (!err)
		err = f2_rf_scan(fs, &rf);
	if (err) {
		if (why && fs)
			snprintf(why, whylen, "%s", fs->why);
		goto out;
	}
	for (size_t i = 0; i < rf->ninos; i++) {
		if (apply && rf->inos[i].unsupported) {
			err = F2_EUNSUPP;
			if (why)
				snprintf(why, whylen, "ino %u: %s; nothing written", rf->inos[i].ino,
					 rf->inos[i].why);
			goto out;
		}
		todo += !rf->inos[i].skip;
	}
	if (apply && todo) {
		err = f2_engine_open(fs, NULL, &w);
		if (err) {
			if (why)
				snprintf(why, whylen, "%s", fs->why);
			goto out;
		}
		n = f2_rf_apply(rf, w);
		if (n < 0) {
			err = n;
			if (why)
				snprintf(why, whylen, "%s", f2_engine_why(w));
		}
		f2_engine_close(w);
	}
out:
	if (rf)
		rf->fs = NULL;
	if (out && !err)
		*out = rf;
	else
		f2_rf_free(rf);
	if (fs)
		f2_fs_close(fs);
	return err ? err : n;
}
