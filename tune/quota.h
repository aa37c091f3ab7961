/* SPDX-License-Identifier: GPL-2.0-or-later */
/* quota.h - tune.f2fs -O quota,project_quota: the quota files built. */
#ifndef TUNE_QUOTA_H
#define TUNE_QUOTA_H
#include <stddef.h>
#include <stdint.h>

/*
 * Make the quota files of the types in want (bit q: user 0, group 1,
 * project 2) on the volume at path, each holding every id's usage as
 * the kernel charges it (f2_quota_charge) over every inode the NAT names,
 * through the write engine and one checkpoint; features are the bits
 * the volume will have (project ids count with project_quota).  qf_ino[q]
 * gets each new inode.  With dry_run nothing is written and qf_ino stays
 * 0.  0, or 1 after a message naming dev on stderr.
 */
int quota_make(const char *dev, unsigned want, uint32_t features, int dry_run,
	       uint32_t qf_ino[3], uint64_t *inodes);
#endif
