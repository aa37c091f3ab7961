/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/resize.h - growing and shrinking an unmounted volume (resize.f2fs).
 *
 * By default a resize relocates the metadata areas (checkpoint, SIT, NAT,
 * SSA): the areas mkfs lays out for the new size are written where the
 * old superblock reads nothing, and the superblock, written last, names
 * them, so each superblock names its own checkpoint and every power cut
 * leaves the old volume or the new one.  Where the new areas go: where
 * mkfs puts them (segment0 at mkfs's address) when they end before the
 * old areas begin (after an earlier relocation), the main area then
 * taking in the old areas; otherwise into the first sections of the main
 * area, emptied first, the old areas becoming unused.  Block addresses do
 * not change; SIT entries and SSA blocks, relative to the main area, are
 * renumbered in the copies.  Every valid block outside the new main area
 * (past a new end, or where the new areas go) is moved into it by the
 * cleaner's range move, committed by a checkpoint of the old volume.
 * The NAT keeps its size when the nids in use do not fit mkfs's smaller
 * one; the resize is then done in place, as below.
 *
 * In place (safe set, zoned and multi-device volumes): the areas stay
 * where they are and only the main area and the counts that follow from
 * its size change.  Shrink moves the blocks past the new end, commits a
 * checkpoint for the smaller main area, then the superblock; grow writes
 * the superblock first, then a checkpoint for the larger main area (only
 * as far as the SIT and SSA address: safe clamps there).  The state
 * between the two commits is the old volume (shrink) or the new one
 * (grow) with a checkpoint whose free_segment_count is short: the kernel
 * never reads that count, and fsck.f2fs only notes it (no in-place order
 * avoids that state: tests/resize/crash.bats says why).
 *
 * A zoned volume shrinks in place by whole zones (sections): the moves
 * write at the zones' write pointers (the engine's zoned logs), and
 * before the checkpoint of the smaller main area every free section's
 * zone, the cut ones among them, is reset (free in the committed
 * checkpoint, so nothing references their blocks).  It does not grow.
 */
#ifndef F2_RESIZE_H
#define F2_RESIZE_H
#include <stddef.h>
#include <stdint.h>
#include "f2/fs.h"

struct f2_resize_opts {
	uint64_t target_blocks;	/* new size in 4 KiB blocks */
	double overprovision;	/* percent; 0: the ratio mkfs picks */
	int safe;		/* keep the areas: grow only as far as they address */
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
	/* relocated metadata areas (the default) */
	int relocate;
	int home;			/* the areas where mkfs puts them */
	uint32_t shift;			/* old main segments that become metadata */
	int32_t delta;			/* new main start - old, in segments */
	uint32_t keep_lo, keep_hi;	/* old segnos inside the new main area */
	uint32_t meta_segs;		/* checkpoint, SIT, NAT, SSA segments */
	uint32_t seg0, sit_segs, nat_segs, ssa_segs;	/* the new areas */
	uint32_t cp_payload, sit_bitmap_bytes, nat_bitmap_bytes;
	const char *in_place;		/* why not relocated (NULL: relocated
					 * or safe) */
	double ratio;			/* overprovision percent for the new size */
	uint32_t rsvd, ovp;		/* checkpoint counts for the new size */
	uint64_t user_blocks;		/* user_block_count for the new size */
	uint64_t valid_blocks;		/* the checkpoint's valid_block_count */
	/* what lies outside the new main area (past the new end; where
	 * relocated areas go) */
	uint32_t tail_secs_used;	/* sections there with valid blocks */
	uint32_t tail_cursegs;		/* current segments there */
	uint64_t move_data, move_node;	/* blocks whose owner points at them */
	uint64_t stale;			/* valid in the SIT, owner moved on */
	uint64_t bad;			/* owner unreadable: refused */
	uint32_t free_head_secs;	/* free sections inside the new main area */
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
