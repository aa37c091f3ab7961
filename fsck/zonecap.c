// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsck/zonecap.c - main segments a zoned device cannot hold: on a
 * host-managed device whose zones' capacity is below their size, the
 * segments that start past a zone's capacity.  The kernel never counts
 * them free (init_free_segmap skips segments with no usable block), so
 * the checkpoint's free_segment_count leaves them out and fsck must
 * too.  Only a zoned block device reports capacities: on an image file
 * every segment counts.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "f2/zoned.h"
#include "fsck.h"

/* Mark the unusable segments of device d (open as fd) in map. */
static void mark_device(const struct f2_fs *fs, uint32_t d, int fd, uint8_t *map)
{
	struct f2_zone_list zl = { 0 };
	off_t end = lseek(fd, 0, SEEK_END);
	uint32_t z = 0;

	if (end <= 0 || f2_zoned_report(fd, (uint64_t)end / 512, &zl))
		return;
	for (uint32_t segno = 0; segno < fs->main_segs; segno++) {
		uint64_t blk = fs->main_blkaddr + (uint64_t)segno * F2_BLKS_PER_SEG, sector;

		if (blk < fs->devs[d].start_blk || blk > fs->devs[d].end_blk)
			continue;
		sector = (blk - fs->devs[d].start_blk) * (F2_BLKSIZE / 512);
		/* zones come in order, as do the segments */
		while (z < zl.nr_zones && zl.zones[z].start + zl.zones[z].len <= sector)
			z++;
		if (z == zl.nr_zones)
			break;
		if (zl.zones[z].type != F2_ZONE_CONV && sector >= zl.zones[z].start &&
		    sector - zl.zones[z].start >= zl.zones[z].cap)
			map[segno] = 1;
	}
	f2_zone_list_free(&zl);
}

uint8_t *fsck_unusable_segs(const struct fsck_ctx *ctx)
{
	const struct f2_fs *fs = ctx->fs;
	uint32_t n = fs->ndevs ? fs->ndevs : 1;
	uint8_t *map = NULL;

	for (uint32_t d = 0; d < n; d++) {
		/* device 0 is the one fsck was given; the others by their path */
		const char *path = d == 0 ? ctx->opts.device : fs->devs[d].path;
		enum f2_zone_model model;
		uint64_t zs;
		int fd;

		if (!path[0])
			continue;
		if (f2_zoned_model(path, &model, &zs) || model != F2_ZONED_HM)
			continue;
		if (!map && !(map = calloc(fs->main_segs, 1)))
			return NULL;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		mark_device(fs, d, fd, map);
		close(fd);
	}
	return map;
}
