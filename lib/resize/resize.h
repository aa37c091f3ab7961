/* SPDX-License-Identifier: GPL-2.0-or-later */
/* resize/resize.h - what run.c and relocate.c share (internal). */
#ifndef F2_RESIZE_INTERNAL_H
#define F2_RESIZE_INTERNAL_H
#include "f2/gc.h"
#include "f2/resize.h"

void rs_add_stats(struct f2_resize_stats *st, const struct f2_gc_move_stats *ms);
/* The superblock of a relocating grow (f2_resize_sb plus the new areas). */
void rs_relocated_sb(const struct f2_fs *fs, const struct f2_resize_plan *p, struct f2_super *sb);
/* Carry out a relocating grow (relocate.c). */
int rs_relocate(struct f2_io *io, struct f2_fs *fs, const struct f2_resize_plan *p,
		struct f2_resize_stats *st, char *why, size_t len);
#endif
