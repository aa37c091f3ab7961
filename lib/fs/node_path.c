// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node_path.c - the shape of an inode's node tree (f2/node.h): the path
 * from the inode to the slot holding a file block's address, the node
 * offset of every node on it, the direct-node test and the first file
 * block of a node.  The read path, the write engine, repair, fsck and
 * dump all take these rules from here.
 */
#include <string.h>
#include "f2/errors.h"
#include "f2/node.h"

#define N	F2_NIDS_PER_BLOCK

enum kind { K_INODE, K_DIRECT, K_INDIRECT, K_XATTR };

/*
 * What sits at node offset ofs; for a direct node *idx gets its rank among
 * the inode's direct nodes (0 for i_nid[0]'s).  Offsets past the tree are
 * classified by the same arithmetic (the kernel's test does not bound
 * them); callers that need a real node check idx.
 */
static enum kind locate(uint32_t ofs, uint64_t *idx)
{
	uint64_t rel;

	*idx = 0;
	if (ofs == 0)
		return K_INODE;
	if (ofs == F2_NODE_OFS_XATTR)
		return K_XATTR;
	if (ofs <= 2) {
		*idx = ofs - 1;
		return K_DIRECT;
	}
	if (ofs < F2_NODE_OFS_DIND) {
		/* two single-indirect subtrees of N + 1 nodes each, from 3 */
		rel = ofs - 3;
		if (rel % (N + 1) == 0)
			return K_INDIRECT;
		*idx = 2 + rel / (N + 1) * N + rel % (N + 1) - 1;
		return K_DIRECT;
	}
	if (ofs == F2_NODE_OFS_DIND)
		return K_INDIRECT;
	/* under the double-indirect node: subtrees of N + 1 nodes, each an
	 * indirect node followed by its N direct nodes */
	rel = ofs - F2_NODE_OFS_DIND - 1;
	if (rel % (N + 1) == 0)
		return K_INDIRECT;
	*idx = 2 + 2 * (uint64_t)N + rel / (N + 1) * N + rel % (N + 1) - 1;
	return K_DIRECT;
}

/* Direct nodes in a full tree: 2, N under each single indirect, N * N
 * under the double indirect. */
static uint64_t direct_nodes(void)
{
	return 2 + 2 * (uint64_t)N + (uint64_t)N * N;
}

int f2_node_is_dnode(uint32_t ofs)
{
	uint64_t idx;

	return locate(ofs, &idx) != K_INDIRECT;
}

int64_t f2_node_start_bidx(uint32_t ofs, uint32_t iaddrs, uint32_t baddrs)
{
	uint64_t idx;

	switch (locate(ofs, &idx)) {
	case K_INODE:
		return 0;
	case K_DIRECT:
		if (idx >= direct_nodes())
			return -1;
		return (int64_t)(iaddrs + idx * baddrs);
	default:
		return -1;
	}
}

int64_t f2_node_first_bidx(uint32_t ofs, uint32_t iaddrs, uint32_t baddrs)
{
	uint64_t idx;

	/* pre-order numbering: an indirect node's first child follows it */
	while (ofs != F2_NODE_OFS_XATTR && locate(ofs, &idx) == K_INDIRECT)
		ofs++;
	return f2_node_start_bidx(ofs, iaddrs, baddrs);
}

uint32_t f2_node_top_ofs(unsigned slot)
{
	static const uint32_t top[F2_NIDS_PER_INODE] = {
		1, 2, 3, 4 + N, F2_NODE_OFS_DIND
	};

	return slot < F2_NIDS_PER_INODE ? top[slot] : 0;
}

uint32_t f2_node_child_ofs(uint32_t parent, uint32_t i)
{
	/* the double-indirect node's children each head a subtree of N + 1 */
	if (parent == F2_NODE_OFS_DIND)
		return parent + 1 + i * (N + 1);
	return parent + 1 + i;
}

/* File blocks under the node i_nid[slot] names. */
static uint64_t top_span(unsigned slot, uint64_t baddrs)
{
	if (slot <= F2_NODE_DIR2_BLOCK)
		return baddrs;
	if (slot <= F2_NODE_IND2_BLOCK)
		return baddrs * N;
	return baddrs * N * N;
}

uint64_t f2_node_max_blocks(uint32_t iaddrs, uint32_t baddrs)
{
	uint64_t n = iaddrs;

	for (unsigned s = 0; s < F2_NIDS_PER_INODE; s++)
		n += top_span(s, baddrs);
	return n;
}

int f2_node_path(uint64_t bidx, uint32_t iaddrs, uint32_t baddrs, struct f2_node_path *p)
{
	uint64_t b = bidx, base, span = 0;
	unsigned slot;
	int k;

	memset(p, 0, sizeof(*p));
	if (b < iaddrs) {
		p->ofs[0] = (uint32_t)b;
		return 0;
	}
	if (!baddrs)
		return F2_ERANGE;
	b -= iaddrs;
	base = iaddrs;
	for (slot = 0; slot < F2_NIDS_PER_INODE; slot++) {
		span = top_span(slot, baddrs);
		if (b < span)
			break;
		b -= span;
		base += span;
	}
	if (slot == F2_NIDS_PER_INODE)
		return F2_ERANGE;
	p->depth = slot <= F2_NODE_DIR2_BLOCK ? 1 : slot <= F2_NODE_IND2_BLOCK ? 2 : 3;
	p->ofs[0] = slot;
	p->nofs[1] = f2_node_top_ofs(slot);
	p->end[1] = base + span;
	/* b is now relative to the level-k node's first block */
	for (k = 1; k < p->depth; k++) {
		uint64_t child = span / N;
		uint32_t i = (uint32_t)(b / child);

		p->ofs[k] = i;
		b -= i * child;
		base += i * child;
		span = child;
		p->nofs[k + 1] = f2_node_child_ofs(p->nofs[k], i);
		p->end[k + 1] = base + span;
	}
	p->ofs[p->depth] = (uint32_t)b;
	return p->depth;
}
