// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * open_rw.c - opening a volume read-write for the writers (gc.f2fs,
 * defrag.f2fs, fsck's repairs, test agers): one device through
 * f2_io_open() (so F2_IO_RECORD / F2_IO_FAULT stack on it), or every
 * device of a multi-device volume (mkfs -c) read-write, joined into one
 * address space (f2_io_open_joined(): the recorder and fault backend
 * stack on the join) under the file system; on a zoned volume
 * the ordering backend (lib/io/zoned.c) on top, as mkfs.f2fs -m writes.
 * Every device is opened exclusively (F2_IO_EXCL): a block device in use,
 * a device of a mounted volume among them, is refused, unless the caller
 * says it is shared (fsck repairing a volume the kernel has mounted
 * read-only, its own mount check done).  So is a volume
 * with a feature bit this version does not implement
 * (f2_features_writable(), which the write engine also applies).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "f2/zoned.h"

/* Every device of the multi-device volume sb describes, read-write. */
static int open_devices(const char *path, const struct f2_fs *sb, const struct f2_fs_opts *o,
			int flags, struct f2_io **out, char *why, size_t len)
{
	struct f2_io *devs[F2_MAX_DEVICES] = { NULL };
	uint64_t lens[F2_MAX_DEVICES];
	int err = 0;

	for (uint32_t i = 0; i < sb->ndevs && !err; i++) {
		const char *p = i == 0 ? path : (o && o->ndevs) ?
				(i - 1 < o->ndevs ? o->dev_paths[i - 1] : NULL) : sb->devs[i].path;

		lens[i] = (sb->devs[i].end_blk - sb->devs[i].start_blk + 1) * F2_BLKSIZE;
		if (!p) {
			snprintf(why, len, "device %u of %u not given", i, sb->ndevs);
			err = F2_EBADOPT;
			break;
		}
		err = f2_io_open_unix(p, flags, &devs[i]);
		if (err) {
			devs[i] = NULL;
			snprintf(why, len, "device %u: cannot open %s: %s", i, p, f2_strerror(err));
		} else if (devs[i]->size < lens[i]) {
			snprintf(why, len, "device %u (%s) holds %llu bytes, needs %llu", i, p,
				 (unsigned long long)devs[i]->size, (unsigned long long)lens[i]);
			err = F2_ETOOSMALL;
		} else if (o && o->last_dev_whole && i == sb->ndevs - 1) {
			lens[i] = devs[i]->size / F2_BLKSIZE * F2_BLKSIZE;
		}
	}
	if (!err) {
		/* the devices are the join's, or closed */
		err = f2_io_open_joined(devs, lens, sb->ndevs, out);
		if (err)
			snprintf(why, len, "cannot join the devices: %s", f2_strerror(err));
		return err;
	}
	for (uint32_t k = 0; k < F2_MAX_DEVICES; k++)
		if (devs[k])
			f2_io_close(devs[k]);
	return err;
}

/* The features a writer is judged by: the copy the probe took, unless
 * its word holds bits no kernel defines (random bytes look like that)
 * and the other copy verifies too: the full open weighs the two
 * (f2_sb_choose), so the other's word is the one to judge. */
static uint32_t writable_features(const struct f2_fs *sb)
{
	uint8_t blk[F2_BLKSIZE];
	struct f2_super other;

	if (!(sb->features & ~F2_FEAT_DEFINED) || !sb->sb_valid[0] || !sb->sb_valid[1] ||
	    f2_io_read_block(sb->io, (uint64_t)(1 - sb->sb_which), blk))
		return sb->features;
	memcpy(&other, blk + F2_SUPER_OFFSET, sizeof(other));
	return f2_le32(other.feature);
}

int f2_fs_open_rw(const char *path, const struct f2_fs_opts *o, struct f2_io **io,
		  struct f2_fs **fs, char *why, size_t len)
{
	struct f2_fs_opts so;
	struct f2_fs *sb = NULL;
	int flags = F2_IO_RDWR | (o && o->shared ? 0 : F2_IO_EXCL) |
		    (o && o->stream ? F2_IO_STREAM : 0);
	int err;

	*io = NULL;
	*fs = NULL;
	why[0] = 0;
	memset(&so, 0, sizeof(so));
	if (o) {
		memcpy(so.dev_paths, o->dev_paths, sizeof(so.dev_paths));
		so.ndevs = o->ndevs;
	}
	so.sb_only = 1;
	err = f2_fs_open(path, &so, &sb);
	/* feature bits this version does not implement: no writer writes */
	if (!err && (err = f2_features_writable(writable_features(sb), why, len))) {
		f2_fs_close(sb);
		return err;
	}
	if (sb && sb->ndevs > 1) {
		if (err)
			snprintf(why, len, "%s", sb->why[0] ? sb->why : f2_strerror(err));
		else
			err = open_devices(path, sb, o, flags, io, why, len);
	} else {
		/* one device: f2_fs_open_io() below says what is wrong with it */
		err = f2_io_open(path, flags, io);
		if (err)
			snprintf(why, len, "%s", f2_strerror(err));
	}
	if (!err && sb && (sb->features & F2_FEAT_BLKZONED)) {
		/* blocks reach each sequential zone in write-pointer order */
		struct f2_io *ordered;

		err = f2_io_open_ordered(*io, (uint64_t)sb->main_blkaddr * F2_BLKSIZE, &ordered);
		if (err) {
			snprintf(why, len, "%s", f2_strerror(err));
			f2_io_close(*io);
		} else {
			*io = ordered;
		}
	}
	f2_fs_close(sb);
	if (err) {
		*io = NULL;
		return err;
	}
	err = f2_fs_open_io(*io, o, fs);
	if (err) {
		snprintf(why, len, "%s", *fs && (*fs)->why[0] ? (*fs)->why : f2_strerror(err));
		f2_fs_close(*fs);
		f2_io_close(*io);
		*fs = NULL;
		*io = NULL;
	}
	return err;
}
