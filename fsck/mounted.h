/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mounted.h - mount state of a device. */
#ifndef FSCK_MOUNTED_H
#define FSCK_MOUNTED_H
#include <stddef.h>
/* 1 if path is mounted (where = mount point, *ro = mounted read-only). */
int fsck_mounted(const char *path, char *where, size_t len, int *ro);
#endif
