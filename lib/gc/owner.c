// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc/owner.c - the owners of a victim's valid blocks: the SIT bitmap says
 * which blocks are valid, the SSA names their owner, and the owner node
 * (data) or the NAT (node) must point back at the block before a mover
 * may touch it.  Read-only; gc.f2fs -n reports on it, the mover uses it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/gc.h"

/* Errors that are verdicts about the owner, not failures of the device. */
static int is_verdict(int r)
{
	return r != -EIO && r != -ENOMEM && r != F2_ESHORTIO && r != F2_EINJECTED;
}

/* Read nid into the cache (unless it is there); 0, or <0 for I/O errors. */
static int load_owner(struct f2_fs *fs, uint32_t nid, struct f2_gc_cache *c)
{
	int r;

	if (c->nid == nid && nid)
		return 0;
	memset(&c->ni, 0, sizeof(c->ni));
	c->nid = nid;
	c->err = 0;
	c->why[0] = 0;
	c->base = c->naddrs = 0;
	r = f2_node_read(fs, nid, 0, &c->node, &c->ni);
	if (r) {
		if (!is_verdict(r)) {
			c->nid = 0;
			return r;
		}
		c->err = r;
		snprintf(c->why, sizeof(c->why), "owner nid %u: %s", nid, fs->why);
		return 0;
	}
	if (f2_node_ofs(&c->node) == 0 && f2_le32(c->node.footer.ino) == nid) {
		struct f2_inode_ref *ir = malloc(sizeof(*ir));

		if (!ir) {
			c->nid = 0;
			return -ENOMEM;
		}
		r = f2_inode_parse(fs, nid, &c->node, ir);
		if (r) {
			c->err = r;
			snprintf(c->why, sizeof(c->why), "owner inode %u: %s", nid, fs->why);
		} else {
			c->base = ir->extra_words;
			c->naddrs = ir->addrs;
		}
		free(ir);
	} else {
		c->base = 0;
		c->naddrs = F2_ADDRS_PER_BLOCK;
	}
	return 0;
}

static int check_data(struct f2_fs *fs, uint64_t blkaddr, struct f2_gc_cache *c,
		      struct f2_gc_block *b)
{
	uint32_t slot;
	int r = load_owner(fs, b->nid, c);

	if (r)
		return r;
	b->ino = c->ni.ino;
	if (c->err) {
		b->owner = F2_GC_BAD;
		snprintf(b->why, sizeof(b->why), "%s", c->why);
		return 0;
	}
	if (c->ni.version != b->version) {
		b->owner = F2_GC_STALE;
		snprintf(b->why, sizeof(b->why), "nid %u: NAT version %u, summary %u",
			 b->nid, c->ni.version, b->version);
		return 0;
	}
	if (b->ofs_in_node >= c->naddrs) {
		b->owner = F2_GC_BAD;
		snprintf(b->why, sizeof(b->why), "nid %u: summary slot %u beyond its %u addresses",
			 b->nid, b->ofs_in_node, c->naddrs);
		return 0;
	}
	if (c->base)
		slot = f2_le32(c->node.i.i_addr[c->base + b->ofs_in_node]);
	else if (f2_node_ofs(&c->node) == 0)	/* an inode without extra attributes */
		slot = f2_le32(c->node.i.i_addr[b->ofs_in_node]);
	else
		slot = f2_le32(c->node.dn.addr[b->ofs_in_node]);
	if (slot != blkaddr) {
		b->owner = F2_GC_STALE;
		snprintf(b->why, sizeof(b->why), "nid %u slot %u holds %u, not %llu",
			 b->nid, b->ofs_in_node, slot, (unsigned long long)blkaddr);
		return 0;
	}
	b->owner = F2_GC_ALIVE;
	return 0;
}

/* A read-path failure r on b's node: a verdict on the node marks it bad,
 * with the reason; any other error is returned. */
static int node_failed(const struct f2_fs *fs, struct f2_gc_block *b, int r)
{
	if (!is_verdict(r))
		return r;
	b->owner = F2_GC_BAD;
	snprintf(b->why, sizeof(b->why), "nid %u: %s", b->nid, fs->why);
	return 0;
}

static int check_node(struct f2_fs *fs, uint64_t blkaddr, struct f2_gc_cache *c,
		      struct f2_gc_block *b)
{
	struct f2_nat_info ni;
	int r = f2_nat_lookup(fs, b->nid, &ni);

	if (r)
		return node_failed(fs, b, r);
	b->ino = ni.ino;
	if (ni.blkaddr != blkaddr) {
		b->owner = F2_GC_STALE;
		snprintf(b->why, sizeof(b->why), "nid %u: NAT says block %u", b->nid, ni.blkaddr);
		return 0;
	}
	r = f2_fs_read_block(fs, blkaddr, &c->node);
	c->nid = 0;	/* the scratch node no longer holds a cached owner */
	if (r)
		return r;
	r = f2_node_verify(fs, &c->node, b->nid, ni.ino);
	if (r)
		return node_failed(fs, b, r);
	b->owner = F2_GC_ALIVE;
	return 0;
}

int f2_gc_owner_check(struct f2_fs *fs, uint64_t blkaddr, const struct f2_summary *e,
		      int is_node, struct f2_gc_cache *cache, struct f2_gc_block *b)
{
	struct f2_gc_cache *c = cache;
	int r;

	memset(b, 0, sizeof(*b));
	b->blkaddr = blkaddr;
	if (!f2_fs_in_main(fs, blkaddr))
		return f2_fs_fail(fs, F2_ERANGE, "block %llu outside the main area",
				  (unsigned long long)blkaddr);
	b->segno = f2_fs_segno(fs, blkaddr);
	b->off = (uint16_t)((blkaddr - fs->main_blkaddr) & (F2_BLKS_PER_SEG - 1));
	b->is_node = is_node != 0;
	b->nid = f2_le32(e->nid);
	b->ofs_in_node = f2_le16(e->ofs_in_node);
	b->version = e->version;
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return -ENOMEM;
	}
	r = is_node ? check_node(fs, blkaddr, c, b) : check_data(fs, blkaddr, c, b);
	if (c != cache)
		free(c);
	return r;
}

int f2_gc_section_blocks(struct f2_fs *fs, const struct f2_gc_map *m, uint32_t secno,
			 int (*fn)(void *ctx, const struct f2_gc_block *b), void *ctx)
{
	struct f2_summary_block *sum;
	struct f2_gc_cache *c;
	int r = 0;

	if (secno >= m->nsecs)
		return f2_fs_fail(fs, F2_ERANGE, "section %u beyond the %u sections", secno, m->nsecs);
	sum = malloc(sizeof(*sum));
	c = calloc(1, sizeof(*c));
	if (!sum || !c) {
		free(sum);
		free(c);
		return -ENOMEM;
	}
	for (uint32_t i = 0; !r && i < m->segs_per_sec; i++) {
		uint32_t segno = secno * m->segs_per_sec + i;
		struct f2_sit_info si;
		int is_node;

		r = f2_sit_get(fs, segno, &si);
		if (r || !si.vblocks)
			continue;
		r = f2_ssa_read(fs, segno, sum, NULL);
		if (r)
			break;
		is_node = sum->footer.entry_type == F2_SUM_TYPE_NODE;
		for (uint32_t off = 0; !r && off < F2_BLKS_PER_SEG; off++) {
			struct f2_gc_block b;

			if (!f2_test_bit_msb(si.valid_map, off))
				continue;
			r = f2_gc_owner_check(fs, f2_fs_seg_start(fs, segno) + off,
					      &sum->entries[off], is_node, c, &b);
			if (!r)
				r = fn(ctx, &b);
		}
	}
	free(sum);
	free(c);
	return r;
}
