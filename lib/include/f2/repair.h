/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/repair.h - write-engine primitives for a checker's repairs
 * (fsck.f2fs).  They change the engine's in-memory view (SIT entries,
 * free segments, NAT entries, counters, cached nodes and directory
 * blocks) without the bookkeeping the namespace calls do, because the
 * caller has already worked out, by walking the whole file system, what
 * the result must be.  Nothing reaches the disk but through the engine:
 * new blocks go to free space, tables to the journals or the other
 * copies, and f2_engine_checkpoint() commits everything at once.
 *
 * Call order matters: correct every segment (f2_engine_repair_seg) and the
 * current segments (f2_engine_repair_cursegs) before anything allocates, so
 * the engine never writes over a block the walk found in use.
 */
#ifndef F2_REPAIR_H
#define F2_REPAIR_H
#include <stdint.h>
#include "f2/engine.h"
#include "f2/format.h"

/* Set segment segno's valid map (F2_SIT_VBLOCK_MAP_SIZE bytes, msb first
 * as on disk) and count; type < 0 keeps the type (an invalid one becomes
 * hot data).  A segment that gains blocks leaves the free map; one that
 * loses all of them becomes free after the next checkpoint. */
int f2_engine_repair_seg(struct f2_engine *w, uint32_t segno, const uint8_t *map, int type);
/* The next checkpoint writes the SIT entries it holds (those changed and
 * those in the journal) to the SIT blocks and leaves the journal empty:
 * Linux validates every entry of the SIT blocks at mount, including one
 * the journal overrides, so a bad block entry must be rewritten there.
 * f2_engine_repair_seg() implies it. */
void f2_engine_repair_sit_blocks(struct f2_engine *w);
/* Current segments: the SIT type of each is its log's; a log whose
 * segment has valid blocks at or past its write pointer moves on to a
 * new segment. */
int f2_engine_repair_cursegs(struct f2_engine *w);
/* The engine's counters, as found by the caller. */
void f2_engine_repair_counts(struct f2_engine *w, uint64_t blocks, uint32_t nodes, uint32_t inodes);
/* Room for n NAT changes (a hint for a rebuild of the whole NAT). */
int f2_engine_repair_expect_nat(struct f2_engine *w, size_t n);
/* Set NAT entry nid (blkaddr F2_NULL_ADDR frees it, ino kept 0), with no
 * change to counters or the SIT. */
int f2_engine_repair_nat(struct f2_engine *w, uint32_t nid, uint32_t ino, uint32_t blkaddr);
/* Node nid (owner ino in the NAT, node offset ofs) into the cache, its
 * footer set to nid/ino/ofs whatever it said, and marked to be rewritten
 * (new block, SSA entry, inode checksum).  *out points into the cache
 * until the next call that may write back. */
int f2_engine_repair_node(struct f2_engine *w, uint32_t nid, uint32_t ino, uint32_t ofs,
		       struct f2_node **out);
/* Rewrite file block fofs of ino in a new place (log of its kind),
 * with a new SSA entry. */
int f2_engine_repair_move(struct f2_engine *w, uint32_t ino, uint64_t fofs, int is_dir);
/* Set the summary entry of main-area block blkaddr to (nid, ofs, ver),
 * or segment segno's summary type (node or data), where the kernel reads
 * it: the engine's copy for a current segment, else the SSA block, which
 * is written at once (the entry is true before the checkpoint as after). */
int f2_engine_repair_sum(struct f2_engine *w, uint32_t blkaddr, uint32_t nid, uint16_t ofs,
			 uint8_t ver);
int f2_engine_repair_sum_type(struct f2_engine *w, uint32_t segno, int node);

/* Every used slot of directory dir (inline area or every block up to
 * i_size): fn may change the entry, its name slots or the bitmap and
 * returns 1 when it did (the block is then rewritten), 0, or < 0 to stop.
 * bidx is UINT64_MAX for inline dentries. */
struct f2_repair_slot {
	uint64_t bidx;
	uint32_t slot, nr;		/* slot index, slots in the area */
	uint8_t *bitmap;		/* lsb-first bits of the area */
	struct f2_dir_entry *de;	/* de[slot] is this entry */
	uint8_t (*names)[F2_SLOT_LEN];
};
int f2_engine_repair_dir_iter(struct f2_engine *w, uint32_t dir,
			   int (*fn)(void *arg, struct f2_repair_slot *s), void *arg);
/* Add name -> ino (type) to dir without changing any link count. */
int f2_engine_repair_dir_add(struct f2_engine *w, uint32_t dir, const uint8_t *name, size_t len,
			  uint32_t ino, uint8_t type);
/* Reset a reserved NAT entry: nid 0 free, the node and meta inodes'
 * (F2_NODE_INO, F2_META_INO) owned by themselves at block 1, as mkfs
 * writes them. */
/* A new, empty root directory at nid root (links 2, "." and ".." naming
 * itself in a dentry block, as the driver wants a root) from a (mode,
 * owner, times), in place of whatever node the NAT named: call it after
 * the counts are set (it adds its node and inode). */
int f2_engine_repair_root(struct f2_engine *w, uint32_t root, const struct f2_wattr *a);
int f2_engine_repair_nat_reserved(struct f2_engine *w, uint32_t nid);
/* Set the checkpoint's user_block_count. */
void f2_engine_repair_user_blocks(struct f2_engine *w, uint64_t blocks);
/* Set the checkpoint's rsvd_segment_count and overprov_segment_count. */
void f2_engine_repair_reserve(struct f2_engine *w, uint32_t rsvd, uint32_t ovp);
/* Log t shares its segment with another log: give it a fresh segment
 * without writing a summary for the shared one (it is the other log's,
 * which takes its own summary from the checkpoint). */
int f2_engine_repair_curseg_move(struct f2_engine *w, int t);
/* Recompute nat_bits (when the checkpoint keeps them) from the NAT on
 * disk: call it before any NAT change (later ones update their blocks). */
int f2_engine_repair_nat_bits(struct f2_engine *w);
#endif
