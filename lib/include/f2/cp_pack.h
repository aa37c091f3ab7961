/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/cp_pack.h - the checkpoint writer: one pack, written so that the other
 * pack stays the valid one until this one is complete.
 *
 * The caller describes the checkpoint (its head block with every counter,
 * the current segments and version bitmaps set; the payload blocks; the
 * summaries of the six current segments; the NAT and SIT journals;
 * orphans; optional nat_bits).  f2_cp_write() decides compacted or normal
 * data summaries as the kernel does, sets the pack layout fields
 * (cp_pack_start_sum, cp_pack_total_block_count, the COMPACT_SUM,
 * ORPHAN_PRESENT and NAT_BITS flags) and the crc, writes the body, flushes,
 * then writes the head and the tail and flushes again.  Every checkpoint
 * goes through it: the engine's f2_engine_checkpoint(), mkfs's first
 * packs (lib/mkfs/format.c) and fsck.f2fs's counter repair
 * (fsck/repair_cp.c).
 */
#ifndef F2_CP_PACK_H
#define F2_CP_PACK_H
#include <stddef.h>
#include <stdint.h>
#include "f2/format.h"

struct f2_io;
struct f2_fs;

struct f2_cp_image {
	uint8_t *head;			/* cp block followed by payload blocks;
					 * updated in place (layout, flags, crc) */
	uint32_t payload;		/* cp_payload of the superblock */
	uint64_t start;			/* first block of the pack */
	const uint32_t *orphans;
	size_t norphans;
	/* current segments by enum f2_curseg: entries used up to blkoff
	 * (every one in a data log the head marks F2_SSR) */
	const struct f2_summary_block *sum[F2_NR_CURSEG];
	uint16_t blkoff[F2_NR_CURSEG];
	const struct f2_journal *nat_journal, *sit_journal;
	uint8_t *nat_bits;		/* nat_bits_blocks blocks or NULL; the
					 * header is set here */
	uint32_t nat_bits_blocks;
	int node_sums;			/* write node summaries (unmount) */
	int compact;			/* -1: decide; 0 never; 1 when they fit */
};

/* nat_bits (a le64 header, then one "full" and one "empty" bit per NAT
 * block) sit in the last blocks of the pack's segment: how many blocks
 * for fs's NAT, and their bits computed from fs's NAT as the read path
 * sees it (journal first; nid 0 counts in use), the header left alone
 * (f2_cp_write() sets it).  Both in engine/nat.c. */
uint32_t f2_nat_bits_blocks(const struct f2_fs *fs);
int f2_nat_bits_build(struct f2_fs *fs, uint8_t *nat_bits);

/* Blocks the pack takes (head .. tail) for ci as it would be written. */
uint32_t f2_cp_pack_blocks(const struct f2_cp_image *ci);
/* Write the pack; returns 0 or a negative code. */
int f2_cp_write(struct f2_io *io, struct f2_cp_image *ci);
#endif
