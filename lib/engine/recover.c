// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/recover.c - write-engine primitives of the roll-forward
 * (engine/recover.h): held nids and creation at a given inode number, single
 * block punching, replacing xattr areas.  Built on the engine's internals
 * (engine/internal.h) without changing them.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/errors.h"
#include "f2/node.h"
#include "internal.h"
#include "recover.h"


int eng_rf_hold_nid(struct f2_engine *w, uint32_t nid)
{
	struct eng_nat *e;
	int err = eng_nat_get(w, nid, &e);

	if (err)
		return err;
	if (e->blkaddr != F2_NULL_ADDR || e->dirty)
		return eng_fail(w, F2_ECORRUPT, "nid %u is not free (block %u%s)", nid, e->blkaddr,
			       e->dirty ? ", changed" : "");
	/* dirty with no block: the free-nid search passes it over */
	e->dirty = 1;
	e->held = 1;
	return 0;
}

/* A free entry keeps the ino of its last owner (the kernel leaves it): a
 * hold is undone by the flag it set, whatever the entry's ino. */
void eng_rf_release_nid(struct f2_engine *w, uint32_t nid)
{
	struct eng_nat *e = f2_pmap_get(&w->nat, nid);

	if (!e || !e->held)
		return;
	e->held = 0;
	if (e->blkaddr == F2_NULL_ADDR)
		e->dirty = 0;
}

int eng_rf_create(struct f2_engine *w, uint32_t dir, const char *name, size_t len,
		 const struct f2_wattr *a, uint32_t ino)
{
	struct eng_nat *e;
	uint32_t got;
	int err;

	eng_rf_release_nid(w, ino);
	err = eng_nat_get(w, ino, &e);
	if (err)
		return err;
	if (e->blkaddr != F2_NULL_ADDR || e->dirty)
		return eng_fail(w, F2_ECORRUPT, "ino %u: nid already in use (block %u)", ino,
			       e->blkaddr);
	/* the free-nid search starts at next_nid: ino is the first free one */
	w->next_nid = ino;
	err = f2_engine_create(w, dir, name, len, a, &got);
	if (err)
		return err;
	if (got != ino)
		return eng_fail(w, F2_ECORRUPT, "ino %u: the engine allocated nid %u instead", ino,
			       got);
	return 0;
}

int eng_rf_punch(struct f2_engine *w, uint32_t ino, uint64_t fofs)
{
	struct eng_blk *owner, *inode;
	struct f2_extent *x;
	uint32_t ofs, addr;
	uint64_t s, n;
	le32 *slot;
	int err = eng_map_block(w, ino, fofs, 0, &slot, &owner, &ofs);

	if (err)
		return err;
	if (!slot)
		return 0;
	addr = f2_le32(*slot);
	if (addr == F2_NULL_ADDR)
		return 0;
	if (addr == F2_COMPRESS_ADDR)
		return eng_fail(w, F2_EUNSUPP, "ino %u block %llu: compressed cluster", ino,
			       (unsigned long long)fofs);
	err = eng_drop_data(w, addr);
	if (err)
		return err;
	*slot = 0;
	owner->dirty = 1;
	err = eng_inode_get(w, ino, &inode);
	if (err)
		return err;
	f2_set_le64(eng_node(inode)->i.i_blocks, f2_le64(eng_node(inode)->i.i_blocks) - 1);
	x = &eng_node(inode)->i.i_ext;
	s = f2_le32(x->fofs);
	n = f2_le32(x->len);
	if (n && s <= fofs && fofs < s + n)
		memset(x, 0, sizeof(*x));
	inode->dirty = 1;
	return 0;
}

int eng_rf_xattr_set(struct f2_engine *w, uint32_t ino, const uint8_t *inl, size_t inl_len,
		    const uint8_t *xnode)
{
	struct eng_blk *inode, *xb;
	struct eng_ilayout l;
	size_t have;
	uint32_t xnid;
	int err = eng_inode_get(w, ino, &inode);

	if (err)
		return err;
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	have = (eng_node(inode)->i.i_inline & F2_INLINE_XATTR) ? (size_t)l.xwords * 4 : 0;
	if (inl && inl_len != have)
		return eng_fail(w, F2_EUNSUPP, "ino %u: inline xattr area of %zu bytes, the chain's "
			       "has %zu", ino, have, inl_len);
	if (inl && have) {
		memcpy(&eng_node(inode)->i.i_addr[F2_ADDRS_PER_INODE - l.xwords], inl, have);
		inode->dirty = 1;
	}
	if (!xnode)
		return 0;
	xnid = f2_le32(eng_node(inode)->i.i_xattr_nid);
	if (xnid) {
		err = eng_node_free(w, xnid);
		if (err)
			return err;
		eng_node(inode)->i.i_xattr_nid = 0;
		f2_set_le64(eng_node(inode)->i.i_blocks, f2_le64(eng_node(inode)->i.i_blocks) - 1);
		inode->dirty = 1;
	}
	err = eng_node_new(w, ino, F2_NODE_OFS_XATTR, S_ISDIR(f2_le16(eng_node(inode)->i.i_mode)),
			  &xnid, &xb);
	if (err)
		return err;
	memcpy(xb->data, xnode, F2_XATTR_BLOCK_SIZE);
	/* eng_node_new neither writes back nor evicts: inode is still cached */
	f2_set_le32(eng_node(inode)->i.i_xattr_nid, xnid);
	f2_set_le64(eng_node(inode)->i.i_blocks, f2_le64(eng_node(inode)->i.i_blocks) + 1);
	inode->dirty = 1;
	return 0;
}

int eng_rf_set_flags(struct f2_engine *w, uint32_t ino, uint32_t flags, uint8_t advise)
{
	struct eng_blk *inode;
	int err = eng_inode_get(w, ino, &inode);

	if (err)
		return err;
	f2_set_le32(eng_node(inode)->i.i_flags, flags);
	eng_node(inode)->i.i_advise = advise;
	inode->dirty = 1;
	return 0;
}
