/* SPDX-License-Identifier: GPL-2.0-or-later */
/* common.h - what gc.f2fs and defrag.f2fs share: exit codes, the
 * busy-device refusal and opening the volume. */
#ifndef GC_COMMON_H
#define GC_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "support/exitcodes.h"

struct f2_fs;

/* Exit codes, the fsck(8) values where they apply. */
enum {
	GC_EXIT_OK = FSCK_EXIT_OK,
	GC_EXIT_TARGET = 1,	/* ran (or planned) but the target is not reachable */
	GC_EXIT_ERROR = FSCK_EXIT_OPERATIONAL,	/* error, refusal, not implemented */
	GC_EXIT_USAGE = FSCK_EXIT_USAGE,
};

/* Refuse a busy device (mounted, support/mounted.h, or a block device
 * held open exclusively; message on stderr) and open path read-only with
 * its checkpoint; 0 or GC_EXIT_ERROR. */
int gc_open_ro(const char *prog, const char *path, struct f2_fs **fs);

/* Moving needs a volume unmounted cleanly and not marked for fsck: else
 * the driver's roll-forward chain (written after the last checkpoint into
 * what the checkpoint calls free space) would be overwritten.  0, or
 * GC_EXIT_ERROR with a message. */
int gc_check_clean(const char *prog, const char *path, const struct f2_fs *fs);

/* The same, read-write (the write log / fault backends of F2_IO_RECORD and
 * F2_IO_FAULT apply); *io must be closed after f2_fs_close(*fs). */
struct f2_io;
int gc_open_rw(const char *prog, const char *path, struct f2_io **io, struct f2_fs **fs);

#endif
