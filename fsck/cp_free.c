// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp_free.c - how many segments short of the SIT's free count the
 * checkpoint's free_segment_count may be without anything being wrong.
 *
 * The kernel counts a segment free once it has no valid block and is not
 * a current segment: its checkpoint frees the segments emptied since the
 * last one (the prefree ones) while it writes the SIT, before it stores
 * the count (f2fs_flush_sit_entries ends in set_prefree_as_free_segments,
 * then do_checkpoint reads free_segments(); Linux 6.1 and 6.12 alike).
 * So the count is exact, with one exception: with checkpointing disabled
 * (mount -o checkpoint=disable), a segment emptied after that began is
 * kept out of the prefree list (locate_dirty_segment) and stays in use;
 * the checkpoint that disables checkpointing (CP_DISABLED set) counts it
 * short.  Such a segment was emptied since the previous checkpoint, so
 * this checkpoint wrote its SIT entry: into the SIT journal, or into a SIT
 * block whose version bit then flipped (an entry leaves the journal only
 * that way).  The bound is the free segments whose entries it may have
 * written: in its SIT journal, or in a SIT block whose bit differs from
 * the previous pack's (valid, version one less); without that pack,
 * every free segment.
 */
#include <stdlib.h>
#include "f2/bitmap.h"
#include "fsck.h"

static int in_journal(const struct f2_fs *fs, uint32_t segno)
{
	for (uint32_t i = 0; i < fs->sit_journal_n; i++)
		if (f2_le32(fs->sit_journal.sit.entries[i].segno) == segno)
			return 1;
	return 0;
}

/* The pack before the one in use, when it is the kernel's previous
 * checkpoint; NULL otherwise. */
static struct f2_fs *previous_cp(const struct f2_fs *fs)
{
	struct f2_fs_opts o = { .force_pack = 2 - fs->cp_pack };
	struct f2_fs *prev = NULL;

	if (f2_fs_open_io(fs->io, &o, &prev) || prev->cp_ver + 1 != fs->cp_ver ||
	    prev->sit_bitmap_bytes != fs->sit_bitmap_bytes) {
		f2_fs_close(prev);
		return NULL;
	}
	return prev;
}

/* Version bit of SIT block blk in fs's checkpoint. */
static int sit_bit(const struct f2_fs *fs, uint32_t blk)
{
	return fs->sit_bitmap && f2_test_bit_msb(fs->sit_bitmap, blk);
}

uint32_t fsck_cp_free_slack(const struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs, *prev;
	uint32_t n = 0;

	if (!(fs->cp_flags & F2_CP_DISABLED))
		return 0;
	prev = previous_cp(fs);
	for (uint32_t s = 0; s < fs->main_segs; s++) {
		uint32_t blk = s / (uint32_t)F2_SIT_ENTRIES_PER_BLOCK;

		if (fsck_seg_free(ctx, s) &&
		    (!prev || in_journal(fs, s) || sit_bit(fs, blk) != sit_bit(prev, blk)))
			n++;
	}
	f2_fs_close(prev);
	return n;
}
