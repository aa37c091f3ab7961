/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsconfig.h - Android canned fs_config files (sload.f2fs -C): one line
 * per path, "path uid gid mode [capabilities=0x...]", the path relative
 * to the partition's root and prefixed by its mount point without the
 * leading slash ("system/bin/sh" under -t /system; "system" is the root).
 * Mode is octal; only its permission bits (07777) are taken.
 */
#ifndef MKFS_FSCONFIG_H
#define MKFS_FSCONFIG_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fscfg_entry {
	char *path;
	uint32_t uid, gid;
	uint16_t mode;		/* permission bits */
	uint64_t caps;		/* capability mask, 0 for none */
};

struct fscfg {
	struct fscfg_entry *e;	/* sorted by path */
	size_t n;
};

/* Load file into c (empty on entry).  A malformed line is an error named
 * by file and line on err; returns 0, -EINVAL or -ENOMEM (c is then
 * empty). */
int fscfg_load(const char *file, struct fscfg *c, FILE *err);
/* The entry of path (no leading slash), or NULL. */
const struct fscfg_entry *fscfg_find(const struct fscfg *c, const char *path);
void fscfg_free(struct fscfg *c);

/* The security.capability value (VFS_CAP_REVISION_2, effective) of a
 * capability mask: FSCFG_CAP_BYTES bytes into out. */
#define FSCFG_CAP_BYTES 20
void fscfg_cap_value(uint64_t caps, uint8_t out[FSCFG_CAP_BYTES]);
#endif
