/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/node.h - the shape of an inode's node tree, the one place the
 * kernel's rules live: which node and slot hold the address of a file
 * block, which node offsets are direct nodes, and which file block a
 * direct node starts at.  Arithmetic only, no I/O.
 *
 * A node's footer offset numbers it in tree order (pre-order), with
 * N = F2_NIDS_PER_BLOCK (1018):
 *   0                 the inode
 *   1, 2              the direct nodes of i_nid[0] and i_nid[1]
 *   3                 the indirect node of i_nid[2]; its direct children 4 .. 3+N
 *   4+N               the indirect node of i_nid[3]; its children 5+N .. 4+2N
 *   5+2N              the double-indirect node of i_nid[4]; its child k
 *                     (an indirect node) at 6+2N+k(N+1), followed by
 *                     that node's N direct children
 *   F2_NODE_OFS_XATTR an xattr node (counts as direct for log placement)
 *
 * iaddrs is the number of data addresses in the inode itself (923 less
 * the extra attribute and inline xattr words, cluster-aligned for a
 * compressed file: f2_inode_ref.addrs); baddrs the number per direct node
 * (F2_ADDRS_PER_BLOCK, cluster-aligned for a compressed file).
 */
#ifndef F2_NODE_H
#define F2_NODE_H
#include <stdint.h>
#include "f2/format.h"

#define F2_NODE_OFS_XATTR	(0xFFFFFFFFu >> F2_FOOTER_OFFSET_SHIFT)	/* 0x1fffffff */
#define F2_NODE_OFS_DIND	(5u + 2 * F2_NIDS_PER_BLOCK)		/* 2041 */

/* Where file block bidx's address sits.  Level 0 is the inode, level
 * k (1..depth) the k-th node below it. */
struct f2_node_path {
	int depth;		/* nodes below the inode on the way: 0 to 3 */
	uint32_t ofs[4];	/* ofs[0]: i_addr index (depth 0, past the extra
				 * attributes) or i_nid index; ofs[k]: slot in
				 * the level-k node (nid, or address at depth) */
	uint32_t nofs[4];	/* node offset of the level-k node (nofs[0] = 0) */
	uint64_t end[4];	/* one past the last file block under the level-k
				 * node (k >= 1) */
};

/* Fill *p for file block bidx; returns the depth, or F2_ERANGE when bidx
 * is beyond the tree. */
int f2_node_path(uint64_t bidx, uint32_t iaddrs, uint32_t baddrs, struct f2_node_path *p);
/* 1 when a node at footer offset ofs holds data addresses (the inode,
 * a direct node, an xattr node), 0 for an indirect or double-indirect
 * node: the kernel's test, which picks the node log (cold for indirect). */
int f2_node_is_dnode(uint32_t ofs);
/* First file block addressed by the direct node at offset ofs (0 for the
 * inode), or -1 when ofs is an indirect node, an xattr node or beyond the
 * tree. */
int64_t f2_node_start_bidx(uint32_t ofs, uint32_t iaddrs, uint32_t baddrs);
/* First file block under the node at offset ofs, direct or indirect (its
 * first direct descendant's), or -1 beyond the tree. */
int64_t f2_node_first_bidx(uint32_t ofs, uint32_t iaddrs, uint32_t baddrs);
/* Node offset of the node i_nid[slot] names (slot < F2_NIDS_PER_INODE). */
uint32_t f2_node_top_ofs(unsigned slot);
/* Node offset of child i of the indirect node at offset parent. */
uint32_t f2_node_child_ofs(uint32_t parent, uint32_t i);
/* File blocks the whole tree can address. */
uint64_t f2_node_max_blocks(uint32_t iaddrs, uint32_t baddrs);

#endif /* F2_NODE_H */
