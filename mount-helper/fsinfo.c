// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsinfo.c - mount.f2fs: the checks made on the volume before mount(2):
 * the superblock and the newest valid checkpoint pack (both through the
 * library's read path, f2_fs_open), and the features the running kernel
 * offers.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/format.h"
#include "f2/fs.h"
#include "f2/sb.h"
#include "fsinfo.h"

/* Superblock feature bits and the file each has in /sys/fs/f2fs/features
 * (names from fs/f2fs/sysfs.c of Linux 6.1). */
static const struct {
	uint32_t bit;
	const char *sysfs;
} kfeat[] = {
	{ F2_FEAT_ENCRYPT, "encryption" },
	{ F2_FEAT_BLKZONED, "block_zoned" },
	{ F2_FEAT_ATOMIC_WRITE, "atomic_write" },
	{ F2_FEAT_EXTRA_ATTR, "extra_attr" },
	{ F2_FEAT_PRJQUOTA, "project_quota" },
	{ F2_FEAT_INODE_CHKSUM, "inode_checksum" },
	{ F2_FEAT_FLEX_INLINE_XATTR, "flexible_inline_xattr" },
	{ F2_FEAT_QUOTA_INO, "quota_ino" },
	{ F2_FEAT_INODE_CRTIME, "inode_crtime" },
	{ F2_FEAT_LOST_FOUND, "lost_found" },
	{ F2_FEAT_VERITY, "verity" },
	{ F2_FEAT_SB_CHKSUM, "sb_checksum" },
	{ F2_FEAT_CASEFOLD, "casefold" },
	{ F2_FEAT_COMPRESSION, "compression" },
	{ F2_FEAT_RO, "readonly" },
	/* later kernels' bits, by the names of their feature functions: a
	 * kernel without the file is taken not to offer the feature */
	{ F2_FEAT_DEVICE_ALIAS, "device_alias" },
	{ F2_FEAT_PACKED_SSA, "packed_ssa" },
};

int mh_fsinfo_read(const char *path, struct mh_fsinfo *fi, char *why, size_t wl)
{
	struct f2_fs_opts sb_only = { .sb_only = 1 };
	struct f2_fs *fs = NULL;
	int err;

	memset(fi, 0, sizeof(*fi));
	err = f2_fs_open(path, &sb_only, &fs);
	if (err) {
		if (err == F2_EBADMAGIC)
			snprintf(why, wl, "%s does not hold an f2fs file system (%s)", path,
				 fs ? fs->why : f2_strerror(err));
		else if (err == F2_EUNSUPP)	/* a block size this version lacks */
			snprintf(why, wl, "%s: %s", path, fs ? fs->why : f2_strerror(err));
		else
			snprintf(why, wl, "%s: bad f2fs superblock: %s", path,
				 fs ? fs->why : f2_strerror(err));
		f2_fs_close(fs);
		return -1;
	}
	fi->features = fs->features;
	{
		le16 name[F2_MAX_VOLUME_NAME];

		memcpy(name, fs->sb.volume_name, sizeof(name));
		f2_utf16le_to_utf8(name, F2_MAX_VOLUME_NAME, fi->label, sizeof(fi->label));
	}
	f2_fs_close(fs);
	fs = NULL;
	/* now with the checkpoint: a failure here is a state, not a refusal */
	err = f2_fs_open(path, NULL, &fs);
	if (!err) {
		fi->cp_valid = 1;
		fi->cp_flags = fs->cp_flags;
		fi->cp_ver = fs->cp_ver;
	} else {
		snprintf(fi->cp_why, sizeof(fi->cp_why), "%s", fs ? fs->why : f2_strerror(err));
	}
	f2_fs_close(fs);
	fi->clean = fi->cp_valid && (fi->cp_flags & F2_CP_UMOUNT) &&
		    !(fi->cp_flags & (F2_CP_FSCK | F2_CP_ERROR | F2_CP_QUOTA_NEED_FSCK));
	return 0;
}

void mh_fsinfo_state(const struct mh_fsinfo *fi, char *buf, size_t len)
{
	if (!fi->cp_valid)
		snprintf(buf, len, "unreadable (%s)", fi->cp_why);
	else if (fi->clean)
		snprintf(buf, len, "clean");
	else
		snprintf(buf, len, "not clean (checkpoint flags 0x%x:%s%s%s%s)", fi->cp_flags,
			 fi->cp_flags & F2_CP_UMOUNT ? "" : " not unmounted cleanly",
			 fi->cp_flags & F2_CP_FSCK ? " fsck requested" : "",
			 fi->cp_flags & F2_CP_ERROR ? " error" : "",
			 fi->cp_flags & F2_CP_QUOTA_NEED_FSCK ? " quota needs fsck" : "");
}

int mh_kernel_features(const char *sysfs_dir, uint32_t features, char *why, size_t wl)
{
	char dir[512], file[600];
	struct stat st;
	size_t used = 0;
	uint32_t known = 0;

	snprintf(dir, sizeof(dir), "%s/features", sysfs_dir);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return 1;
	why[0] = 0;
	for (size_t i = 0; i < sizeof(kfeat) / sizeof(kfeat[0]); i++) {
		known |= kfeat[i].bit;
		if (!(features & kfeat[i].bit))
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, kfeat[i].sysfs);
		if (access(file, F_OK) == 0)
			continue;
		used += (size_t)snprintf(why + used, used < wl ? wl - used : 0, "%s%s",
					 used ? ", " : "", kfeat[i].sysfs);
	}
	if (features & ~known) {
		char names[256];

		f2_features_describe(features & ~known, names, sizeof(names));
		used += (size_t)snprintf(why + used, used < wl ? wl - used : 0,
					 "%sunknown feature bits %s", used ? ", " : "", names);
	}
	return used ? -1 : 0;
}
