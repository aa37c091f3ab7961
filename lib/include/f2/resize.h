/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/resize.h - growing and shrinking an unmounted volume (resize.f2fs).
 *
 * The metadata areas (checkpoint, SIT, NAT, SSA) stay where they are: only
 * the main area and the counts that follow from its size change.  Shrink
 * moves every valid block out of the sections past the new end (the
 * cleaner's range move, committed by a checkpoint), then commits a
 * checkpoint for the smaller main area, then the superblock.  Grow writes
 * the superblock first, then a checkpoint for the larger main area.  In
 * both orders the state between the two commits is the old volume (shrink)
 * or the new one (grow) with a checkpoint whose free_segment_count is
 * short: the kernel never reads that count, and fsck.f2fs only notes it
 * (no in-place order avoids that state: tests/resize/crash.bats says why).
 *
 * A zoned volume shrinks the same way, by whole zones (sections): the
 * moves write at the zones' write pointers (the engine's zoned logs), and
 * before the checkpoint of the smaller main area every free section's
 * zone, the cut ones among them, is reset (free in the committed
 * checkpoint, so nothing references their blocks).  It does not grow.
 *
 * A grow past what the existing areas address (one SSA block and one SIT
 * entry per main segment) relocates them: the areas mkfs would lay out
 * for the new size are written, with a new checkpoint, into the first
 * sections of the main area (emptied by the cleaner's range move and a
 * checkpoint first), and the superblock, written last, names them: it
 * then starts the volume there (segment0 moves up; the old areas become
 * unused), so the new superblock and the new checkpoint come into effect
 * together, while the old superblock still names the old checkpoint.
 * Block addresses do not change; SIT entries and SSA blocks, relative to
 * the main area, are renumbered in the copies.  With safe set the areas
 * stay and the grow stops at what they address.
 */
#ifndef F2_RESIZE_H
#define F2_RESIZE_H
#include <stddef.h>
#include <stdint.h>
#include "f2/fs.h"

struct f2_resize_opts {
	uint64_t target_blocks;	/* new size in 4 KiB blocks */
	double overprovision;	/* percent; 0: the ratio mkfs picks */
	int safe;		/* grow only as far as the areas address */
};

enum f2_resize_kind { F2_RESIZE_NONE = 0, F2_RESIZE_SHRINK = 1, F2_RESIZE_GROW = 2 };

struct f2_resize_plan {
	int kind;			/* enum f2_resize_kind */
	uint64_t old_blocks, new_blocks;	/* superblock block_count */
	uint32_t old_main, new_main;	/* main-area segments */
	uint32_t old_secs, new_secs;	/* sections */
	uint32_t new_segment_count;	/* all segments from segment0 */
	uint32_t max_main;		/* main segments the SIT and SSA address */
	int clamped;			/* safe grow stopped at max_main */
	/* a grow that relocates the metadata areas (grow past max_main) */
	int relocate;
	uint32_t shift;			/* main segments that become metadata */
	uint32_t seg0, sit_segs, nat_segs, ssa_segs;	/* the new areas */
	uint32_t cp_payload, sit_bitmap_bytes, nat_bitmap_bytes;
	double ratio;			/* overprovision percent for the new size */
	uint32_t rsvd, ovp;		/* checkpoint counts for the new size */
	uint64_t user_blocks;		/* user_block_count for the new size */
	uint64_t valid_blocks;		/* the checkpoint's valid_block_count */
	/* shrink: what lies past the new end */
	uint32_t tail_secs_used;	/* sections there with valid blocks */
	uint32_t tail_cursegs;		/* current segments there */
	uint64_t move_data, move_node;	/* blocks whose owner points at them */
	uint64_t stale;			/* valid in the SIT, owner moved on */
	uint64_t bad;			/* owner unreadable: refused */
	uint32_t free_head_secs;	/* free sections below the new end */
	uint32_t need_secs;		/* free sections the move needs there */
};

/*
 * Plan resizing fs (opened read-only or read-write, with a checkpoint) to
 * o->target_blocks.  0 with p filled (kind NONE when the main area would
 * not change), or a negative code with the reason in why: F2_ENOSPC when
 * the data does not fit the new size (the numbers named), F2_EUNSUPP for
 * volumes or sizes not handled, F2_ETOOSMALL / F2_ETOOBIG for sizes no
 * volume can have.  Reads the SIT and, for a shrink, the owner of every
 * valid block past the new end.
 */
int f2_resize_plan(struct f2_fs *fs, const struct f2_resize_opts *o, struct f2_resize_plan *p,
		   char *why, size_t len);

struct f2_resize_stats {
	uint64_t data_moved, node_moved, nodes_dirtied, skipped;
	uint32_t checkpoints;		/* checkpoints committed */
	uint64_t zones_reset;		/* zoned volume: zones of freed sections reset */
};

/*
 * Carry out plan p on fs (opened read-write on io by f2_fs_open_rw() from
 * path, its first device: a zoned volume's zones are opened from there,
 * f2_engine_open_zoned; the plan made on it).  fs must not be used
 * afterwards but closed (its geometry is the old one).  0, or a negative
 * code with why filled; a failure leaves the old or the new volume on disk.
 */
int f2_resize_run(struct f2_io *io, struct f2_fs *fs, const char *path,
		  const struct f2_resize_plan *p, struct f2_resize_stats *st, char *why,
		  size_t len);

/*
 * The superblock of fs with the geometry of p (block, segment, section
 * and main-area counts), crc not yet set.
 */
void f2_resize_sb(const struct f2_fs *fs, const struct f2_resize_plan *p, struct f2_super *sb);

/*
 * Write sb over both copies so that a power cut at any point leaves each
 * copy whole (old or new) or without a valid magic: each copy's magic is
 * cleared first (one sector), then the copy written with the magic last
 * (f2_sb_write_copies); primary first.
 */
int f2_resize_sb_commit(struct f2_io *io, struct f2_super *sb);
#endif
