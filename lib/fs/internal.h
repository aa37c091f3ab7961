/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs/internal.h - what the read path's files share and nothing else
 * sees: the steps of an open (open.c), the checkpoint load (cp.c) and
 * the choice between two superblock copies (sb_choose.c).
 */
#ifndef F2_FS_INTERNAL_H
#define F2_FS_INTERNAL_H
#include "f2/fs.h"

/* A zeroed handle with its block caches. */
int f2_fs_alloc(struct f2_fs **out);
/* Geometry and device map from fs->sb (already verified). */
int f2_fs_layout(struct f2_fs *fs);
/* Load the newest valid checkpoint pack (force_pack 1 or 2: that one). */
int f2_cp_load(struct f2_fs *fs, int force_pack);
/*
 * After the checkpoint load with the copy picked first returned err: when
 * both copies verify but differ, weigh the other one too, and take it
 * when the evidence says so.  Returns the open's result with the copy
 * kept.
 */
int f2_sb_choose(struct f2_fs *fs, int force_pack, int err);
#endif
