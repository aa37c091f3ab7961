/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fsinfo.h - mount.f2fs: what the helper checks on the volume before mounting. */
#ifndef MOUNT_FSINFO_H
#define MOUNT_FSINFO_H
#include <stddef.h>
#include <stdint.h>

struct mh_fsinfo {
	uint32_t features;	/* superblock feature bits */
	char label[512];	/* UTF-8 */
	int cp_valid;		/* a checkpoint pack passed its checks */
	uint32_t cp_flags;	/* ckpt_flags of the newest valid pack */
	uint64_t cp_ver;
	char cp_why[256];	/* why no checkpoint could be used */
	int clean;		/* cp_valid, umount flag set, no fsck/error flag */
};

/*
 * Read and verify the superblock (either copy) and the checkpoint packs of
 * path.  Returns 0 (the superblock is good; fi->clean says whether the
 * checkpoint is), or -1 with why set (not f2fs, or a bad superblock).
 */
int mh_fsinfo_read(const char *path, struct mh_fsinfo *fi, char *why, size_t wl);

/* One line naming the checkpoint state ("clean", "not unmounted cleanly"). */
void mh_fsinfo_state(const struct mh_fsinfo *fi, char *buf, size_t len);

/*
 * Compare features with what the running kernel offers in
 * sysfs_dir/features (one file per feature, Linux 6.1 names).  Returns 0
 * when all are there, 1 when the directory cannot be read (the kernel's
 * f2fs is not loaded: nothing known), -1 with the missing names in why.
 */
int mh_kernel_features(const char *sysfs_dir, uint32_t features, char *why, size_t wl);
#endif
