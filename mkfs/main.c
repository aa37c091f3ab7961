// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - mkfs.f2fs: check the device, plan the layout, format. */
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uuid.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/io.h"
#include "f2/zoned.h"
#include "support/mounted.h"
#include "options.h"
#include "probe.h"
#include "zoned.h"

static void warn_cb(void *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	fputs("mkfs.f2fs: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint32_t sector_size_of(const char *path)
{
	struct stat st;
	int fd, ss = 512;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return 512;
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (ioctl(fd, BLKSSZGET, &ss) || ss < 512)
			ss = 512;
		close(fd);
	}
	return (uint32_t)ss;
}

static void kernel_version(char *buf, size_t len)
{
	FILE *f = fopen("/proc/version", "r");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

static int check_device(const struct mkfs_cmd *c, const char *dev)
{
	char what[128];

	if (sup_mounted(dev, what, sizeof(what), NULL)) {
		fprintf(stderr, "mkfs.f2fs: %s is mounted on %s; not formatting it\n", dev, what);
		return -1;
	}
	if (!c->force && f2_io_is_sparse(dev) == 1) {
		fprintf(stderr, "mkfs.f2fs: %s is an Android sparse image; use -f to overwrite it\n",
			dev);
		return -1;
	}
	if (!c->force && probe_contents(dev, what, sizeof(what))) {
		fprintf(stderr, "mkfs.f2fs: %s contains %s; use -f to overwrite it\n", dev, what);
		return -1;
	}
	return 0;
}

static int close_all(struct f2_io **devs, uint32_t n, int rc)
{
	for (uint32_t i = 0; i < n; i++)
		if (devs[i])
			f2_io_close(devs[i]);
	return rc;
}

/* --populate: copy --root into an existing, unmounted volume. */
static int populate_existing(const struct mkfs_cmd *c)
{
	char what[128];

	if (sup_mounted(c->devices[0], what, sizeof(what), NULL)) {
		fprintf(stderr, "mkfs.f2fs: %s is mounted on %s; not populating it\n",
			c->devices[0], what);
		return 1;
	}
	return pop_run(c->devices[0], &c->pop, stderr) ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct mkfs_cmd c;
	struct f2_geom g;
	struct f2_super sb;
	struct f2_io *io, *devs[F2_MAX_DEVICES] = { NULL };
	const struct f2_feature *dep;
	char version[F2_VERSION_LEN], uuid_str[37], feats[256];
	const char *why = "";
	uint64_t bytes;
	int r = mkfs_parse(argc, argv, &c), err;

	if (r)
		return r > 0 ? 0 : 1;
	if (c.pop.root && c.fixed_time >= 0)
		c.pop.fixed_time = c.fixed_time;
	else if (c.pop.root && getenv("SOURCE_DATE_EPOCH"))
		c.pop.fixed_time = strtoll(getenv("SOURCE_DATE_EPOCH"), NULL, 10);
	c.pop.quiet = c.quiet;
	if (c.populate_only)
		return populate_existing(&c);
	if (c.pop.root && c.ndevs > 1) {
		fprintf(stderr, "mkfs.f2fs: --root with -c is not supported yet\n");
		return 1;
	}
	if (c.pop.root && c.fs.geom.zoned) {
		fprintf(stderr, "mkfs.f2fs: --root on zoned devices is not supported yet\n");
		return 1;
	}
	if (f2_features_check(c.fs.sb.features, &dep)) {
		fprintf(stderr, "mkfs.f2fs: feature %s requires extra_attr\n", dep->name);
		return 1;
	}
	if ((c.fs.sb.features & F2_FEAT_CASEFOLD) && !c.fs.sb.encoding)
		c.fs.sb.encoding = F2_ENC_UTF8_12_1;
	if (c.fs.geom.zoned)
		c.fs.sb.features |= F2_FEAT_BLKZONED;
	for (uint32_t i = 0; i < c.ndevs; i++) {
		if (check_device(&c, c.devices[i]))
			return close_all(devs, i, 1);
		/* one device: F2_IO_RECORD / F2_IO_FAULT stack on it; several:
		 * on their join below (one log of the joined space) */
		if (c.sparse_size)	/* -S: a new image, written at the first flush */
			err = f2_io_create_sparse(c.devices[i], c.sparse_size, &devs[i]);
		else if (c.ndevs == 1)
			err = f2_io_open(c.devices[i], F2_IO_RDWR | F2_IO_EXCL | F2_IO_BEHIND, &devs[i]);
		else
			err = f2_io_open_unix(c.devices[i], F2_IO_RDWR | F2_IO_EXCL | F2_IO_BEHIND, &devs[i]);
		if (err) {
			fprintf(stderr, "mkfs.f2fs: cannot open %s: %s\n", c.devices[i],
				f2_strerror(err));
			return close_all(devs, i, 1);
		}
		/* the superblock records the device's sector size; -w only sets
		 * the unit of the trailing sector count */
		c.fs.geom.devs[i].total_sectors = devs[i]->size / sector_size_of(c.devices[i]);
	}
	c.fs.geom.ndevs = c.ndevs;
	c.fs.geom.sector_size = sector_size_of(c.devices[0]);
	{
		uint64_t dev_bytes[F2_MAX_DEVICES];

		for (uint32_t i = 0; i < c.ndevs; i++)
			dev_bytes[i] = devs[i]->size;
		/* a sparse image is a new file, never a zoned device */
		if (!c.sparse_size && mkfs_zones_setup(&c, dev_bytes))
			return close_all(devs, c.ndevs, 1);
	}
	bytes = devs[0]->size;
	if (c.wanted_sectors) {
		uint64_t unit = c.wanted_sector_size ? c.wanted_sector_size :
				c.fs.geom.sector_size;
		uint64_t want = c.wanted_sectors * unit / c.fs.geom.sector_size;

		if (want < c.fs.geom.devs[0].total_sectors)
			c.fs.geom.devs[0].total_sectors = want;
	}
	c.fs.geom.features = c.fs.sb.features;	/* ro changes the layout */
	err = f2_geometry_compute(&c.fs.geom, &g, &why);
	if (err) {
		fprintf(stderr, "mkfs.f2fs: %s (%llu bytes): %s: %s\n", c.devices[0],
			(unsigned long long)bytes, f2_strerror(err), why);
		return close_all(devs, c.ndevs, 1);
	}
	if (c.ndevs == 1) {
		io = devs[0];
	} else {
		uint64_t lens[F2_MAX_DEVICES];

		for (uint32_t i = 0; i < c.ndevs; i++)
			lens[i] = (g.dev_end_blkaddr[i] - g.dev_start_blkaddr[i] + 1) * F2_BLKSIZE;
		err = f2_io_open_joined(devs, lens, c.ndevs, &io);	/* takes devs */
		if (err) {
			fprintf(stderr, "mkfs.f2fs: cannot join the devices: %s\n", f2_strerror(err));
			return 1;
		}
	}
	if (c.fs.geom.zoned) {
		/* the tree's blocks reach each sequential zone in write-pointer order */
		struct f2_io *ordered;

		err = f2_io_open_ordered(io, (uint64_t)g.main_blkaddr * F2_BLKSIZE, &ordered);
		if (err) {
			fprintf(stderr, "mkfs.f2fs: %s\n", f2_strerror(err));
			f2_io_close(io);
			return 1;
		}
		io = ordered;
	}

	if (c.uuid_text) {
		if (uuid_parse(c.uuid_text, c.fs.sb.uuid)) {
			fprintf(stderr, "mkfs.f2fs: '%s' is not a valid UUID\n", c.uuid_text);
			f2_io_close(io);
			return 1;
		}
	} else {
		uuid_generate(c.fs.sb.uuid);
	}
	if (c.fixed_time >= 0) {
		c.fs.timestamp = (uint64_t)c.fixed_time;
	} else {
		const char *sde = getenv("SOURCE_DATE_EPOCH");

		c.fs.timestamp = sde ? strtoull(sde, NULL, 10) : (uint64_t)time(NULL);
	}
	/* deterministic when reproducibility is asked for, random otherwise */
	if (c.zero_seed || c.fixed_time >= 0 || getenv("SOURCE_DATE_EPOCH"))
		c.fs.cp_ver = f2_crc32(~0u, c.fs.sb.uuid, 16) | 1;
	else
		c.fs.cp_ver = ((uint64_t)random() ^ (uint64_t)time(NULL) ^ (uint64_t)getpid()) | 1;
	kernel_version(version, sizeof(version));
	c.fs.sb.version = version;
	c.fs.sb.ndevs = c.ndevs;
	for (uint32_t i = 0; i < c.ndevs; i++)
		c.fs.sb.dev_paths[i] = c.devices[i];

	err = f2_mkfs_write(io, &c.fs, &g, &sb, warn_cb, NULL);
	f2_io_close(io);
	if (err) {
		fprintf(stderr, "mkfs.f2fs: writing %s failed: %s\n", c.devices[0], f2_strerror(err));
		return 1;
	}
	if (!c.quiet) {
		uuid_unparse(sb.uuid, uuid_str);
		f2_features_format(c.fs.sb.features, feats, sizeof(feats));
		printf("%s: %llu MiB, %u segments (%u main), %u per section, %u sections per zone\n",
		       c.devices[0], (unsigned long long)(g.block_count >> 8), g.segment_count,
		       g.segment_count_main, g.segs_per_sec, g.secs_per_zone);
		printf("  overprovision %.2f%% (%u segments, %u reserved), %llu MiB for users\n",
		       g.overprovision, g.overprov_segments, g.reserved_segments,
		       (unsigned long long)(g.user_block_count >> 8));
		printf("  features: %s\n  UUID: %s\n", feats[0] ? feats : "none", uuid_str);
	}
	/* --root: the tree goes in through the engine, committed by its own
	 * checkpoint (a crash leaves the empty file system just made) */
	if (c.pop.root && pop_run(c.devices[0], &c.pop, stderr))
		return 1;
	return 0;
}
