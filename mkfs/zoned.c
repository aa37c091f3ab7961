// SPDX-License-Identifier: GPL-2.0-or-later
/* zoned.c - mkfs.f2fs: find zoned devices and set the layout up for them. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/format.h"
#include "f2/zoned.h"
#include "zoned.h"

static const char *model_name(enum f2_zone_model m)
{
	return m == F2_ZONED_HM ? "host-managed" : m == F2_ZONED_HA ? "host-aware" : "not zoned";
}

/* Zone facts of one device; 0, or -1 after a message. */
static int probe_one(struct mkfs_cmd *c, uint32_t i, uint64_t bytes,
		     enum f2_zone_model *model, struct f2_zone_summary *s)
{
	const char *dev = c->devices[i];
	struct f2_zone_list zl = { 0 };
	char why[160];
	int fd, err;

	err = f2_zoned_model(dev, model, &zl.zone_sectors);
	if (err) {
		fprintf(stderr, "mkfs.f2fs: %s: cannot tell whether it is zoned: %s\n", dev,
			f2_strerror(err));
		return -1;
	}
	if (*model == F2_ZONED_NONE)
		return 0;
	zl.model = *model;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(dev);
		return -1;
	}
	err = f2_zoned_report(fd, bytes / 512, &zl);
	close(fd);
	if (err) {
		fprintf(stderr, "mkfs.f2fs: %s: reporting its zones failed: %s\n", dev,
			f2_strerror(err));
		return -1;
	}
	err = f2_zones_summarize(&zl, s, why, sizeof(why));
	f2_zone_list_free(&zl);
	if (err) {
		fprintf(stderr, "mkfs.f2fs: %s: %s\n", dev, why);
		return -1;
	}
	if (!c->quiet)
		printf("%s: %s zoned device: %u zones of %llu MiB, %u conventional at the "
		       "start%s\n", dev, model_name(*model), s->nr_zones,
		       (unsigned long long)(s->zone_blocks >> 8), s->nr_rnd_zones,
		       s->cap_smaller ? ", zone capacity below zone size" : "");
	return 0;
}

int mkfs_zones_setup(struct mkfs_cmd *c, const uint64_t *dev_bytes)
{
	struct f2_geom_params *g = &c->fs.geom;
	uint64_t zone_blocks = 0;
	int any_hm = 0, any = 0;

	for (uint32_t i = 0; i < c->ndevs; i++) {
		enum f2_zone_model model;
		struct f2_zone_summary s;

		if (probe_one(c, i, dev_bytes[i], &model, &s))
			return -1;
		if (model == F2_ZONED_NONE)
			continue;
		any = 1;
		any_hm |= model == F2_ZONED_HM;
		if (zone_blocks && zone_blocks != s.zone_blocks) {
			fprintf(stderr, "mkfs.f2fs: %s: zones of different sizes in one volume are "
				"not supported\n", c->devices[i]);
			return -1;
		}
		zone_blocks = s.zone_blocks;
		g->devs[i].zoned = 1;
		g->devs[i].host_managed = model == F2_ZONED_HM;
		g->devs[i].nr_rnd_zones = s.nr_rnd_zones;
		g->devs[i].zone_usable_segs = s.usable_segs;
		if (i == 0 && model == F2_ZONED_HM && !s.nr_rnd_zones) {
			fprintf(stderr, "mkfs.f2fs: %s has no conventional zone for the superblock "
				"and metadata; put a regular device first: "
				"mkfs.f2fs -m -c %s <regular device>\n", c->devices[0],
				c->devices[0]);
			return -1;
		}
	}
	if (any_hm && !g->zoned) {
		fprintf(stderr, "mkfs.f2fs: host-managed zoned devices need the zoned block "
			"device feature: use -m\n");
		return -1;
	}
	if (g->zoned && !any) {
		if (c->ndevs > 1)
			fprintf(stderr, "mkfs.f2fs: -m: the volume has no zoned block device\n");
		else
			fprintf(stderr, "mkfs.f2fs: -m: %s is not a zoned block device\n",
				c->devices[0]);
		return -1;
	}
	if (g->zoned && !c->fs.discard) {
		fprintf(stderr, "mkfs.f2fs: -m: zoned devices must be reset before formatting; "
			"-t 0 is not allowed\n");
		return -1;
	}
	if (zone_blocks) {
		/* a section is one device zone (also for host-aware devices
		 * without -m, where it only helps the device) */
		g->segs_per_sec = (uint32_t)(zone_blocks / F2_BLKS_PER_SEG);
		g->secs_per_zone = 1;
	}
	return 0;
}
