/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mounted.h - is a device or image file mounted? */
#ifndef SUPPORT_MOUNTED_H
#define SUPPORT_MOUNTED_H
#include <stddef.h>

/*
 * 1 if path is mounted: a block device that is the source of a mount, or
 * an image file that is a mount source itself or the backing file of a
 * mounted loop device.  where gets the mount point, *ro (when ro is not
 * NULL) whether it is mounted read-only.  0 if not, or if path cannot be
 * looked at.  For tests, $F2_PROC_MOUNTS names the mount table (default
 * /proc/self/mounts) and $F2_SYS_BLOCK the directory of block devices
 * (default /sys/block); both are ignored in set-user-ID programs.
 */
int sup_mounted(const char *path, char *where, size_t len, int *ro);

/*
 * Drop the clean cached pages of block device path, so that reads see
 * what the driver of a mounted file system wrote past that cache.  0, or
 * a negative errno; nothing to do (0) for anything but a block device.
 */
int sup_uncache(const char *path);
#endif
