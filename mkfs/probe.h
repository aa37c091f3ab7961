/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe.h - is a device holding data? */
#ifndef MKFS_PROBE_H
#define MKFS_PROBE_H
#include <stddef.h>

/* 1 if libblkid finds a file system or partition table; what names it. */
int probe_contents(const char *path, char *what, size_t len);
#endif
