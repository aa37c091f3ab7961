// SPDX-License-Identifier: GPL-2.0-or-later
/* test_dir_place.c - f2_dir_block_place() at the kernel's level boundaries
 * (fs/f2fs/dir.c dir_buckets(), bucket_blocks(), with i_dir_level). */
#include "f2/file.h"
#include "unit.h"

static void at(uint64_t bidx, uint32_t dir_level, uint32_t level, uint64_t bucket, uint64_t nb)
{
	uint32_t l = 99;
	uint64_t b = 99, n = 99;

	CHECK_EQ(f2_dir_block_place(bidx, dir_level, &l, &b, &n), 0);
	CHECK_EQ(l, level);
	CHECK_EQ(b, bucket);
	CHECK_EQ(n, nb);
}

int main(void)
{
	uint64_t start = 0;

	/* dir_level 0: level 0 is one bucket of blocks 0-1, level 1 two
	 * buckets (2-3, 4-5), level 2 four buckets from block 6 */
	at(0, 0, 0, 0, 1);
	at(1, 0, 0, 0, 1);
	at(2, 0, 1, 0, 2);
	at(3, 0, 1, 0, 2);
	at(4, 0, 1, 1, 2);
	at(5, 0, 1, 1, 2);
	at(6, 0, 2, 0, 4);
	at(13, 0, 2, 3, 4);
	at(14, 0, 3, 0, 8);
	/* dir_level 2: level 0 already has four buckets */
	at(0, 2, 0, 0, 4);
	at(7, 2, 0, 3, 4);
	at(8, 2, 1, 0, 8);
	/* levels 0..30 hold 2 * (2^31 - 1) blocks; level 30 has 2^30 buckets
	 * of 2 blocks, level 31 the same count of 4 blocks */
	for (uint32_t l = 0; l < 31; l++)
		start += 2ull << l;
	at(start - 1, 0, 30, (1ull << 30) - 1, 1ull << 30);
	at(start, 0, 31, 0, 1ull << 30);
	at(start + 3, 0, 31, 0, 1ull << 30);
	at(start + 4, 0, 31, 1, 1ull << 30);
	/* past level 62: nowhere */
	for (uint32_t l = 31; l < 63; l++)
		start += 4ull << 30;
	at(start - 1, 0, 62, (1ull << 30) - 1, 1ull << 30);
	CHECK_EQ(f2_dir_block_place(start, 0, NULL, NULL, NULL), -1);
	CHECK_EQ(f2_dir_block_place(UINT64_MAX, 0, NULL, NULL, NULL), -1);
	UNIT_DONE();
}
