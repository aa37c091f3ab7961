/* SPDX-License-Identifier: GPL-2.0-or-later */
/* common.h - what gc.f2fs and defrag.f2fs share: exit codes, number
 * parsing, the mounted-device refusal and opening the volume read-only. */
#ifndef GC_COMMON_H
#define GC_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct f2_fs;

/* Exit codes, the fsck(8) values where they apply. */
enum {
	GC_EXIT_OK = 0,
	GC_EXIT_TARGET = 1,	/* ran (or planned) but the target is not reachable */
	GC_EXIT_ERROR = 8,	/* operational error, refusal, not implemented */
	GC_EXIT_USAGE = 16,
};

/* Decimal or 0x-prefixed hexadecimal, nothing else; 0 or -1 (message
 * "PROG: invalid WHAT 'S'" on stderr). */
int gc_parse_u64(const char *prog, const char *s, const char *what, uint64_t *out);
int gc_parse_u32(const char *prog, const char *s, const char *what, uint32_t min,
		 uint32_t *out);

/*
 * Is path mounted?  Looks through the mount table (/proc/mounts, or the
 * file named by $F2_PROC_MOUNTS for tests): a block device by device
 * number, an image file as the backing file of a mounted loop device.
 * where gets the mount point.  A block device that cannot be opened
 * O_EXCL is in use: where says so.
 */
int gc_device_busy(const char *path, char *where, size_t len);

/* Refuse a busy device (message on stderr) and open path read-only with
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
