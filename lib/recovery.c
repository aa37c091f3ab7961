// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recovery.c - offline roll-forward (f2/recovery.h): the walk of the
 * fsync node chain in the warm node log, and the rebuild of each fsync-ed
 * file through the write engine, committed by one checkpoint.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/recovery.h"
#include "engine_int.h"

/* ---- the walk ------------------------------------------------------------ */

/* Does the footer version match the checkpoint (the driver's rule)? */
static int version_ok(const struct f2_fs *fs, const struct f2_node *n)
{
	uint64_t want = fs->cp_ver, have = f2_le64(n->footer.cp_ver);
	uint32_t off = f2_le32(fs->cp->checksum_offset);

	if (fs->cp_flags & F2_CP_NOCRC_RECOVERY)
		return (uint32_t)want == (uint32_t)have;
	if ((fs->cp_flags & F2_CP_CRC_RECOVERY) && off <= F2_BLKSIZE - 4) {
		uint32_t crc;

		memcpy(&crc, fs->cp_raw + off, 4);
		want = (uint32_t)want | (uint64_t)f2_le32(*(le32 *)&crc) << 32;
	}
	return want == have;
}

static struct f2_rf_ino *find_ino(struct f2_rf *rf, uint32_t ino)
{
	for (size_t i = 0; i < rf->ninos; i++)
		if (rf->inos[i].ino == ino)
			return &rf->inos[i];
	return NULL;
}

static int push_blk(struct f2_rf *rf, const struct f2_rf_blk *b, size_t *cap)
{
	if (rf->nchain == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct f2_rf_blk *p = realloc(rf->chain, nc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		rf->chain = p;
		*cap = nc;
	}
	rf->chain[rf->nchain++] = *b;
	return 0;
}

static int push_ino(struct f2_rf *rf, uint32_t ino, size_t *cap)
{
	if (rf->ninos == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct f2_rf_ino *p = realloc(rf->inos, nc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		rf->inos = p;
		*cap = nc;
	}
	memset(&rf->inos[rf->ninos], 0, sizeof(rf->inos[0]));
	rf->inos[rf->ninos].ino = ino;
	rf->inos[rf->ninos].last_dent = -1;
	rf->ninos++;
	return 0;
}

/* Describe each fsync-ed inode from its newest inode node in the chain
 * (or the committed inode). */
static int describe(struct f2_rf *rf)
{
	struct f2_fs *fs = rf->fs;
	struct f2_node n;
	struct f2_nat_info ni;

	for (size_t k = 0; k < rf->ninos; k++) {
		struct f2_rf_ino *e = &rf->inos[k];
		long inode_at = -1;
		int err;

		for (size_t i = 0; i <= e->last_fsync; i++)
			if (rf->chain[i].ino == e->ino) {
				e->nodes++;
				if (rf->chain[i].nid == e->ino && rf->chain[i].ofs == 0)
					inode_at = (long)i;
			}
		err = f2_nat_lookup(fs, e->ino, &ni);
		e->is_new = err || !ni.blkaddr;
		if (inode_at >= 0) {
			err = f2_fs_read_block(fs, rf->chain[inode_at].addr, &n);
			if (err)
				return err;
		} else if (e->is_new) {
			e->skip = 1;
			snprintf(e->why, sizeof(e->why), "new inode without an inode node in the chain");
			continue;
		} else {
			struct f2_inode_ref ir;

			if (f2_inode_read(fs, e->ino, &ir)) {
				e->skip = 1;
				snprintf(e->why, sizeof(e->why), "committed inode unreadable");
				continue;
			}
			n = ir.node;
		}
		e->size = f2_le64(n.i.i_size);
		e->mode = f2_le16(n.i.i_mode);
		e->pino = f2_le32(n.i.i_pino);
		e->namelen = f2_le32(n.i.i_namelen);
		if (e->namelen > F2_NAME_LEN)
			e->namelen = 0;
		memcpy(e->name, n.i.i_name, e->namelen);
		e->name[e->namelen] = 0;
		if (e->is_new && e->last_dent < 0) {
			e->skip = 1;
			snprintf(e->why, sizeof(e->why), "new inode without a dentry mark");
		} else if (e->is_new && !e->namelen) {
			e->skip = 1;
			snprintf(e->why, sizeof(e->why), "new inode without a name");
		}
	}
	return 0;
}

int f2_rf_scan(struct f2_fs *fs, struct f2_rf **out)
{
	const struct f2_curseg_info *c = &fs->curseg[F2_CURSEG_WARM_NODE];
	uint64_t main_blocks = (uint64_t)fs->main_segs * F2_BLKS_PER_SEG;
	uint64_t budget, valid, user;
	size_t ccap = 0, icap = 0;
	uint8_t *seen = NULL;
	struct f2_node n;
	struct f2_rf *rf;
	uint32_t addr;
	int err = 0;

	*out = NULL;
	if (!fs->cp)
		return f2_fs_fail(fs, F2_ENOCP, "roll-forward: no checkpoint loaded");
	rf = calloc(1, sizeof(*rf));
	seen = calloc(main_blocks / 8 + 1, 1);
	if (!rf || !seen) {
		free(rf);
		free(seen);
		return -ENOMEM;
	}
	rf->fs = fs;
	valid = f2_le64(fs->cp->valid_block_count);
	user = f2_le64(fs->cp->user_block_count);
	budget = user > valid ? user - valid : 0;
	if (c->segno >= fs->main_segs || c->blkoff >= F2_BLKS_PER_SEG) {
		snprintf(rf->stop, sizeof(rf->stop), "warm node segment %u offset %u: no chain",
			 c->segno, c->blkoff);
		goto done;
	}
	addr = (uint32_t)f2_fs_seg_start(fs, c->segno) + c->blkoff;
	rf->start = addr;
	for (;;) {
		uint32_t off;
		struct f2_rf_blk b;

		if (!f2_fs_in_main(fs, addr)) {
			snprintf(rf->stop, sizeof(rf->stop), "block %u outside the main area", addr);
			break;
		}
		off = addr - fs->main_blkaddr;
		if (f2_test_bit_lsb(seen, off)) {
			snprintf(rf->stop, sizeof(rf->stop), "block %u: the chain loops", addr);
			break;
		}
		if (rf->nchain >= budget) {
			snprintf(rf->stop, sizeof(rf->stop),
				 "block %u: chain longer than the %llu free blocks", addr,
				 (unsigned long long)budget);
			break;
		}
		f2_set_bit_lsb(seen, off);
		err = f2_fs_read_block(fs, addr, &n);
		if (err)
			goto done;
		if (!version_ok(fs, &n)) {
			snprintf(rf->stop, sizeof(rf->stop), "block %u: footer version %#llx is not the checkpoint's",
				 addr, (unsigned long long)f2_le64(n.footer.cp_ver));
			break;
		}
		b.addr = addr;
		b.nid = f2_le32(n.footer.nid);
		b.ino = f2_le32(n.footer.ino);
		b.ofs = f2_node_ofs(&n);
		b.marks = (uint8_t)(f2_le32(n.footer.flag) & (F2_FOOTER_FSYNC | F2_FOOTER_DENT));
		b.next = f2_le32(n.footer.next_blkaddr);
		if (b.ino < 3 || b.ino >= fs->max_nid || b.nid >= fs->max_nid || !b.nid) {
			snprintf(rf->stop, sizeof(rf->stop), "block %u: nid %u / ino %u out of range",
				 addr, b.nid, b.ino);
			break;
		}
		err = push_blk(rf, &b, &ccap);
		if (err)
			goto done;
		if (b.marks & F2_FOOTER_FSYNC) {
			struct f2_rf_ino *e = find_ino(rf, b.ino);

			if (!e) {
				err = push_ino(rf, b.ino, &icap);
				if (err)
					goto done;
				e = &rf->inos[rf->ninos - 1];
			}
			e->last_fsync = rf->nchain - 1;
			if ((b.marks & F2_FOOTER_DENT) && b.nid == b.ino && b.ofs == 0)
				e->last_dent = (long)(rf->nchain - 1);
		}
		addr = b.next;
	}
	err = describe(rf);
done:
	free(seen);
	if (err) {
		f2_rf_free(rf);
		return err;
	}
	*out = rf;
	return 0;
}

void f2_rf_free(struct f2_rf *rf)
{
	if (!rf)
		return;
	free(rf->chain);
	free(rf->inos);
	free(rf);
}

/* ---- keeping the pre-recovery state intact until the commit ------------- */

static int reserve_seg(struct f2_wfs *w, uint8_t *mark, uint32_t addr)
{
	struct ew_sit *e;
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
		err = ew_sit_entry(w, segno, &e);
		if (err)
			return err;
		f2_clear_bit_lsb(w->freemap, segno);
		w->free_segs--;
	}
	return 0;
}

/*
 * After a checkpoint without the umount flag the summary of a current
 * node segment is not stored anywhere: the driver rebuilds it from the
 * node footers.  Do the same before the segment is closed, so that its
 * SSA block names the nid of every valid node block.
 */
static int node_summaries(struct f2_wfs *w)
{
	struct f2_node *n = malloc(sizeof(*n));
	int err = 0;

	if (!n)
		return -ENOMEM;
	for (int t = F2_CURSEG_HOT_NODE; t < F2_NR_CURSEG && !err; t++) {
		struct ew_curseg *c = &w->cur[t];
		uint64_t start = f2_fs_seg_start(w->fs, c->segno);
		struct ew_sit *e;

		if (w->fs->curseg[t].have_sum && (w->fs->cp_flags & F2_CP_UMOUNT))
			continue;
		err = ew_sit_entry(w, c->segno, &e);
		for (uint32_t off = 0; off < F2_BLKS_PER_SEG && !err; off++) {
			if (!f2_test_bit_msb(e->map, off))
				continue;
			err = f2_fs_read_block(w->fs, start + off, n);
			if (err)
				break;
			f2_set_le32(c->sum.entries[off].nid, f2_le32(n->footer.nid));
			c->sum.entries[off].version = 0;
			f2_set_le16(c->sum.entries[off].ofs_in_node, 0);
		}
	}
	free(n);
	return err;
}

/* Keep every segment with a chain node or a block the chain points to out
 * of allocation, and move every log to a fresh segment. */
static int reserve(struct f2_rf *rf, struct f2_wfs *w)
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
			return ew_fail(w, err, "chain block %u unreadable", rf->chain[i].addr);
		}
		err = reserve_seg(w, mark, rf->chain[i].addr);
		if (rf->chain[i].ofs == 0) {
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
	err = node_summaries(w);
	if (err)
		return err;
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		struct ew_sit *e;

		/* loaded so that the checkpoint frees it if it stays empty */
		err = ew_sit_entry(w, w->cur[t].segno, &e);
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

struct plan {
	struct pair *p;
	size_t n, cap;
};

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
}

/* The name: unlink whatever else holds it, then create or link. */
static int recover_name(struct f2_rf_ino *e, struct f2_wfs *w, const struct f2_node *inode,
			uint32_t *target)
{
	struct f2_wattr a;
	uint32_t have;
	int err = f2_wfs_lookup(w, e->pino, (const char *)e->name, e->namelen, &have);

	if (!err && !e->is_new && have == e->ino) {
		*target = e->ino;
		return 0;
	}
	if (!err) {
		err = f2_wfs_unlink(w, e->pino, (const char *)e->name, e->namelen);
		if (err)
			return err;
	} else if (err != -ENOENT) {
		return err;
	}
	if (!e->is_new) {
		*target = e->ino;
		return f2_wfs_link(w, e->pino, (const char *)e->name, e->namelen, e->ino);
	}
	attrs_of(inode, &a);
	return f2_wfs_create(w, e->pino, (const char *)e->name, e->namelen, &a, target);
}

struct xa_ctx {
	struct f2_wfs *w;
	uint32_t target;
	int err;
};

static int put_xattr(void *ctx, const struct f2_xattr *x)
{
	struct xa_ctx *c = ctx;

	c->err = f2_wfs_setxattr(c->w, c->target, x->index, x->name, x->name_len, x->value,
				 x->value_len);
	return c->err;
}

static int recover_one(struct f2_rf *rf, struct f2_rf_ino *e, struct f2_wfs *w)
{
	struct f2_fs *fs = rf->fs;
	struct f2_inode_ref ir, cir;
	struct f2_file *f = NULL, *cf = NULL;
	struct plan pl = { 0 };
	struct f2_node n;
	struct f2_wattr a;
	uint8_t *buf = NULL;
	uint32_t target = e->ino, apb;
	long inode_at = -1;
	int err, inline_now, inline_before = 0;
	uint64_t nblk;

	for (size_t i = 0; i <= e->last_fsync; i++)
		if (rf->chain[i].ino == e->ino && rf->chain[i].nid == e->ino && !rf->chain[i].ofs)
			inode_at = (long)i;
	if (inode_at >= 0) {
		err = f2_fs_read_block(fs, rf->chain[inode_at].addr, &n);
		if (!err)
			err = f2_inode_parse(fs, e->ino, &n, &ir);
	} else {
		err = f2_inode_read(fs, e->ino, &ir);
	}
	if (err)
		return ew_fail(w, err, "ino %u: inode: %s", e->ino, fs->why);
	if (ir.cluster_blocks || ir.encrypted) {
		e->skip = 1;
		snprintf(e->why, sizeof(e->why), "compressed or encrypted file: not recovered");
		return 0;
	}
	if ((ir.mode & 0170000) == 0040000 && e->is_new) {
		e->skip = 1;
		snprintf(e->why, sizeof(e->why), "new directory: not recovered");
		return 0;
	}
	if (!e->is_new) {
		err = f2_file_open(fs, e->ino, &cf);
		if (err)
			return ew_fail(w, err, "ino %u: committed inode: %s", e->ino, fs->why);
		cir = cf->ir;
		inline_before = !!(cir.node.i.i_inline & F2_INLINE_DATA);
	}
	inline_now = !!(ir.node.i.i_inline & F2_INLINE_DATA);
	err = f2_file_open_ref(fs, &ir, &f);
	if (err)
		goto out;
	apb = f2_file_addrs_per_block(f);
	/* every address the chain gives, in chain order */
	for (size_t i = 0; i <= e->last_fsync && !err; i++) {
		const struct f2_rf_blk *b = &rf->chain[i];
		int64_t start;

		if (b->ino != e->ino)
			continue;
		err = f2_fs_read_block(fs, b->addr, &n);
		if (err)
			break;
		if (b->ofs == 0) {
			if (b->nid != e->ino || (n.i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY)))
				continue;
			for (uint32_t k = 0; k < ir.addrs && !err; k++)
				err = plan_add(&pl, k, f2_le32(n.i.i_addr[ir.extra_words + k]));
			continue;
		}
		start = f2_file_node_start(f, b->ofs);
		if (start < 0)
			continue;
		for (uint32_t k = 0; k < apb && !err; k++)
			err = plan_add(&pl, (uint64_t)start + k, f2_le32(n.dn.addr[k]));
	}
	if (err)
		goto out;
	if (pl.n)
		qsort(pl.p, pl.n, sizeof(*pl.p), cmp_pair);

	if (e->last_dent >= 0 && e->namelen) {
		err = recover_name(e, w, &ir.node, &target);
		if (err)
			goto out;
	}
	e->new_ino = target;
	buf = malloc(F2_BLKSIZE);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	if (!e->is_new && (inline_before || inline_now)) {
		err = f2_wfs_truncate(w, target, 0);
		if (err)
			goto out;
		inline_before = 1;	/* nothing committed to compare with */
	}
	if (inline_now) {
		if (ir.size > ir.inline_bytes) {
			err = ew_fail(w, F2_ECORRUPT, "ino %u: inline size %llu", e->ino,
				      (unsigned long long)ir.size);
			goto out;
		}
		if (ir.size)
			err = f2_wfs_write(w, target, 0, f2_inline_data(&ir), (size_t)ir.size);
		e->copied = ir.size ? 1 : 0;
	} else {
		nblk = (ir.size + F2_BLKSIZE - 1) / F2_BLKSIZE;
		for (size_t i = 0; i < pl.n && !err; i++) {
			uint32_t addr = pl.p[i].addr, old = 0;

			if (i + 1 < pl.n && pl.p[i + 1].fofs == pl.p[i].fofs)
				continue;	/* a later node overrides */
			if (pl.p[i].fofs >= nblk)
				continue;
			if (!e->is_new && !inline_before) {
				err = f2_file_map(cf, pl.p[i].fofs, &old, NULL);
				if (err)
					old = UINT32_MAX - 1;	/* unreadable: rewrite */
				err = 0;
			}
			if (addr == old)
				continue;
			if (addr == F2_NULL_ADDR || addr == F2_NEW_ADDR) {
				if (e->is_new || inline_before || old == F2_NULL_ADDR)
					continue;
				memset(buf, 0, F2_BLKSIZE);
			} else if (!f2_fs_in_main(fs, addr)) {
				err = ew_fail(w, F2_ERANGE, "ino %u block %llu: address %u outside the main area",
					      e->ino, (unsigned long long)pl.p[i].fofs, addr);
				break;
			} else {
				err = f2_fs_read_block(fs, addr, buf);
				if (err)
					break;
			}
			err = f2_wfs_write(w, target, pl.p[i].fofs * F2_BLKSIZE, buf, F2_BLKSIZE);
			e->copied++;
			if (!err)
				err = ew_maybe_writeback(w);
		}
		if (!err)
			err = f2_wfs_truncate(w, target, ir.size);
	}
	if (err)
		goto out;
	attrs_of(&ir.node, &a);
	err = f2_wfs_setattr(w, target, &a);
	if (!err && inode_at >= 0) {
		/* xattrs of the newest inode: its inline area, and its xattr
		 * node as committed (a newer xattr node is not replayed) */
		struct xa_ctx xc = { .w = w, .target = target };
		int xe = f2_xattr_iter(fs, &ir, put_xattr, &xc);

		if (xc.err)
			err = xc.err;
		else if (xe)
			snprintf(e->why, sizeof(e->why), "xattrs partly recovered: %.60s", fs->why);
	}
out:
	free(buf);
	free(pl.p);
	f2_file_close(f);
	f2_file_close(cf);
	return err;
}

int f2_rf_apply(struct f2_rf *rf, struct f2_wfs *w)
{
	int done = 0, todo = 0, err;

	for (size_t i = 0; i < rf->ninos; i++)
		todo += !rf->inos[i].skip;
	if (!todo)
		return 0;
	err = reserve(rf, w);
	if (err)
		return err;
	/* in chain order of the last fsync, as the driver replays */
	for (size_t i = 0; i < rf->ninos; i++) {
		struct f2_rf_ino *e = &rf->inos[i];

		if (e->skip)
			continue;
		err = recover_one(rf, e, w);
		if (err)
			return err;
		done += !e->skip;
	}
	err = f2_wfs_checkpoint(w);
	return err ? err : done;
}

int f2_rf_run(struct f2_io *rw, int apply, struct f2_rf **out, char *why, size_t whylen)
{
	struct f2_fs *fs = NULL;
	struct f2_wfs *w = NULL;
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
	for (size_t i = 0; i < rf->ninos; i++)
		todo += !rf->inos[i].skip;
	if (apply && todo) {
		err = f2_wfs_open(fs, NULL, &w);
		if (err) {
			if (why)
				snprintf(why, whylen, "%s", fs->why);
			goto out;
		}
		n = f2_rf_apply(rf, w);
		if (n < 0) {
			err = n;
			if (why)
				snprintf(why, whylen, "%s", f2_wfs_why(w));
		}
		f2_wfs_close(w);
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
