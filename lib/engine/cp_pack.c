// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/cp_pack.c - the checkpoint writer (f2/cp_pack.h): pack layout, compacted or
 * normal data summaries, node summaries, orphan blocks, nat_bits, crc,
 * and the commit order (body, flush, head and tail, flush).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/cp_pack.h"
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/io.h"

/* Summary entries of data log t in a compacted summary: up to its write
 * pointer, or all of them for a log the head (when given) says is SSR,
 * as the kernel writes and reads them. */
static uint32_t data_entries(const struct f2_cp_image *ci, int t)
{
	const struct f2_checkpoint *cp = (const struct f2_checkpoint *)ci->head;

	return cp && cp->alloc_type[t] == F2_SSR ? F2_ENTRIES_IN_SUM : ci->blkoff[t];
}

static uint32_t data_sum_blocks(const struct f2_cp_image *ci)
{
	uint32_t n = 0, first = (F2_BLKSIZE - 2 * F2_SUM_JOURNAL_SIZE - F2_SUM_FOOTER_SIZE) /
				F2_SUMMARY_SIZE;

	if (!ci->compact)
		return 3;
	for (int t = F2_CURSEG_HOT_DATA; t <= F2_CURSEG_COLD_DATA; t++)
		n += data_entries(ci, t);
	if (n <= first)
		return 1;
	if (n - first <= (F2_BLKSIZE - F2_SUM_FOOTER_SIZE) / F2_SUMMARY_SIZE)
		return 2;
	return 3;
}

static uint32_t orphan_blocks(const struct f2_cp_image *ci)
{
	return (uint32_t)((ci->norphans + F2_ORPHANS_PER_BLOCK - 1) / F2_ORPHANS_PER_BLOCK);
}

uint32_t f2_cp_pack_blocks(const struct f2_cp_image *ci)
{
	return 1 + ci->payload + orphan_blocks(ci) + data_sum_blocks(ci) +
	       (ci->node_sums ? 3 : 0) + 1;
}

/* Both journals, then the data logs' entries packed across blocks. */
static int write_compacted(struct f2_io *io, const struct f2_cp_image *ci, uint64_t *at,
			   uint8_t *blk)
{
	size_t ws = 2 * F2_SUM_JOURNAL_SIZE;
	int open = 1, err;

	memset(blk, 0, F2_BLKSIZE);
	memcpy(blk, ci->nat_journal, F2_SUM_JOURNAL_SIZE);
	memcpy(blk + F2_SUM_JOURNAL_SIZE, ci->sit_journal, F2_SUM_JOURNAL_SIZE);
	for (int t = F2_CURSEG_HOT_DATA; t <= F2_CURSEG_COLD_DATA; t++)
		for (uint32_t j = 0; j < data_entries(ci, t) && j < F2_ENTRIES_IN_SUM; j++) {
			if (!open) {
				memset(blk, 0, F2_BLKSIZE);
				ws = 0;
				open = 1;
			}
			memcpy(blk + ws, &ci->sum[t]->entries[j], F2_SUMMARY_SIZE);
			ws += F2_SUMMARY_SIZE;
			if (ws + F2_SUMMARY_SIZE <= F2_BLKSIZE - F2_SUM_FOOTER_SIZE)
				continue;
			if ((err = f2_io_write_block(io, (*at)++, blk)))
				return err;
			open = 0;
		}
	return open ? f2_io_write_block(io, (*at)++, blk) : 0;
}

int f2_cp_write(struct f2_io *io, struct f2_cp_image *ci)
{
	struct f2_checkpoint *cp = (struct f2_checkpoint *)ci->head;
	uint32_t norph = orphan_blocks(ci), dsum = data_sum_blocks(ci);
	uint32_t start_sum = 1 + ci->payload + norph, total = f2_cp_pack_blocks(ci);
	uint32_t flags = f2_le32(cp->ckpt_flags), csum_off = f2_le32(cp->checksum_offset);
	uint64_t at = ci->start + 1, ver = f2_le64(cp->checkpoint_ver);
	uint8_t *blk;
	int err = 0;

	if (total > F2_BLKS_PER_SEG)
		return F2_ERANGE;
	if (csum_off < F2_CP_MIN_CHKSUM_OFFSET || csum_off > F2_CP_CHKSUM_OFFSET)
		return F2_ECORRUPT;
	flags &= ~(F2_CP_COMPACT_SUM | F2_CP_ORPHAN_PRESENT | F2_CP_NAT_BITS);
	if (dsum < 3)
		flags |= F2_CP_COMPACT_SUM;
	if (norph)
		flags |= F2_CP_ORPHAN_PRESENT;
	if (ci->nat_bits && total + ci->nat_bits_blocks <= F2_BLKS_PER_SEG)
		flags |= F2_CP_NAT_BITS;
	f2_set_le32(cp->ckpt_flags, flags);
	f2_set_le32(cp->cp_pack_total_block_count, total);
	f2_set_le32(cp->cp_pack_start_sum, start_sum);
	f2_cp_set_crc(cp, csum_off);

	blk = malloc(F2_BLKSIZE);
	if (!blk)
		return -ENOMEM;
	for (uint32_t i = 0; i < ci->payload && !err; i++)
		err = f2_io_write_block(io, at++, ci->head + (size_t)(1 + i) * F2_BLKSIZE);
	for (uint32_t b = 0; b < norph && !err; b++) {
		struct f2_orphan_block *ob = (struct f2_orphan_block *)blk;
		uint32_t n = 0;

		memset(blk, 0, F2_BLKSIZE);
		for (size_t k = (size_t)b * F2_ORPHANS_PER_BLOCK;
		     k < ci->norphans && n < F2_ORPHANS_PER_BLOCK; k++)
			f2_set_le32(ob->ino[n++], ci->orphans[k]);
		f2_set_le16(ob->blk_addr, (uint16_t)(b + 1));
		f2_set_le16(ob->blk_count, (uint16_t)norph);
		f2_set_le32(ob->entry_count, n);
		err = f2_io_write_block(io, at++, blk);
	}
	if (!err && dsum < 3)
		err = write_compacted(io, ci, &at, blk);
	for (int t = 0; t < F2_NR_CURSEG && !err; t++) {
		struct f2_summary_block *s = (struct f2_summary_block *)blk;

		if ((t < F2_CURSEG_HOT_NODE && dsum < 3) || (t >= F2_CURSEG_HOT_NODE && !ci->node_sums))
			continue;
		memcpy(s, ci->sum[t], sizeof(*s));
		memset(&s->journal, 0, sizeof(s->journal));
		if (t == F2_CURSEG_HOT_DATA)
			s->journal = *ci->nat_journal;
		else if (t == F2_CURSEG_COLD_DATA)
			s->journal = *ci->sit_journal;
		s->footer.entry_type = t >= F2_CURSEG_HOT_NODE ? F2_SUM_TYPE_NODE :
				       F2_SUM_TYPE_DATA;
		err = f2_io_write_block(io, at++, blk);
	}
	if (!err && at != ci->start + total - 1)
		err = F2_ECORRUPT;
	if (!err && (flags & F2_CP_NAT_BITS)) {
		le32 crc;

		memcpy(&crc, ci->head + csum_off, 4);
		*(le64 *)(void *)ci->nat_bits = f2_cpu_to_le64(ver | (uint64_t)f2_le32(crc) << 32);
		for (uint32_t i = 0; i < ci->nat_bits_blocks && !err; i++)
			err = f2_io_write_block(io, ci->start + F2_BLKS_PER_SEG -
						ci->nat_bits_blocks + i,
						ci->nat_bits + (size_t)i * F2_BLKSIZE);
	}
	free(blk);
	/* commit: head and tail only once the rest is on the device */
	if (!err)
		err = f2_io_flush(io);
	if (!err)
		err = f2_io_write_block(io, ci->start, ci->head);
	if (!err)
		err = f2_io_write_block(io, ci->start + total - 1, ci->head);
	if (!err)
		err = f2_io_flush(io);
	return err;
}
