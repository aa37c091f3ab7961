/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rescue/internal.h - the scan's tables, shared by scan.c and rebuild.c.
 */
#ifndef F2_RESCUE_INTERNAL_H
#define F2_RESCUE_INTERNAL_H
#include <stdint.h>
#include <stddef.h>
#include "f2/fs.h"
#include "f2/rescue.h"

/* The newest version of one nid (blkaddr 0: none seen). */
struct rs_node {
	uint32_t blkaddr, ino, ver, ofs;
	uint32_t parent;	/* the node that names it at its offset, or 0 */
	uint16_t mode;		/* inodes */
	uint8_t flag;		/* footer marks (F2_FOOTER_COLD ...) */
	uint8_t kept;		/* hangs from its inode */
	uint8_t dead;		/* an inode with no links left, or left out */
	uint8_t reached;	/* an inode a directory reached from the root names */
};

/* A data address of a chosen node (F2_NEW_ADDR or inside main); src:
 * the block of the node version that names it (the scan drops the
 * addresses of versions it did not choose). */
struct rs_data {
	uint32_t blkaddr, nid, src;
};

/* A node version at block src names child at node offset ofs. */
struct rs_link {
	uint32_t parent, src, child, ofs;
};

struct f2_rescue {
	struct f2_fs *fs;
	struct f2_rescue_opts o;
	struct rs_node *n;		/* max_nid entries */
	struct f2_inode_ref *ir;	/* scratch */
	struct rs_data *data;
	size_t ndata, cap_data;
	struct rs_link *links;		/* the scan's, freed once resolved */
	size_t nlinks, cap_links;
	uint8_t *used;			/* main blocks in use, lsb order */
	uint8_t *segtype;		/* per main segment: enum f2_curseg, 0xff empty */
	uint64_t blocks_read, node_blocks, data_blocks, reserved;
	uint32_t nids, nodes, inodes, files, dirs, others, dropped;
	uint32_t unnamed, stale_inodes;	/* inodes no directory names: kept, left out */
	uint32_t top_nid;		/* one past the highest kept nid */
	uint32_t seen_end;		/* one past the highest nid with a version:
					 * loops stop there (the rest of n[] is
					 * never touched: no page faults) */
	uint64_t max_ver;
};
/* Mark the kept inodes the directories name from the root (reach.c). */
int rs_reach(struct f2_rescue *r);
#endif
