// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sb_choose.c - which of two superblock copies that both verify, but
 * differ, describes the volume.  The open takes the first valid copy;
 * when the other differs, it is opened too (the same I/O, its own
 * checkpoint) and a copy with which no checkpoint pack loads loses to one
 * with which one does (a damaged cp_payload or area address).  Without
 * evidence the first copy stays (the kernel reads the primary first).
 * When the evidence decides, fs->sb_overruled is set and the loser's
 * sb_why[] says why: a checker rewrites it from the winner.
 */
#include <stdio.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "internal.h"

/* A handle on fs's I/O with superblock sb and its checkpoint loaded
 * (*cp_err: the load's result); NULL when sb maps other devices. */
static struct f2_fs *open_copy(struct f2_fs *fs, const struct f2_super *sb, int force_pack,
			       int *cp_err)
{
	struct f2_fs *t;

	if (f2_fs_alloc(&t))
		return NULL;
	t->io = fs->io;
	t->sb = *sb;
	if (f2_fs_layout(t) || t->ndevs != fs->ndevs ||
	    t->io->size / F2_BLKSIZE < t->block_count) {
		f2_fs_close(t);
		return NULL;
	}
	for (uint32_t i = 0; i < t->ndevs; i++)
		if (t->devs[i].start_blk != fs->devs[i].start_blk ||
		    t->devs[i].end_blk != fs->devs[i].end_blk) {
			f2_fs_close(t);
			return NULL;
		}
	*cp_err = f2_cp_load(t, force_pack);
	return t;
}

/*
 * > 0 for b, < 0 for a (a and b opened with their checkpoints' results
 * ea and eb), 0 without evidence; why (the loser's reason) is set.
 */
static int weigh(struct f2_fs *a, int ea, struct f2_fs *b, int eb, char *why, size_t len)
{
	if (!ea != !eb) {
		snprintf(why, len, "with it, %.200s", ea ? a->why : b->why);
		return ea ? 1 : -1;
	}
	return 0;
}

/* fs becomes the handle t opened, keeping what belongs to the open. */
static void take(struct f2_fs *fs, struct f2_fs *t)
{
	struct f2_fs keep = *fs;

	*fs = *t;
	*t = keep;
	fs->own_io = keep.own_io;
	t->own_io = 0;
	memcpy(fs->sb_why, keep.sb_why, sizeof(fs->sb_why));
	memcpy(fs->sb_valid, keep.sb_valid, sizeof(fs->sb_valid));
	fs->sb_which = 1 - keep.sb_which;
	fs->warn = keep.warn;
	fs->warn_ctx = keep.warn_ctx;
}

int f2_sb_choose(struct f2_fs *fs, int force_pack, int err)
{
	uint8_t blk[F2_BLKSIZE];
	struct f2_super other;
	struct f2_fs *t;
	char why[F2_WHY_LEN];
	int terr = 0, pick;

	if (err == -12 || fs->sb_merged || !fs->sb_valid[0] || !fs->sb_valid[1] ||
	    f2_io_read_block(fs->io, (uint64_t)(1 - fs->sb_which), blk))
		return err;
	memcpy(&other, blk + F2_SUPER_OFFSET, sizeof(other));
	if (!memcmp(&other, &fs->sb, sizeof(other)) || !(t = open_copy(fs, &other, force_pack,
								       &terr)))
		return err;
	pick = weigh(fs, err, t, terr, why, sizeof(why));
	if (pick > 0) {
		take(fs, t);
		err = terr;
		if (fs->warn)
			fs->warn(fs->warn_ctx, "superblock %d overruled (%s): using superblock %d",
				 1 - fs->sb_which, why, fs->sb_which);
	}
	f2_fs_close(t);
	if (pick) {
		fs->sb_overruled = 1;
		snprintf(fs->sb_why[1 - fs->sb_which], F2_WHY_LEN, "%s", why);
	}
	return err;
}
