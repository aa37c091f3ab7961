// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scan.c - the rescue's scan (f2/rescue.h): every main-area block read
 * once, node blocks recognised by footer and content, the newest version
 * of every nid chosen; while a version is the newest seen, the children
 * it names (at the offset it implies) and its data addresses are noted,
 * tagged with its block, so the main area is read once: once every block
 * is read, the notes of the versions chosen link each tree, the others
 * are dropped.  Only nodes that hang from an inode are kept.  Every
 * number read from disk is bounded before it indexes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/io.h"
#include "f2/node.h"
#include "f2/rescue.h"
#include "internal.h"

#define SCAN_PIECE	64	/* blocks read at once: 256 KiB, within L2 */

static uint32_t low_ver(const struct f2_node *n)
{
	return (uint32_t)f2_le64(n->footer.cp_ver);
}

/* A footer a node of this volume can have, and for an inode a block that
 * parses as one; *mode gets an inode's mode. */
static int node_ok(struct f2_rescue *r, const struct f2_node *n, uint16_t *mode)
{
	struct f2_fs *fs = r->fs;
	uint32_t nid = f2_le32(n->footer.nid), ino = f2_le32(n->footer.ino);
	uint32_t ofs = f2_node_ofs(n), next = f2_le32(n->footer.next_blkaddr);

	if (nid <= F2_META_INO || ino <= F2_META_INO || nid >= fs->max_nid || ino >= fs->max_nid)
		return 0;
	if (next && next >= fs->block_count)
		return 0;
	if (nid != ino)
		return ofs && (ofs == F2_NODE_OFS_XATTR ||
			       f2_node_first_bidx(ofs, F2_ADDRS_PER_INODE, F2_ADDRS_PER_BLOCK) >= 0);
	if (ofs || f2_inode_parse(fs, ino, n, r->ir) || r->ir->csum_ok == 0)
		return 0;
	*mode = r->ir->mode;
	return 1;
}

static int hint(const struct f2_rescue *r, uint32_t nid, uint32_t blkaddr)
{
	return r->o.hint ? r->o.hint(r->o.hint_arg, nid, blkaddr) : 0;
}

/* Grow *arr (elements of size sz, *cap of them) to hold one more. */
static int grow(void **arr, size_t n, size_t *cap, size_t sz)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 4096;
	p = realloc(*arr, c * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

static int note_child(struct f2_rescue *r, uint32_t parent, uint32_t src, uint32_t child,
		      uint32_t ofs)
{
	if (!child || child >= r->fs->max_nid || child == parent)
		return 0;
	if (grow((void **)&r->links, r->nlinks, &r->cap_links, sizeof(*r->links)))
		return -ENOMEM;
	r->links[r->nlinks++] = (struct rs_link){ parent, src, child, ofs };
	return 0;
}

static int note_data(struct f2_rescue *r, uint32_t nid, uint32_t src, uint32_t addr)
{
	if (addr != F2_NEW_ADDR && !f2_fs_in_main(r->fs, addr))
		return 0;
	if (grow((void **)&r->data, r->ndata, &r->cap_data, sizeof(*r->data)))
		return -ENOMEM;
	r->data[r->ndata++] = (struct rs_data){ addr, nid, src };
	return 0;
}

/* The children and data addresses node n (of nid, at block src) names;
 * an inode's are read through r->ir, node_ok()'s parse of it. */
static int note_node(struct f2_rescue *r, uint32_t nid, uint32_t src, const struct f2_node *n)
{
	const struct rs_node *b = &r->n[nid];
	int err = 0;

	if (nid == b->ino) {
		const struct f2_inode_ref *ir = r->ir;

		err = note_child(r, nid, src, f2_le32(n->i.i_xattr_nid), F2_NODE_OFS_XATTR);
		if (n->i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY))
			return err;
		for (unsigned k = 0; k < F2_NIDS_PER_INODE && !err; k++)
			err = note_child(r, nid, src, f2_le32(n->i.i_nid[k]), f2_node_top_ofs(k));
		for (uint32_t i = 0; i < ir->addrs && !err; i++) {
			uint32_t a = f2_inode_addr(ir, i);

			if (a)
				err = note_data(r, nid, src, a);
		}
		return err;
	}
	if (b->ofs == F2_NODE_OFS_XATTR)
		return 0;
	if (f2_node_is_dnode(b->ofs)) {
		for (uint32_t i = 0; i < F2_ADDRS_PER_BLOCK && !err; i++)
			if (n->dn.addr[i])
				err = note_data(r, nid, src, f2_le32(n->dn.addr[i]));
		return err;
	}
	for (uint32_t i = 0; i < F2_NIDS_PER_BLOCK && !err; i++)
		if (n->in.nid[i])
			err = note_child(r, nid, src, f2_le32(n->in.nid[i]),
					 f2_node_child_ofs(b->ofs, i));
	return err;
}

/* Keep block addr for its nid when it is the newest seen so far, and
 * note what it names. */
static int consider(struct f2_rescue *r, const struct f2_node *n, uint32_t addr)
{
	uint32_t nid = f2_le32(n->footer.nid), ver = low_ver(n);
	struct rs_node *b;
	uint16_t mode = 0;

	if (!node_ok(r, n, &mode))
		return 0;
	if (r->o.max_ver && ver > r->o.max_ver)
		return 0;
	r->node_blocks++;
	if (r->o.hint_required && !hint(r, nid, addr))
		return 0;
	if (ver > r->max_ver)
		r->max_ver = ver;
	b = &r->n[nid];
	if (b->blkaddr) {
		int hn, ho;

		if (ver < b->ver)
			return 0;
		if (ver == b->ver) {
			hn = hint(r, nid, addr);
			ho = hint(r, nid, b->blkaddr);
			/* one version: the hinted block, else the later one */
			if (ho > hn || (ho == hn && b->blkaddr > addr))
				return 0;
		}
	} else {
		r->nids++;
		if (nid >= r->seen_end)
			r->seen_end = nid + 1;
	}
	b->blkaddr = addr;
	b->ver = ver;
	b->ino = f2_le32(n->footer.ino);
	b->ofs = f2_node_ofs(n);
	b->flag = (uint8_t)(f2_le32(n->footer.flag) & 7);
	b->mode = mode;
	/* an inode the kernel was deleting: newest, but never kept */
	b->dead = nid == b->ino && !f2_le32(n->i.i_links);
	return note_node(r, nid, addr, n);
}

/* Blocks [first, first + cnt) read at once, every node block considered;
 * unreadable blocks skipped one by one. */
static int read_piece(struct f2_rescue *r, uint8_t *buf, uint64_t first, uint32_t cnt)
{
	struct f2_fs *fs = r->fs;
	int err = 0;

	if (f2_io_read(fs->io, first * F2_BLKSIZE, buf, (size_t)cnt * F2_BLKSIZE))
		for (uint32_t i = 0; i < cnt; i++)
			if (f2_fs_read_block(fs, first + i, buf + (size_t)i * F2_BLKSIZE))
				memset(buf + (size_t)i * F2_BLKSIZE, 0, F2_BLKSIZE);
	for (uint32_t i = 0; i < cnt && !err; i++)
		err = consider(r, (const struct f2_node *)(buf + (size_t)i * F2_BLKSIZE),
			       (uint32_t)(first + i));
	r->blocks_read += cnt;
	return err;
}

/* Segment seg in pieces small enough to stay in the CPU's cache between
 * the read and the look at each block; the holes of a sparse image
 * between pieces are skipped (reading one costs the kernel a zeroed
 * page). */
static int read_segment(struct f2_rescue *r, uint8_t *buf, uint32_t seg)
{
	struct f2_fs *fs = r->fs;
	uint64_t b = f2_fs_seg_start(fs, seg), end = b + F2_BLKS_PER_SEG, next;
	int err = 0;

	while (b < end && !err) {
		if (!f2_io_data_at(fs->io, b * F2_BLKSIZE, &next) && next / F2_BLKSIZE > b) {
			b = next / F2_BLKSIZE;
			continue;
		}
		uint32_t cnt = end - b < SCAN_PIECE ? (uint32_t)(end - b) : SCAN_PIECE;

		err = read_piece(r, buf, b, cnt);
		b += cnt;
	}
	return err;
}

/* The first segment at or after seg that may hold data (a sparse image's
 * holes are skipped; the caller's filter too). */
static uint32_t next_seg(struct f2_rescue *r, uint32_t seg)
{
	struct f2_fs *fs = r->fs;
	uint64_t next;

	while (seg < fs->main_segs) {
		if (!f2_io_data_at(fs->io, f2_fs_seg_start(fs, seg) * F2_BLKSIZE, &next) &&
		    next / F2_BLKSIZE >= f2_fs_seg_start(fs, seg) + F2_BLKS_PER_SEG) {
			uint64_t b = next / F2_BLKSIZE;

			seg = b >= f2_fs_seg_start(fs, fs->main_segs) ? fs->main_segs :
			      f2_fs_segno(fs, b);
			continue;
		}
		if (r->o.segment && !r->o.segment(r->o.segment_arg, seg)) {
			seg++;
			continue;
		}
		break;
	}
	return seg;
}

static int pass_footers(struct f2_rescue *r)
{
	uint32_t total = r->fs->main_segs, seg = next_seg(r, 0);
	uint8_t *buf = malloc((size_t)SCAN_PIECE * F2_BLKSIZE);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (seg < total && !err) {
		err = read_segment(r, buf, seg);
		seg = next_seg(r, seg + 1);
		if (r->o.progress)
			r->o.progress(r->o.progress_arg, seg, total);
	}
	free(buf);
	return err;
}

/* The notes of the chosen versions, in the order the scan met them
 * (block order): each child gets the first chosen parent that names it
 * at its offset, of its owner; the data addresses of other versions go. */
static void resolve(struct f2_rescue *r)
{
	size_t k = 0;

	for (size_t i = 0; i < r->nlinks; i++) {
		const struct rs_link *l = &r->links[i];
		const struct rs_node *p = &r->n[l->parent];
		struct rs_node *c = &r->n[l->child];

		if (p->blkaddr != l->src)
			continue;
		if (c->blkaddr && c->ino == p->ino && c->ofs == l->ofs && l->child != p->ino &&
		    !c->parent)
			c->parent = l->parent;
	}
	free(r->links);
	r->links = NULL;
	r->nlinks = r->cap_links = 0;
	for (size_t i = 0; i < r->ndata; i++)
		if (r->n[r->data[i].nid].blkaddr == r->data[i].src)
			r->data[k++] = r->data[i];
	r->ndata = k;
}

/* nid hangs from an inode: parents up to the inode, at most 3 levels. */
static int hangs(const struct f2_rescue *r, uint32_t nid)
{
	for (int depth = 0; depth < 4; depth++) {
		const struct rs_node *b = &r->n[nid];

		if (nid == b->ino)
			return 1;
		if (!b->parent)
			return 0;
		nid = b->parent;
	}
	return 0;
}

/* kept: the nodes that hang from a live inode */
static void mark(struct f2_rescue *r)
{
	for (uint32_t nid = 0; nid < r->seen_end; nid++) {
		struct rs_node *b = &r->n[nid];

		b->kept = b->blkaddr && hangs(r, nid) && !r->n[b->ino].dead;
	}
}

/* Inodes no directory names that the caller calls stale are left out. */
static int prune(struct f2_rescue *r)
{
	int err = rs_reach(r), again = 0;

	if (err)
		return err;
	for (uint32_t nid = F2_ROOT_INO; nid < r->seen_end; nid++) {
		struct rs_node *b = &r->n[nid];

		if (!b->kept || b->ino != nid || b->reached)
			continue;
		if (r->o.stale(r->o.stale_arg, nid, b->blkaddr)) {
			b->dead = 1;
			r->stale_inodes++;
			again = 1;
		} else {
			r->unnamed++;
		}
	}
	if (again)
		mark(r);
	return 0;
}

static int keep(struct f2_rescue *r)
{
	struct f2_fs *fs = r->fs;
	uint64_t blocks = (uint64_t)fs->main_segs * F2_BLKS_PER_SEG;
	int err;

	r->used = calloc((size_t)((blocks + 7) / 8), 1);
	r->segtype = malloc(fs->main_segs);
	if (!r->used || !r->segtype)
		return -ENOMEM;
	memset(r->segtype, 0xff, fs->main_segs);
	mark(r);
	if (r->o.stale && (err = prune(r)))
		return err;
	for (uint32_t nid = 0; nid < r->seen_end; nid++) {
		struct rs_node *b = &r->n[nid];
		uint32_t idx, seg;

		if (!b->blkaddr)
			continue;
		if (!b->kept) {
			r->dropped++;
			continue;
		}
		r->nodes++;
		if (nid == b->ino) {
			r->inodes++;
			if (S_ISREG(b->mode))
				r->files++;
			else if (S_ISDIR(b->mode))
				r->dirs++;
			else
				r->others++;
		}
		if (nid + 1 > r->top_nid)
			r->top_nid = nid + 1;
		idx = b->blkaddr - fs->main_blkaddr;
		f2_set_bit_lsb(r->used, idx);
		seg = idx / F2_BLKS_PER_SEG;
		if (r->segtype[seg] == 0xff || r->segtype[seg] < F2_CURSEG_HOT_NODE)
			r->segtype[seg] = !f2_node_is_dnode(b->ofs) ? F2_CURSEG_COLD_NODE :
					  (b->flag & F2_FOOTER_COLD) ? F2_CURSEG_WARM_NODE :
					  F2_CURSEG_HOT_NODE;
	}
	for (size_t i = 0; i < r->ndata; i++) {
		const struct rs_data *d = &r->data[i];
		const struct rs_node *o = &r->n[d->nid];
		uint32_t idx, seg;

		if (!o->kept)
			continue;
		if (d->blkaddr == F2_NEW_ADDR) {
			r->reserved++;
			continue;
		}
		idx = d->blkaddr - fs->main_blkaddr;
		if (f2_test_bit_lsb(r->used, idx))
			continue;	/* claimed twice: the checker's to sort out */
		f2_set_bit_lsb(r->used, idx);
		r->data_blocks++;
		seg = idx / F2_BLKS_PER_SEG;
		if (r->segtype[seg] == 0xff)
			r->segtype[seg] = S_ISDIR(r->n[o->ino].mode) ? F2_CURSEG_HOT_DATA :
					  F2_CURSEG_WARM_DATA;
	}
	return 0;
}

int f2_rescue_scan(struct f2_fs *fs, const struct f2_rescue_opts *o, struct f2_rescue **out)
{
	struct f2_rescue *r = calloc(1, sizeof(*r));
	int err;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	r->fs = fs;
	if (o)
		r->o = *o;
	r->n = calloc(fs->max_nid, sizeof(*r->n));
	r->ir = malloc(sizeof(*r->ir));
	if (!r->n || !r->ir) {
		f2_rescue_free(r);
		return -ENOMEM;
	}
	err = pass_footers(r);
	if (!err) {
		resolve(r);
		err = keep(r);
	}
	if (err) {
		f2_rescue_free(r);
		return err;
	}
	*out = r;
	return 0;
}

void f2_rescue_stats(const struct f2_rescue *r, struct f2_rescue_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->blocks_read = r->blocks_read;
	st->node_blocks = r->node_blocks;
	st->nids = r->nids;
	st->nodes = r->nodes;
	st->inodes = r->inodes;
	st->files = r->files;
	st->dirs = r->dirs;
	st->others = r->others;
	st->dropped = r->dropped;
	st->unnamed = r->unnamed;
	st->stale_inodes = r->stale_inodes;
	st->data_blocks = r->data_blocks;
	st->reserved_blocks = r->reserved;
	st->max_ver = r->max_ver;
	st->nid_end = r->top_nid;
}

int f2_rescue_node(const struct f2_rescue *r, uint32_t nid, uint32_t *ino, uint32_t *blkaddr)
{
	if (nid >= r->fs->max_nid || !r->n[nid].kept)
		return 0;
	*ino = r->n[nid].ino;
	*blkaddr = r->n[nid].blkaddr;
	return 1;
}

void f2_rescue_free(struct f2_rescue *r)
{
	if (!r)
		return;
	free(r->n);
	free(r->ir);
	free(r->data);
	free(r->links);
	free(r->used);
	free(r->segtype);
	free(r);
}
