/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sbcopy.h - the two superblock copies of a volume, for the tools that
 * rewrite them (f2fslabel, tune.f2fs). */
#ifndef TUNE_SBCOPY_H
#define TUNE_SBCOPY_H
#include <stddef.h>
#include "f2/format.h"

struct f2_io;

/* Copy i (0 primary, 1 backup), verified; 0 or an error code with the
 * reason in why.  The size is not checked against the device: a volume
 * of several devices is longer than its first. */
int sb_read_copy(struct f2_io *io, int i, struct f2_super *sb, char *why, size_t len);
/* Both copies, each valid; 0, or 1 after "PROG: DEV: the primary
 * superblock is not valid (why); run fsck.f2fs first" on stderr. */
int sb_read_both(struct f2_io *io, const char *prog, const char *dev, struct f2_super sb[2]);
const char *sb_copy_name(int i);
#endif
