// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/repair.c - write-engine primitives for fsck.f2fs's repairs
 * (f2/repair.h): setting SIT entries, the free map, counters and NAT
 * entries to what a full walk found, resetting reserved NAT entries,
 * user_block_count and the GC reserve, moving a log off a shared
 * segment, loading a node whose footer is wrong, moving a data block,
 * setting a summary entry, editing directory slots and recomputing
 * nat_bits.  Built on the engine's internals (engine/internal.h) without
 * changing them; everything is committed by f2_engine_checkpoint().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/bitmap.h"
#include "f2/cp_pack.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/io.h"
#include "f2/node.h"
#include "f2/repair.h"
#include "internal.h"

int f2_engine_repair_seg(struct f2_engine *w, uint32_t segno, const uint8_t *map, int type)
{
	struct eng_sit *e;
	uint32_t n = 0;
	int err = eng_sit_entry(w, segno, &e);

	if (err)
		return err;
	for (int i = 0; i < F2_SIT_VBLOCK_MAP_SIZE; i++)
		n += (uint32_t)__builtin_popcount(map[i]);
	memcpy(e->map, map, sizeof(e->map));
	e->vblocks = (uint16_t)n;
	if (type >= 0)
		e->type = (uint8_t)type;
	else if (e->type >= F2_NR_CURSEG)
		e->type = F2_CURSEG_HOT_DATA;
	e->dirty = 1;
	w->sit_to_blocks = 1;
	if (n && f2_test_bit_lsb(w->freemap, segno)) {
		f2_clear_bit_lsb(w->freemap, segno);
		w->free_segs--;
	}
	return 0;
}

void f2_engine_repair_sit_blocks(struct f2_engine *w)
{
	w->sit_to_blocks = 1;
}

int f2_engine_repair_cursegs(struct f2_engine *w)
{
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		struct eng_curseg *c = &w->cur[t];
		struct eng_sit *e;
		int err, past = 0;

		if (c->segno == F2_NULL_SEGNO)
			continue;
		err = eng_sit_entry(w, c->segno, &e);
		if (err)
			return err;
		if (e->type != t) {
			e->type = (uint8_t)t;
			e->dirty = 1;
		}
		for (uint32_t b = c->blkoff; b < F2_BLKS_PER_SEG && !past; b++)
			past = f2_test_bit_msb(e->map, b);
		if (past && (err = eng_seg_reopen(w, t)))
			return err;
	}
	return 0;
}

void f2_engine_repair_counts(struct f2_engine *w, uint64_t blocks, uint32_t nodes, uint32_t inodes)
{
	w->valid_blocks = blocks;
	w->valid_nodes = nodes;
	w->valid_inodes = inodes;
}

int f2_engine_repair_expect_nat(struct f2_engine *w, size_t n)
{
	return f2_map_reserve(&w->nat, n);
}

int f2_engine_repair_nat(struct f2_engine *w, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	struct eng_nat *e;
	int err = eng_nat_get(w, nid, &e);

	if (err)
		return err;
	if (blkaddr == F2_NULL_ADDR) {
		struct eng_blk *b = f2_pmap_del(&w->nodes, nid);

		if (b) {
			free(b);
			w->cached--;
		}
		if (e->blkaddr != F2_NULL_ADDR)
			e->version++;
		ino = 0;
	}
	e->ino = ino;
	e->blkaddr = blkaddr;
	e->dirty = 1;
	return 0;
}

int f2_engine_repair_root(struct f2_engine *w, uint32_t root, const struct f2_wattr *a)
{
	struct eng_nat *e;
	struct eng_blk *b;
	int err;

	if (!S_ISDIR(a->mode))
		return eng_fail(w, -EINVAL, "root ino %u: mode 0%o is not a directory", root, a->mode);
	/* the old node (and any cached copy) goes; nid root is taken again
	 * (the free-nid search never hands out the root's) */
	err = f2_engine_repair_nat(w, root, 0, F2_NULL_ADDR);
	if (!err)
		err = eng_nat_get(w, root, &e);
	if (err)
		return err;
	e->ino = root;
	e->blkaddr = F2_NEW_ADDR;
	e->dirty = 1;
	w->valid_nodes++;
	w->valid_inodes++;
	err = eng_node_attach(w, root, root, 0, 1, &b);
	if (err)
		return err;
	eng_inode_init(w, b, root, "", 0, a);
	return eng_dir_init_block(w, b, root);
}

int f2_engine_repair_nat_reserved(struct f2_engine *w, uint32_t nid)
{
	struct eng_nat *e;
	int err;

	if (nid != 0 && nid != F2_NODE_INO && nid != F2_META_INO)
		return eng_fail(w, F2_ERANGE, "nid %u is not reserved", nid);
	err = eng_nat_get_any(w, nid, &e);
	if (err)
		return err;
	e->ino = nid;
	e->blkaddr = nid ? 1 : F2_NULL_ADDR;
	e->dirty = 1;
	return 0;
}

void f2_engine_repair_user_blocks(struct f2_engine *w, uint64_t blocks)
{
	w->user_blocks = blocks;
}

void f2_engine_repair_reserve(struct f2_engine *w, uint32_t rsvd, uint32_t ovp)
{
	w->rsvd_segs = rsvd;
	w->ovp_segs = ovp;
}

int f2_engine_repair_curseg_move(struct f2_engine *w, int t)
{
	uint32_t old;

	if (t < 0 || t >= F2_NR_CURSEG)
		return eng_fail(w, F2_ERANGE, "log %d", t);
	old = w->cur[t].segno;
	w->cur[t].segno = F2_NULL_SEGNO;	/* nothing of the old one is written */
	/* a log keeping the segment gets its own summary from the checkpoint
	 * (the read path gives a shared segment the first log's) */
	for (int u = 0; u < F2_NR_CURSEG; u++)
		if (u != t && w->cur[u].segno == old && w->fs->curseg[u].have_sum) {
			w->cur[u].sum = w->fs->curseg[u].sum;
			w->cur[u].sum.footer.entry_type = u >= F2_CURSEG_HOT_NODE ?
							  F2_SUM_TYPE_NODE : F2_SUM_TYPE_DATA;
		}
	return eng_seg_reopen(w, t);
}

int f2_engine_repair_node(struct f2_engine *w, uint32_t nid, uint32_t ino, uint32_t ofs,
		       struct f2_node **out)
{
	struct eng_blk *b = f2_pmap_get(&w->nodes, nid);
	struct f2_node *n;
	uint32_t flag;
	int err;

	/* read whatever its footer says (ino given: the NAT must agree) */
	if (!b && ((err = eng_node_read(w, nid, ino, &b)) ||
		   (err = eng_cache_put(w, &w->nodes, b))))
		return err;
	n = eng_node(b);
	flag = f2_le32(n->footer.flag) & ((1u << F2_FOOTER_OFFSET_SHIFT) - 1);
	f2_set_le32(n->footer.nid, nid);
	f2_set_le32(n->footer.ino, ino);
	f2_set_le32(n->footer.flag, ofs << F2_FOOTER_OFFSET_SHIFT | flag);
	b->log = !f2_node_is_dnode(ofs) ? F2_CURSEG_COLD_NODE :
		 (flag & F2_FOOTER_COLD) ? F2_CURSEG_WARM_NODE : F2_CURSEG_HOT_NODE;
	b->dirty = 1;
	*out = n;
	return 0;
}

int f2_engine_repair_move(struct f2_engine *w, uint32_t ino, uint64_t fofs, int is_dir)
{
	uint8_t *buf = malloc(F2_BLKSIZE);
	struct eng_blk *inode;
	int hole, err, t;

	if (!buf)
		return -ENOMEM;
	err = eng_inode_get(w, ino, &inode);
	if (!err)
		err = eng_read_file_block(w, ino, fofs, buf, &hole);
	if (!err && hole)
		err = eng_fail(w, F2_ECORRUPT, "ino %u block %llu: a hole", ino,
			      (unsigned long long)fofs);
	if (!err) {
		t = is_dir ? F2_CURSEG_HOT_DATA :
		    (eng_node(inode)->i.i_advise & F2_ADVISE_COLD) ? F2_CURSEG_COLD_DATA :
		    F2_CURSEG_WARM_DATA;
		err = eng_write_block_at(w, ino, fofs, t, buf);
	}
	free(buf);
	return err;
}

/* Entry `entry` of segment segno's summary (nid, ofs, ver), or its footer
 * type (entry < 0).  A current segment's summary is the engine's, written
 * with the checkpoint; any other segment's is edited in the SSA at once:
 * the entry then names the block's true owner in the old state as in the
 * new, so a crash before the checkpoint loses nothing. */
static int sum_edit(struct f2_engine *w, uint32_t segno, int entry, uint32_t nid, uint16_t ofs,
		    uint8_t ver, uint8_t type)
{
	struct f2_summary_block *s = NULL, *buf = NULL;
	uint64_t at = (uint64_t)w->fs->ssa_blkaddr + segno;
	int err = 0;

	if (segno >= w->fs->main_segs || entry >= F2_ENTRIES_IN_SUM)
		return eng_fail(w, F2_ERANGE, "segment %u entry %d: no such summary entry",
				segno, entry);
	for (int t = 0; t < F2_NR_CURSEG; t++)
		if (w->cur[t].segno == segno)
			s = &w->cur[t].sum;
	if (!s) {
		if (!(buf = malloc(sizeof(*buf))))
			return -ENOMEM;
		if ((err = f2_io_read_block(w->fs->io, at, buf))) {
			free(buf);
			return eng_fail(w, err, "segment %u: summary read failed", segno);
		}
		s = buf;
	}
	if (entry >= 0) {
		f2_set_le32(s->entries[entry].nid, nid);
		f2_set_le16(s->entries[entry].ofs_in_node, ofs);
		s->entries[entry].version = ver;
	} else {
		s->footer.entry_type = type;
	}
	if (buf && (err = f2_io_write_block(w->fs->io, at, buf)))
		err = eng_fail(w, err, "segment %u: summary write failed", segno);
	free(buf);
	return err;
}

int f2_engine_repair_sum(struct f2_engine *w, uint32_t blkaddr, uint32_t nid, uint16_t ofs,
			 uint8_t ver)
{
	if (!f2_fs_in_main(w->fs, blkaddr))
		return eng_fail(w, F2_ERANGE, "block address %u: outside the main area", blkaddr);
	return sum_edit(w, f2_fs_segno(w->fs, blkaddr),
			(int)((blkaddr - w->fs->main_blkaddr) % F2_BLKS_PER_SEG), nid, ofs, ver, 0);
}

int f2_engine_repair_sum_type(struct f2_engine *w, uint32_t segno, int node)
{
	return sum_edit(w, segno, -1, 0, 0, 0, node ? F2_SUM_TYPE_NODE : F2_SUM_TYPE_DATA);
}

static int iter_area(struct f2_repair_slot *s, int (*fn)(void *, struct f2_repair_slot *),
		     void *arg, int *changed)
{
	for (uint32_t i = 0; i < s->nr; i++) {
		int r;

		if (!f2_test_bit_lsb(s->bitmap, i))
			continue;
		s->slot = i;
		r = fn(arg, s);
		if (r < 0)
			return r;
		if (r)
			*changed = 1;
	}
	return 0;
}

int f2_engine_repair_dir_iter(struct f2_engine *w, uint32_t dir,
			   int (*fn)(void *arg, struct f2_repair_slot *s), void *arg)
{
	struct eng_blk *inode, *b;
	struct f2_repair_slot s;
	struct eng_dwalk dw;
	struct f2_inode *i;
	uint64_t nblocks;
	int err = eng_inode_get(w, dir, &inode), changed;

	if (err)
		return err;
	i = &eng_node(inode)->i;
	if (!S_ISDIR(f2_le16(i->i_mode)))
		return eng_fail(w, -ENOTDIR, "ino %u is not a directory", dir);
	eng_dir_forget(w, dir);		/* fn may change any entry */
	if (i->i_inline & F2_INLINE_DENTRY) {
		struct eng_ilayout l;
		struct f2_inline_dentry_geom g;
		uint8_t *p;

		eng_inode_layout(eng_node(inode), w->fs->features, &l);
		p = (uint8_t *)&i->i_addr[l.extra + 1];
		f2_inline_dentry_geom(l.inline_bytes, &g);
		s.bidx = UINT64_MAX;
		s.nr = g.nr;
		s.bitmap = p;
		s.de = (struct f2_dir_entry *)(p + g.dentry_off);
		s.names = (uint8_t (*)[F2_SLOT_LEN])(p + g.name_off);
		changed = 0;
		err = iter_area(&s, fn, arg, &changed);
		if (changed)
			inode->dirty = 1;
		return err;
	}
	nblocks = (f2_le64(i->i_size) + F2_BLKSIZE - 1) / F2_BLKSIZE;
	if (nblocks > UINT32_MAX)
		return eng_fail(w, F2_ECORRUPT, "directory ino %u: size %llu", dir,
			       (unsigned long long)f2_le64(i->i_size));
	/* the blocks that exist: i_size may be far past them (the kernel
	 * punches a directory block when it empties) */
	err = eng_dwalk_start(w, dir, nblocks, &dw);
	while (!err && (err = eng_dwalk_next(w, &dw, &b, &s.bidx)) > 0) {
		struct f2_dentry_block *d = (struct f2_dentry_block *)b->data;

		s.nr = F2_NR_DENTRY_IN_BLOCK;
		s.bitmap = d->dentry_bitmap;
		s.de = d->dentry;
		s.names = d->filename;
		changed = 0;
		err = iter_area(&s, fn, arg, &changed);
		if (changed)
			b->dirty = 1;
	}
	eng_dwalk_end(&dw);
	return err;
}

int f2_engine_repair_dir_add(struct f2_engine *w, uint32_t dir, const uint8_t *name, size_t len,
			  uint32_t ino, uint8_t type)
{
	return eng_dir_add(w, dir, name, len, ino, type);
}

int f2_engine_repair_nat_bits(struct f2_engine *w)
{
	int err;

	if (!w->nat_bits_on)
		return 0;
	err = f2_nat_bits_build(w->fs, w->nat_bits);
	return err ? eng_fail(w, err, "nat_bits: %s", w->fs->why) : 0;
}
