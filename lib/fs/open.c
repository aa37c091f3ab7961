// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * open.c - open a file system read-only: superblock selection, the device
 * map of multi-device volumes, raw block reads and failure reasons.
 * The checkpoint is loaded by cp.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/crc.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "internal.h"

int f2_fs_fail(struct f2_fs *fs, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fs->why, sizeof(fs->why), fmt, ap);
	va_end(ap);
	return err;
}

int f2_fs_read_block(struct f2_fs *fs, uint64_t blkaddr, void *buf)
{
	int err;

	if (blkaddr >= fs->block_count)
		return f2_fs_fail(fs, F2_ERANGE, "block %llu beyond the volume (%llu blocks)",
				  (unsigned long long)blkaddr,
				  (unsigned long long)fs->block_count);
	err = f2_io_read_block(fs->io, blkaddr, buf);
	if (err)
		return f2_fs_fail(fs, err, "block %llu: read failed: %s",
				  (unsigned long long)blkaddr, f2_strerror(err));
	return 0;
}

/* Read both superblock copies; keep the first valid one. */
static int pick_sb(struct f2_fs *fs, uint64_t dev_blocks)
{
	uint8_t blk[F2_BLKSIZE];
	struct f2_super sb, copy[2];
	int chosen = -1, err = F2_EBADMAGIC, errs[2] = { 0, 0 }, read = 0, big = -1;
	uint64_t io_blocks = fs->io->size / F2_BLKSIZE;

	for (int i = 0; i < 2; i++) {
		int e = f2_io_read_block(fs->io, (uint64_t)i, blk);

		if (e) {
			snprintf(fs->sb_why[i], F2_WHY_LEN, "superblock %d: read failed: %s",
				 i, f2_strerror(e));
			err = e;
			continue;
		}
		memcpy(&sb, blk + F2_SUPER_OFFSET, sizeof(sb));
		copy[i] = sb;
		read++;
		e = f2_sb_verify(&sb, dev_blocks, fs->sb_why[i], F2_WHY_LEN);
		errs[i] = e;
		if (e) {
			if (chosen < 0)
				err = e;
			continue;
		}
		/* a one-device volume larger than its device: taken only when
		 * no copy fits (the open then says the device is too small) */
		if (!sb.devs[0].path[0] && f2_le64(sb.block_count) > io_blocks) {
			snprintf(fs->sb_why[i], F2_WHY_LEN, "block_count %llu exceeds the device "
				 "(%llu blocks)", (unsigned long long)f2_le64(sb.block_count),
				 (unsigned long long)io_blocks);
			if (big < 0)
				big = i;
			continue;
		}
		fs->sb_valid[i] = 1;
		if (chosen < 0) {
			chosen = i;
			fs->sb = sb;
		}
	}
	/* both copies describe a volume this version does not handle (a
	 * block size other than 4096): say that, not that they are bad */
	if (chosen < 0 && errs[0] == F2_EUNSUPP && errs[1] == F2_EUNSUPP &&
	    !strcmp(fs->sb_why[0], fs->sb_why[1]))
		return f2_fs_fail(fs, F2_EUNSUPP, "superblock: %s", fs->sb_why[0]);
	if (chosen < 0 && read == 2 && !f2_sb_merge(&copy[0], &copy[1], io_blocks, &fs->sb)) {
		fs->sb_merged = 1;	/* both copies stay invalid: a checker rewrites them */
		chosen = 0;
	} else if (chosen < 0 && big >= 0) {
		fs->sb = copy[big];
		fs->sb_valid[big] = 1;
		chosen = big;
	}
	if (chosen < 0)
		return f2_fs_fail(fs, err, "no valid superblock: primary: %s; backup: %s",
				  fs->sb_why[0], fs->sb_why[1]);
	fs->sb_which = chosen;
	return 0;
}

static void derive_geometry(struct f2_fs *fs)
{
	const struct f2_super *sb = &fs->sb;

	fs->features = f2_le32(sb->feature);
	fs->csum_seed = f2_crc32(~0u, sb->uuid, sizeof(sb->uuid));
	fs->block_count = f2_le64(sb->block_count);
	fs->seg0_blkaddr = f2_le32(sb->segment0_blkaddr);
	fs->main_blkaddr = f2_le32(sb->main_blkaddr);
	fs->main_segs = f2_le32(sb->segment_count_main);
	fs->nat_blkaddr = f2_le32(sb->nat_blkaddr);
	fs->nat_blocks = f2_le32(sb->segment_count_nat) / 2 * F2_BLKS_PER_SEG;
	fs->sit_blkaddr = f2_le32(sb->sit_blkaddr);
	fs->sit_blocks = f2_le32(sb->segment_count_sit) / 2 * F2_BLKS_PER_SEG;
	fs->ssa_blkaddr = f2_le32(sb->ssa_blkaddr);
	fs->max_nid = (uint32_t)((uint64_t)fs->nat_blocks * F2_NAT_ENTRIES_PER_BLOCK >
				 0xFFFFFFFFull ? 0xFFFFFFFFu :
				 fs->nat_blocks * F2_NAT_ENTRIES_PER_BLOCK);
}

/* Device map: device 0 starts at block 0 and also holds the blocks before
 * segment 0; each device holds total_segments segments. */
static int map_devices(struct f2_fs *fs)
{
	const struct f2_super *sb = &fs->sb;
	uint64_t next = 0;

	fs->ndevs = 0;
	if (!sb->devs[0].path[0]) {
		fs->ndevs = 1;
		fs->devs[0].start_blk = 0;
		fs->devs[0].end_blk = fs->block_count - 1;
		return 0;
	}
	for (uint32_t i = 0; i < F2_MAX_DEVICES && sb->devs[i].path[0]; i++) {
		uint64_t segs = f2_le32(sb->devs[i].total_segments);
		struct f2_fs_dev *d = &fs->devs[i];

		memcpy(d->path, sb->devs[i].path, F2_MAX_PATH_LEN);
		d->path[F2_MAX_PATH_LEN] = 0;
		d->start_blk = next;
		next += segs * F2_BLKS_PER_SEG + (i == 0 ? fs->seg0_blkaddr : 0);
		if (!segs || next > fs->block_count)
			return f2_fs_fail(fs, F2_ECORRUPT,
					  "superblock: device %u (%s) has %llu segments, "
					  "past block_count %llu", i, d->path,
					  (unsigned long long)segs,
					  (unsigned long long)fs->block_count);
		d->end_blk = next - 1;
		fs->ndevs = i + 1;
	}
	if (next != fs->block_count)
		return f2_fs_fail(fs, F2_ECORRUPT,
				  "superblock: devices hold %llu blocks, block_count is %llu",
				  (unsigned long long)next,
				  (unsigned long long)fs->block_count);
	return 0;
}

int f2_fs_layout(struct f2_fs *fs)
{
	derive_geometry(fs);
	return map_devices(fs);
}

int f2_fs_alloc(struct f2_fs **out)
{
	struct f2_fs *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -12;
	fs->nat_cache = malloc(F2_BLKSIZE);
	fs->sit_cache = malloc(F2_BLKSIZE);
	if (!fs->nat_cache || !fs->sit_cache) {
		free(fs->nat_cache);
		free(fs->sit_cache);
		free(fs);
		return -12;
	}
	fs->nat_cache_addr = fs->sit_cache_addr = UINT64_MAX;
	*out = fs;
	return 0;
}

/* Everything after the I/O stack is in place. */
static int finish_open(struct f2_fs *fs, const struct f2_fs_opts *o)
{
	int err;

	if (fs->io->size / F2_BLKSIZE < fs->block_count)
		return f2_fs_fail(fs, F2_ETOOSMALL,
				  "device holds %llu blocks, superblock says %llu",
				  (unsigned long long)(fs->io->size / F2_BLKSIZE),
				  (unsigned long long)fs->block_count);
	if (o && o->sb_only)
		return 0;
	err = f2_cp_load(fs, o ? o->force_pack : 0);
	return f2_sb_choose(fs, o ? o->force_pack : 0, err);
}

static void report_backup(struct f2_fs *fs, const struct f2_fs_opts *o)
{
	if (fs->sb_merged && o && o->warn)
		o->warn(o->warn_ctx, "neither superblock copy is valid (%s; %s): using one made "
			"from both", fs->sb_why[0], fs->sb_why[1]);
	else if (fs->sb_which == 1 && o && o->warn)
		o->warn(o->warn_ctx, "primary superblock rejected (%s), using the backup",
			fs->sb_why[0]);
}

int f2_fs_open_io(struct f2_io *io, const struct f2_fs_opts *o, struct f2_fs **out)
{
	struct f2_fs *fs;
	int err = f2_fs_alloc(&fs);

	if (err)
		return err;
	fs->io = io;
	if (o) {
		fs->warn = o->warn;
		fs->warn_ctx = o->warn_ctx;
	}
	err = pick_sb(fs, 0);
	if (!err)
		err = f2_fs_layout(fs);
	if (!err) {
		report_backup(fs, o);
		err = finish_open(fs, o);
	}
	*out = fs;	/* even on failure: fs->why explains; caller closes */
	return err;
}

static int open_devices(struct f2_fs *fs, struct f2_io *first, const struct f2_fs_opts *o)
{
	struct f2_io *devs[F2_MAX_DEVICES] = { first };
	uint64_t lens[F2_MAX_DEVICES];
	int err = 0;

	for (uint32_t i = 0; i < fs->ndevs && !err; i++) {
		const char *p;

		lens[i] = (fs->devs[i].end_blk - fs->devs[i].start_blk + 1) * F2_BLKSIZE;
		if (i == 0) {
			if (first->size < lens[0])
				err = f2_fs_fail(fs, F2_ETOOSMALL, "device 0 holds %llu bytes, needs %llu",
						 (unsigned long long)first->size,
						 (unsigned long long)lens[0]);
			continue;
		}
		p = (o && o->ndevs) ? (i - 1 < o->ndevs ? o->dev_paths[i - 1] : NULL)
				    : fs->devs[i].path;
		if (!p) {
			err = f2_fs_fail(fs, F2_EBADOPT, "device %u of %u not given", i, fs->ndevs);
			break;
		}
		err = f2_io_open(p, F2_IO_RDONLY, &devs[i]);
		if (err) {
			devs[i] = NULL;
			f2_fs_fail(fs, err, "device %u: cannot open %s: %s", i, p, f2_strerror(err));
		} else if (devs[i]->size < lens[i]) {
			err = f2_fs_fail(fs, F2_ETOOSMALL, "device %u (%s) holds %llu bytes, needs %llu",
					 i, p, (unsigned long long)devs[i]->size,
					 (unsigned long long)lens[i]);
		} else if (o && o->last_dev_whole && i == fs->ndevs - 1) {
			lens[i] = devs[i]->size / F2_BLKSIZE * F2_BLKSIZE;
		}
	}
	if (!err) {
		err = f2_io_open_concat(devs, lens, fs->ndevs, &fs->io);
		if (!err)
			return 0;
		f2_fs_fail(fs, err, "cannot join the devices: %s", f2_strerror(err));
	}
	for (uint32_t k = 1; k < F2_MAX_DEVICES; k++)
		if (devs[k])
			f2_io_close(devs[k]);
	return err;
}

int f2_fs_open(const char *path, const struct f2_fs_opts *o, struct f2_fs **out)
{
	struct f2_fs *fs;
	struct f2_io *io;
	int err = f2_fs_alloc(&fs);

	if (err)
		return err;
	*out = fs;
	err = f2_io_open(path, F2_IO_RDONLY, &io);
	if (err)
		return f2_fs_fail(fs, err, "%s: %s", path, f2_strerror(err));
	fs->io = io;
	fs->own_io = 1;
	if (o) {
		fs->warn = o->warn;
		fs->warn_ctx = o->warn_ctx;
	}
	err = pick_sb(fs, 0);
	if (err)
		return err;
	err = f2_fs_layout(fs);
	if (err)
		return err;
	report_backup(fs, o);
	if (fs->ndevs > 1) {
		err = open_devices(fs, io, o);
		if (err)
			return err;
	}
	return finish_open(fs, o);
}

void f2_fs_close(struct f2_fs *fs)
{
	if (!fs)
		return;
	if (fs->own_io && fs->io)
		f2_io_close(fs->io);
	free(fs->cp_raw);
	free(fs->nat_cache);
	free(fs->sit_cache);
	free(fs);
}
