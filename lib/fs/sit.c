// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sit.c - segment information table (journal first, then the SIT copy
 * selected by the version bitmap) and segment summary blocks (the
 * checkpoint's copy for current segments, else the SSA area).
 */
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/fs.h"

uint64_t f2_sit_copy_addr(const struct f2_fs *fs, uint32_t blk_off, int second)
{
	return (uint64_t)fs->sit_blkaddr + blk_off + (second ? fs->sit_blocks : 0);
}

uint64_t f2_sit_block_addr(const struct f2_fs *fs, uint32_t blk_off)
{
	return f2_sit_copy_addr(fs, blk_off,
				fs->sit_bitmap && f2_test_bit_msb(fs->sit_bitmap, blk_off));
}

static void fill(struct f2_sit_info *si, uint32_t segno, const struct f2_sit_entry *e, int j)
{
	uint16_t v = f2_le16(e->vblocks);

	si->segno = segno;
	si->vblocks = v & F2_SIT_VBLOCKS_MASK;
	si->type = (uint8_t)(v >> F2_SIT_VBLOCKS_SHIFT);
	memcpy(si->valid_map, e->valid_map, sizeof(si->valid_map));
	si->mtime = f2_le64(e->mtime);
	si->in_journal = j;
}

static int journal_find(const struct f2_fs *fs, uint32_t segno)
{
	for (uint32_t i = 0; i < fs->sit_journal_n; i++)
		if (f2_le32(fs->sit_journal.sit.entries[i].segno) == segno)
			return (int)i;
	return -1;
}

static int sit_block(struct f2_fs *fs, uint32_t blk_off, const struct f2_sit_block **out)
{
	uint64_t addr = f2_sit_block_addr(fs, blk_off);
	int err;

	if (addr != fs->sit_cache_addr) {
		fs->sit_cache_addr = UINT64_MAX;
		err = f2_fs_read_block(fs, addr, fs->sit_cache);
		if (err)
			return err;
		fs->sit_cache_addr = addr;
	}
	*out = (const struct f2_sit_block *)fs->sit_cache;
	return 0;
}

int f2_sit_block_get(struct f2_fs *fs, uint32_t segno, struct f2_sit_info *si)
{
	const struct f2_sit_block *sb;
	int err;

	if (segno >= fs->main_segs)
		return f2_fs_fail(fs, F2_ERANGE, "segment %u beyond the main area (%u segments)",
				  segno, fs->main_segs);
	err = sit_block(fs, segno / F2_SIT_ENTRIES_PER_BLOCK, &sb);
	if (err)
		return err;
	fill(si, segno, &sb->entries[segno % F2_SIT_ENTRIES_PER_BLOCK], 0);
	return 0;
}

int f2_sit_get(struct f2_fs *fs, uint32_t segno, struct f2_sit_info *si)
{
	int j;

	if (segno >= fs->main_segs)
		return f2_fs_fail(fs, F2_ERANGE, "segment %u beyond the main area (%u segments)",
				  segno, fs->main_segs);
	j = journal_find(fs, segno);
	if (j < 0)
		return f2_sit_block_get(fs, segno, si);
	fill(si, segno, &fs->sit_journal.sit.entries[j].se, 1);
	return 0;
}

int f2_sit_iter(struct f2_fs *fs, int (*fn)(void *ctx, const struct f2_sit_info *si),
		void *ctx)
{
	for (uint32_t s = 0; s < fs->main_segs; s++) {
		struct f2_sit_info si;
		int r = f2_sit_get(fs, s, &si);

		if (r)
			return r;
		r = fn(ctx, &si);
		if (r)
			return r;
	}
	return 0;
}

int f2_curseg_of(const struct f2_fs *fs, uint32_t segno)
{
	if (!fs->cp)
		return -1;
	for (int i = 0; i < F2_NR_CURSEG; i++) {
		/* a read-only volume (feature ro) has two logs, hot data
		 * and hot node; Linux ignores where the others point */
		if ((fs->features & F2_FEAT_RO) && i != F2_CURSEG_HOT_DATA &&
		    i != F2_CURSEG_HOT_NODE)
			continue;
		if (fs->curseg[i].segno == segno)
			return i;
	}
	return -1;
}

int f2_ssa_read(struct f2_fs *fs, uint32_t segno, struct f2_summary_block *sum,
		int *from_cp)
{
	int c = f2_curseg_of(fs, segno);

	if (segno >= fs->main_segs)
		return f2_fs_fail(fs, F2_ERANGE, "segment %u beyond the main area (%u segments)",
				  segno, fs->main_segs);
	if (c >= 0 && fs->curseg[c].have_sum) {
		*sum = fs->curseg[c].sum;
		if (c >= F2_CURSEG_HOT_NODE)
			sum->footer.entry_type = F2_SUM_TYPE_NODE;
		if (from_cp)
			*from_cp = 1;
		return 0;
	}
	if (from_cp)
		*from_cp = 0;
	if (fs->features & F2_FEAT_RO)
		return f2_fs_fail(fs, F2_EUNSUPP, "segment %u: a read-only volume (feature ro) "
				  "has no SSA", segno);
	return f2_fs_read_block(fs, (uint64_t)fs->ssa_blkaddr + segno, sum);
}
