// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * repair_cp.c - write a new checkpoint with corrected counters.
 *
 * The pack in use is copied, block by block, into the other pack with
 * the version raised by one and the counters set to what the check found
 * (valid blocks, nodes, inodes, free segments); nat_bits, when present,
 * are copied with their header renewed for the new version and crc.
 * Write order: every block of the new pack but its head and tail, then
 * the head, then the tail, each step flushed.  The kernel and the library
 * accept a pack only when head and tail carry the same version and good
 * crcs, so until the tail is down the old pack stays the one in use: an
 * interrupted repair leaves the file system as it was or as repaired.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/io.h"
#include "fsck.h"
#include "problem.h"

int repair_cp_counters(struct fsck_ctx *ctx, const struct cp_counts *c)
{
	struct f2_fs *fs = ctx->fs;
	uint32_t total = f2_le32(fs->cp->cp_pack_total_block_count);
	uint64_t src = fs->packs[fs->cp_pack].start, dst = fs->packs[1 - fs->cp_pack].start;
	uint32_t nb_blocks = 0, csum_off = f2_le32(fs->cp->checksum_offset);
	struct f2_checkpoint *cp;
	uint8_t *buf;
	int err = 0;

	if (!ctx->rw)
		return -EBADF;
	if (fs->cp_flags & F2_CP_NAT_BITS)
		nb_blocks = (2 * (fs->nat_blocks / 8) + 8 + F2_BLKSIZE - 1) / F2_BLKSIZE;
	if (total < 2 || total + nb_blocks > F2_BLKS_PER_SEG || csum_off > F2_BLKSIZE - 4)
		return F2_ERANGE;
	buf = malloc((size_t)(total + nb_blocks) * F2_BLKSIZE);
	if (!buf)
		return -ENOMEM;
	for (uint32_t i = 0; i < total && !err; i++)
		err = f2_io_read_block(ctx->rw, src + i, buf + (size_t)i * F2_BLKSIZE);
	for (uint32_t i = 0; i < nb_blocks && !err; i++)
		err = f2_io_read_block(ctx->rw, src + F2_BLKS_PER_SEG - nb_blocks + i,
				       buf + (size_t)(total + i) * F2_BLKSIZE);
	if (err)
		goto out;
	cp = (struct f2_checkpoint *)buf;
	f2_set_le64(cp->checkpoint_ver, fs->cp_ver + 1);
	f2_set_le64(cp->valid_block_count, c->valid_blocks);
	f2_set_le32(cp->valid_node_count, c->valid_nodes);
	f2_set_le32(cp->valid_inode_count, c->valid_inodes);
	f2_set_le32(cp->free_segment_count, c->free_segs);
	f2_cp_set_crc(buf, csum_off);
	memcpy(buf + (size_t)(total - 1) * F2_BLKSIZE, buf, F2_BLKSIZE);	/* tail = head */
	if (nb_blocks) {
		uint32_t crc = f2_le32(*(const le32 *)(buf + csum_off));
		le64 hdr = f2_cpu_to_le64(((fs->cp_ver + 1) & 0xFFFFFFFFull) | (uint64_t)crc << 32);

		memcpy(buf + (size_t)total * F2_BLKSIZE, &hdr, sizeof(hdr));
	}
	/* body (payload, orphans, summaries) and nat_bits, then head, then tail */
	for (uint32_t i = 1; i + 1 < total && !err; i++)
		err = f2_io_write_block(ctx->rw, dst + i, buf + (size_t)i * F2_BLKSIZE);
	for (uint32_t i = 0; i < nb_blocks && !err; i++)
		err = f2_io_write_block(ctx->rw, dst + F2_BLKS_PER_SEG - nb_blocks + i,
					buf + (size_t)(total + i) * F2_BLKSIZE);
	if (!err)
		err = f2_io_flush(ctx->rw);
	if (!err)
		err = f2_io_write_block(ctx->rw, dst, buf);
	if (!err)
		err = f2_io_flush(ctx->rw);
	if (!err)
		err = f2_io_write_block(ctx->rw, dst + total - 1, buf);
	if (!err)
		err = f2_io_flush(ctx->rw);
out:
	free(buf);
	return err;
}
