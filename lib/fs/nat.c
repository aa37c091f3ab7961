// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nat.c - node address table: lookup of one nid (checkpoint journal
 * first, then the NAT copy selected by the version bitmap) and a walk over
 * every used entry, one NAT block in memory at a time.
 */
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/fs.h"

uint64_t f2_nat_area_addr(uint64_t nat_blkaddr, uint32_t blk_off, int second)
{
	/* the copies alternate by segment: pairs of segments, first then second */
	return nat_blkaddr +
	       ((uint64_t)(blk_off >> F2_LOG_BLKS_PER_SEG) << (F2_LOG_BLKS_PER_SEG + 1)) +
	       (blk_off & (F2_BLKS_PER_SEG - 1)) + (second ? F2_BLKS_PER_SEG : 0);
}

uint64_t f2_nat_copy_addr(const struct f2_fs *fs, uint32_t blk_off, int second)
{
	return f2_nat_area_addr(fs->nat_blkaddr, blk_off, second);
}

uint64_t f2_nat_block_addr(const struct f2_fs *fs, uint32_t blk_off)
{
	return f2_nat_copy_addr(fs, blk_off,
				fs->nat_bitmap && f2_test_bit_msb(fs->nat_bitmap, blk_off));
}

static void fill(struct f2_nat_info *ni, uint32_t nid, const struct f2_nat_entry *e, int j)
{
	ni->nid = nid;
	ni->ino = f2_le32(e->ino);
	ni->blkaddr = f2_le32(e->block_addr);
	ni->version = e->version;
	ni->in_journal = j;
}

/* Index of nid in the NAT journal or -1. */
static int journal_find(const struct f2_fs *fs, uint32_t nid)
{
	for (uint32_t i = 0; i < fs->nat_journal_n; i++)
		if (f2_le32(fs->nat_journal.nat.entries[i].nid) == nid)
			return (int)i;
	return -1;
}

static int nat_block(struct f2_fs *fs, uint32_t blk_off, const struct f2_nat_block **out)
{
	uint64_t addr = f2_nat_block_addr(fs, blk_off);
	int err;

	if (addr != fs->nat_cache_addr) {
		fs->nat_cache_addr = UINT64_MAX;
		err = f2_fs_read_block(fs, addr, fs->nat_cache);
		if (err)
			return err;
		fs->nat_cache_addr = addr;
	}
	*out = (const struct f2_nat_block *)fs->nat_cache;
	return 0;
}

int f2_nat_lookup(struct f2_fs *fs, uint32_t nid, struct f2_nat_info *ni)
{
	const struct f2_nat_block *nb;
	int j, err;

	if (nid >= fs->max_nid)
		return f2_fs_fail(fs, F2_ERANGE, "nid %u beyond the NAT (max %u)", nid, fs->max_nid);
	j = journal_find(fs, nid);
	if (j >= 0) {
		fill(ni, nid, &fs->nat_journal.nat.entries[j].ne, 1);
		return 0;
	}
	err = nat_block(fs, nid / F2_NAT_ENTRIES_PER_BLOCK, &nb);
	if (err)
		return err;
	fill(ni, nid, &nb->entries[nid % F2_NAT_ENTRIES_PER_BLOCK], 0);
	return 0;
}

int f2_nat_iter(struct f2_fs *fs, int (*fn)(void *ctx, const struct f2_nat_info *ni),
		void *ctx)
{
	static const uint8_t zero[F2_BLKSIZE];
	uint32_t nblocks = fs->max_nid / F2_NAT_ENTRIES_PER_BLOCK;

	for (uint32_t b = 0; b < nblocks; b++) {
		const struct f2_nat_block *cached;
		struct f2_nat_block nb_copy, *nb = &nb_copy;
		uint32_t first = b * F2_NAT_ENTRIES_PER_BLOCK;
		int err = nat_block(fs, b, &cached), has_j = 0;

		if (err)
			return err;
		/* a copy: fn's own lookups reuse fs's one-block cache */
		memcpy(nb, cached, sizeof(*nb));
		for (uint32_t i = 0; i < fs->nat_journal_n; i++) {
			uint32_t n = f2_le32(fs->nat_journal.nat.entries[i].nid);

			if (n >= first && n < first + F2_NAT_ENTRIES_PER_BLOCK)
				has_j = 1;
		}
		if (!has_j && !memcmp(nb, zero, sizeof(*nb)))
			continue;
		for (uint32_t i = 0; i < F2_NAT_ENTRIES_PER_BLOCK; i++) {
			struct f2_nat_info ni;
			uint32_t nid = first + i;
			int j = has_j ? journal_find(fs, nid) : -1;
			int r;

			if (j >= 0)
				fill(&ni, nid, &fs->nat_journal.nat.entries[j].ne, 1);
			else
				fill(&ni, nid, &nb->entries[i], 0);
			if (!ni.ino && !ni.blkaddr)
				continue;
			r = fn(ctx, &ni);
			if (r)
				return r;
		}
	}
	return 0;
}
