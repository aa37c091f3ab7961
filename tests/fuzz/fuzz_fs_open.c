// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_fs_open.c - fuzz target "fs_open": superblock and checkpoint
 * selection (newest pack, then each pack forced), orphan list, NAT and SIT
 * walks with their journals, the SSA of every main segment and the node
 * behind every NAT entry (bounded).
 */
#include <stdint.h>
#include <stddef.h>
#include "f2/fs.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NODE_BUDGET 64

struct walk {
	struct f2_fs *fs;
	unsigned nodes;
	uint64_t sum;		/* keeps the reads from being optimised away */
};

static int on_orphan(void *ctx, uint32_t ino)
{
	((struct walk *)ctx)->sum += ino;
	return 0;
}

static int on_nat(void *ctx, const struct f2_nat_info *ni)
{
	struct walk *w = ctx;
	struct f2_node node;

	w->sum += ni->blkaddr;
	if (w->nodes++ < NODE_BUDGET && ni->blkaddr &&
	    !f2_node_read(w->fs, ni->nid, 0, &node, NULL))
		w->sum += f2_node_ofs(&node);
	return 0;
}

static int on_sit(void *ctx, const struct f2_sit_info *si)
{
	((struct walk *)ctx)->sum += si->vblocks;
	return 0;
}

static void run(struct f2_io *io, int force_pack)
{
	struct f2_fs_opts o = { .force_pack = force_pack };
	struct f2_fs *fs = NULL;
	struct walk w = { 0 };

	if (f2_fs_open_io(io, &o, &fs) == 0) {
		struct f2_summary_block sum;
		int from_cp;

		w.fs = fs;
		f2_cp_orphans(fs, on_orphan, &w);
		f2_nat_iter(fs, on_nat, &w);
		f2_sit_iter(fs, on_sit, &w);
		for (uint32_t segno = 0; segno < fs->main_segs && segno < 4096; segno++)
			if (!f2_ssa_read(fs, segno, &sum, &from_cp))
				w.sum += sum.footer.entry_type;
		if (force_pack == 0) {
			uint8_t head[F2_BLKSIZE];
			struct f2_cp_pack_info info;

			f2_cp_check_pack(fs, 1 - fs->cp_pack, head, &info);
		}
	}
	f2_fs_close(fs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2_io *io = fz_begin(data, size);

	run(io, 0);
	run(io, 1);
	run(io, 2);
	fz_end();
	return 0;
}
