// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsinfo.c - mount.f2fs: the checks made on the volume before mount(2):
 * the superblock (through the library's reader and verifier), the state
 * of the newest valid checkpoint pack, and the features the running
 * kernel offers.
 *
 * The checkpoint reader here is deliberately small (head and tail block
 * of each pack: crc, matching versions, bounded pack size) because it only
 * needs ckpt_flags; the engine's full read path (f2/fs.h, f2_fs_open) is
 * the one to use once it is in the library.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/format.h"
#include "f2/io.h"
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
};

/* One pack: 0 with version and flags, or a negative code with why set. */
static int read_pack(struct f2_io *io, uint64_t start, uint64_t *ver, uint32_t *flags,
		     char *why, size_t wl)
{
	uint8_t head[F2_BLKSIZE], tail[F2_BLKSIZE];
	const struct f2_checkpoint *cp = (const void *)head;
	const struct f2_checkpoint *ct = (const void *)tail;
	uint32_t off, total;
	int err;

	err = f2_io_read_block(io, start, head);
	if (err) {
		snprintf(why, wl, "checkpoint block %llu: %s", (unsigned long long)start,
			 f2_strerror(err));
		return err;
	}
	off = f2_le32(cp->checksum_offset);
	if (!f2_cp_crc_ok(head, off)) {
		snprintf(why, wl, "checkpoint block %llu: bad checksum", (unsigned long long)start);
		return F2_EBADCRC;
	}
	total = f2_le32(cp->cp_pack_total_block_count);
	if (total < 2 || total > F2_BLKS_PER_SEG) {
		snprintf(why, wl, "checkpoint block %llu: pack of %u blocks",
			 (unsigned long long)start, total);
		return F2_ERANGE;
	}
	err = f2_io_read_block(io, start + total - 1, tail);
	if (err) {
		snprintf(why, wl, "checkpoint block %llu: %s",
			 (unsigned long long)(start + total - 1), f2_strerror(err));
		return err;
	}
	if (!f2_cp_crc_ok(tail, f2_le32(ct->checksum_offset)) ||
	    f2_le64(ct->checkpoint_ver) != f2_le64(cp->checkpoint_ver)) {
		snprintf(why, wl, "checkpoint block %llu: tail does not match its head",
			 (unsigned long long)(start + total - 1));
		return F2_ECORRUPT;
	}
	*ver = f2_le64(cp->checkpoint_ver);
	*flags = f2_le32(cp->ckpt_flags);
	return 0;
}

int mh_fsinfo_read(const char *path, struct mh_fsinfo *fi, char *why, size_t wl)
{
	struct f2_super sb;
	struct f2_io *io;
	char r[256] = "";
	int err;

	memset(fi, 0, sizeof(*fi));
	err = f2_io_open(path, F2_IO_RDONLY, &io);
	if (err) {
		snprintf(why, wl, "cannot open %s: %s", path, f2_strerror(err));
		return -1;
	}
	err = f2_sb_read(io, &sb, NULL, r, sizeof(r));
	if (err) {
		if (err == F2_EBADMAGIC)
			snprintf(why, wl, "%s does not hold an f2fs file system (%s)", path, r);
		else
			snprintf(why, wl, "%s: bad f2fs superblock: %s", path, r);
		f2_io_close(io);
		return -1;
	}
	fi->features = f2_le32(sb.feature);
	{
		le16 name[F2_MAX_VOLUME_NAME];

		memcpy(name, sb.volume_name, sizeof(name));
		f2_utf16le_to_utf8(name, F2_MAX_VOLUME_NAME, fi->label, sizeof(fi->label));
	}
	for (int p = 0; p < 2; p++) {
		uint64_t ver;
		uint32_t flags;
		uint64_t start = f2_le32(sb.cp_blkaddr) + (uint64_t)p * F2_BLKS_PER_SEG;

		if (read_pack(io, start, &ver, &flags, r, sizeof(r)))
			continue;
		if (!fi->cp_valid || ver > fi->cp_ver) {
			fi->cp_valid = 1;
			fi->cp_ver = ver;
			fi->cp_flags = flags;
		}
	}
	f2_io_close(io);
	fi->clean = fi->cp_valid && (fi->cp_flags & F2_CP_UMOUNT) &&
		    !(fi->cp_flags & (F2_CP_FSCK | F2_CP_ERROR | F2_CP_QUOTA_NEED_FSCK));
	return 0;
}

void mh_fsinfo_state(const struct mh_fsinfo *fi, char *buf, size_t len)
{
	if (!fi->cp_valid)
		snprintf(buf, len, "no valid checkpoint");
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
	if (features & ~known)
		used += (size_t)snprintf(why + used, used < wl ? wl - used : 0,
					 "%sunknown feature bits 0x%x", used ? ", " : "",
					 features & ~known);
	return used ? -1 : 0;
}
