// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * repair_cp.c - write a new checkpoint with corrected counters.
 *
 * The pack in use is described again for the checkpoint writer
 * (f2/cp_pack.h): its head and payload with the version raised by one
 * and the counters set to what the check found (valid blocks, nodes,
 * inodes, free segments), its orphans (the verified list), the summaries
 * and journals the read path loaded, node summaries when it had them,
 * compacted data summaries when it had them, and, when it kept nat_bits,
 * nat_bits computed from the NAT.  The writer lays the pack out in the
 * other pack's segment and commits it (body, flush, head and tail,
 * flush): the kernel and the library accept a pack only when head and
 * tail carry the same version and good crcs, so until the tail is down
 * the old pack stays the one in use, and an interrupted repair leaves the
 * file system as it was or as repaired.
 *
 * cp_clear_fsck(): after a full check that left nothing, one more
 * checkpoint through the write engine without CP_FSCK, the kernel's
 * mark that fsck must run, so the next boot's check is the quick one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/cp_pack.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "fsck.h"

int repair_cp_counters(struct fsck_ctx *ctx, const struct cp_counts *c)
{
	struct f2_fs *fs = ctx->fs;
	uint32_t payload = f2_le32(fs->sb.cp_payload);
	struct f2_cp_image ci = {
		.payload = payload,
		.start = fs->packs[1 - fs->cp_pack].start,
		.orphans = ctx->orphan_inos,
		.norphans = ctx->orphans,
		.nat_journal = &fs->nat_journal,
		.sit_journal = &fs->sit_journal,
		.node_sums = !!(fs->cp_flags & (F2_CP_UMOUNT | F2_CP_FASTBOOT)),
		.compact = !!(fs->cp_flags & F2_CP_COMPACT_SUM),
	};
	struct f2_checkpoint *cp;
	int err = 0;

	if (!ctx->rw)
		return -EBADF;
	ci.head = malloc((size_t)(1 + payload) * F2_BLKSIZE);
	if (!ci.head)
		return -ENOMEM;
	memcpy(ci.head, fs->cp_raw, (size_t)(1 + payload) * F2_BLKSIZE);
	cp = (struct f2_checkpoint *)ci.head;
	f2_set_le64(cp->checkpoint_ver, fs->cp_ver + 1);
	f2_set_le64(cp->valid_block_count, c->valid_blocks);
	f2_set_le32(cp->valid_node_count, c->valid_nodes);
	f2_set_le32(cp->valid_inode_count, c->valid_inodes);
	f2_set_le32(cp->free_segment_count, c->free_segs);
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		ci.sum[t] = &fs->curseg[t].sum;
		ci.blkoff[t] = fs->curseg[t].blkoff;
	}
	if (fs->cp_flags & F2_CP_NAT_BITS) {
		ci.nat_bits_blocks = f2_nat_bits_blocks(fs);
		ci.nat_bits = calloc(ci.nat_bits_blocks, F2_BLKSIZE);
		err = ci.nat_bits ? f2_nat_bits_build(fs, ci.nat_bits) : -ENOMEM;
	}
	if (!err)
		err = f2_cp_write(ctx->rw, &ci);
	free(ci.nat_bits);
	free(ci.head);
	return err;
}

int cp_clear_fsck(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = NULL;
	struct f2_engine *w = NULL;
	int err;

	err = f2_fs_open_io(ctx->rw, NULL, &fs);	/* the state after any repair */
	if (err || !(fs->cp_flags & F2_CP_FSCK))
		goto out;
	err = f2_engine_open(fs, NULL, &w);
	if (!err) {
		f2_engine_cp_flags(w, 0, F2_CP_FSCK);
		err = f2_engine_checkpoint(w);
	}
	if (err)
		fprintf(ctx->out, "checkpoint: the need-fsck flag (CP_FSCK) is left: %s\n",
			w ? f2_engine_why(w) : fs->why);
	else
		fprintf(ctx->out, "checkpoint: the need-fsck flag (CP_FSCK) cleared: the full "
			"check left nothing\n");
out:
	if (w)
		f2_engine_close(w);
	if (fs)
		f2_fs_close(fs);
	return err;
}
