// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sb_merge.c - one valid superblock out of two damaged copies.  When
 * neither copy verifies but both carry the magic, the places where they
 * differ are tried in every combination (up to F2_SB_MERGE_RUNS runs of
 * differing bytes), each candidate's crc redone; the result is used only
 * when every candidate that verifies (and, on one device, fits the
 * dev_blocks it has) is the same superblock.
 */
#include <string.h>
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/sb.h"

#define F2_SB_MERGE_RUNS 10

int f2_sb_merge(const struct f2_super *a, const struct f2_super *b, uint64_t dev_blocks,
		struct f2_super *out)
{
	const uint8_t *pa = (const void *)a, *pb = (const void *)b;
	size_t start[F2_SB_MERGE_RUNS], len[F2_SB_MERGE_RUNS], n = 0, found = 0;
	char why[F2_WHY_LEN];

	if (f2_le32(a->magic) != F2_SUPER_MAGIC || f2_le32(b->magic) != F2_SUPER_MAGIC)
		return F2_EBADMAGIC;
	for (size_t i = 0; i < sizeof(*a);) {
		size_t j = i;

		if (pa[i] == pb[i]) {
			i++;
			continue;
		}
		while (j < sizeof(*a) && pa[j] != pb[j])
			j++;
		if (n == F2_SB_MERGE_RUNS)
			return F2_ECORRUPT;	/* too different to be one volume */
		start[n] = i;
		len[n++] = j - i;
		i = j;
	}
	for (uint32_t mask = 0; mask < (1u << n); mask++) {
		struct f2_super c = *a;

		for (size_t r = 0; r < n; r++)
			if (mask & (1u << r))
				memcpy((uint8_t *)&c + start[r], pb + start[r], len[r]);
		f2_sb_set_crc(&c);
		/* a one-device volume must fit its device */
		if (f2_sb_verify(&c, c.devs[0].path[0] ? 0 : dev_blocks, why, sizeof(why)))
			continue;
		if (found && memcmp(&c, out, sizeof(c)))
			return F2_ECORRUPT;	/* two different volumes verify */
		*out = c;
		found = 1;
	}
	return found ? 0 : F2_ECORRUPT;
}
