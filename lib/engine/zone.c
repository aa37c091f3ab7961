// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/zone.c - where the engine opens new sections, beyond its own
 * round-robin choice (engine/seg.c), and the zones under them:
 *  - placement near a target section, for defrag.f2fs's range moves
 *    (struct eng_place);
 *  - zoned volumes (mkfs -m): a section is one zone, and a zone takes
 *    writes only at its write pointer.  The engine writes every log
 *    sequentially, so what it needs is that a log starts in an empty
 *    zone: the first write of a session to a log moves it to a new
 *    section (the checkpoint's position need not be the write pointer),
 *    and every section a log opens has its zone reset unless empty (the
 *    section is free in the committed checkpoint, so nothing there is
 *    referenced).  After a checkpoint is on disk, the zones of the
 *    sections it left free are reset (eng_zone_reset_free): never before,
 *    since until then the old checkpoint still references their blocks.
 *    A device that is not zoned (the metadata device of mkfs -m -c, an
 *    image file copied off a zoned device) takes no resets.  A reset is
 *    a discard through the I/O layer (the unix backend resets the zones
 *    of a discarded range), so write logs record it; this file's own
 *    descriptors only check and count zones.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/engine.h"
#include "f2/io.h"
#include "f2/zoned.h"
#include "internal.h"

struct eng_zones {
	uint32_t ndevs;
	int fd[F2_MAX_DEVICES];		/* -1: not a zoned device */
	uint8_t log_ok;			/* bit t: log t writes in a zone it opened */
	uint64_t resets;
};

static int sec_is_free(const struct f2_engine *w, uint32_t sec)
{
	uint32_t first = sec * w->segs_per_sec;

	for (uint32_t i = 0; i < w->segs_per_sec; i++)
		if (first + i >= w->fs->main_segs || !f2_test_bit_lsb(w->freemap, first + i))
			return 0;
	return 1;
}

int eng_place_section(struct f2_engine *w, int t, uint32_t *out)
{
	const struct eng_place *p = &w->place;
	uint32_t nsec = w->fs->main_segs / w->segs_per_sec;
	uint32_t sec = p->from_sec < nsec ? p->from_sec : nsec - 1;

	if (!nsec)
		return eng_fail(w, F2_ENOSPC, "no section in the main area");
	for (;;) {
		if (p->hi_sec && (sec < p->lo_sec || sec >= p->hi_sec)) {
			/* outside the bounds: only toward them */
			if (p->left ? sec < p->lo_sec : sec >= p->hi_sec)
				break;
		} else if ((sec < p->skip_lo || sec >= p->skip_hi) && sec_is_free(w, sec)) {
			*out = sec;
			return 0;
		}
		if (p->left ? sec == 0 : sec + 1 >= nsec)
			break;
		sec = p->left ? sec - 1 : sec + 1;
	}
	return eng_fail(w, F2_ENOSPC, "no free section %s section %u for log %d",
		       p->left ? "at or below" : "at or above", p->from_sec, t);
}

void eng_zones_free(struct eng_zones *z)
{
	if (!z)
		return;
	for (uint32_t i = 0; i < z->ndevs; i++)
		if (z->fd[i] >= 0)
			close(z->fd[i]);
	free(z);
}

/* Device holding block a, and the byte offset of a in it. */
static uint32_t dev_of(const struct f2_fs *fs, uint64_t a, uint64_t *off)
{
	for (uint32_t i = 0; i < fs->ndevs; i++)
		if (a >= fs->devs[i].start_blk && a <= fs->devs[i].end_blk) {
			*off = (a - fs->devs[i].start_blk) * F2_BLKSIZE;
			return i;
		}
	*off = 0;
	return 0;
}

/* Reset the zones of sections [lo, hi) (all on one device, or none zoned). */
static int reset_secs(struct f2_engine *w, uint32_t lo, uint32_t hi)
{
	struct f2_fs *fs = w->fs;
	uint64_t sec_blocks = (uint64_t)w->segs_per_sec * F2_BLKS_PER_SEG, off;
	uint64_t a = fs->main_blkaddr + lo * sec_blocks;
	uint32_t d = dev_of(fs, a, &off), n = 0;
	int err;

	if (hi <= lo || w->zones->fd[d] < 0)
		return 0;
	/* counted on the device, reset through the I/O layer (a discard on a
	 * zoned device resets its zones), so that a write log has it */
	err = f2_zoned_count_resettable(w->zones->fd[d], off, (hi - lo) * sec_blocks * F2_BLKSIZE, &n);
	if (!err && n)
		err = f2_io_discard(fs->io, a * F2_BLKSIZE, (hi - lo) * sec_blocks * F2_BLKSIZE);
	if (!err)
		w->zones->resets += n;
	if (err)
		return eng_fail(w, err, "sections %u-%u: zone reset failed: %s", lo, hi - 1,
			       f2_strerror(err));
	return 0;
}

int eng_zone_open(struct f2_engine *w, uint32_t sec)
{
	if (!w->zones)
		return 0;
	return reset_secs(w, sec, sec + 1);
}

int eng_zone_reopen(struct f2_engine *w, int t)
{
	int err = eng_seg_reopen(w, t);

	if (!err && w->zones)
		w->zones->log_ok |= (uint8_t)(1u << t);
	return err;
}

int eng_zone_alloc_check(struct f2_engine *w, int t)
{
	if (!w->zones || (w->zones->log_ok & (1u << t)))
		return 0;
	return eng_zone_reopen(w, t);
}

uint64_t f2_engine_zones_reset(const struct f2_engine *w)
{
	return w->zones ? w->zones->resets : 0;
}

int f2_engine_zone_reset_free(struct f2_engine *w, uint64_t *nreset)
{
	struct f2_fs *fs = w->fs;
	uint32_t nsec = fs->main_segs / w->segs_per_sec, run = UINT32_MAX, rdev = 0;
	uint64_t before;
	int err = 0;

	if (nreset)
		*nreset = 0;
	if (!w->zones)
		return 0;
	before = w->zones->resets;
	for (uint32_t sec = 0; !err && sec <= nsec; sec++) {
		uint64_t off;
		uint32_t d = sec < nsec ? dev_of(fs, fs->main_blkaddr + (uint64_t)sec *
					       w->segs_per_sec * F2_BLKS_PER_SEG, &off) : 0;
		int take = sec < nsec && sec_is_free(w, sec);

		/* close the run at a used section or a device boundary */
		if (run != UINT32_MAX && (!take || d != rdev)) {
			err = reset_secs(w, run, sec);
			run = UINT32_MAX;
		}
		if (take && run == UINT32_MAX) {
			run = sec;
			rdev = d;
		}
	}
	if (nreset)
		*nreset = w->zones->resets - before;
	return err;
}

/* Zones of device d (open as fd) must be the sections: size equal, every
 * sequential zone's capacity its size, main sections zone-aligned. */
static int check_zones(struct f2_fs *fs, uint32_t d, int fd, uint64_t sec_bytes, char *why,
		       size_t len)
{
	struct f2_zone_list zl = { 0 };
	uint64_t bytes = (fs->devs[d].end_blk - fs->devs[d].start_blk + 1) * F2_BLKSIZE, off;
	uint64_t dev_end = lseek(fd, 0, SEEK_END);
	int err;

	if (dev_end == (uint64_t)-1 || dev_end < bytes) {
		snprintf(why, len, "device %u (%s): size unknown or below %llu bytes", d,
			 fs->devs[d].path[0] ? fs->devs[d].path : "0", (unsigned long long)bytes);
		return F2_ETOOSMALL;
	}
	err = f2_zoned_report(fd, dev_end / 512, &zl);
	if (err) {
		snprintf(why, len, "device %u: reporting its zones failed: %s", d, f2_strerror(err));
		return err;
	}
	for (uint32_t i = 0; !err && i < zl.nr_zones; i++) {
		const struct f2_zone *z = &zl.zones[i];

		if (z->type == F2_ZONE_CONV || z->start * 512 >= bytes)
			continue;
		if (z->len * 512 != sec_bytes) {
			snprintf(why, len, "device %u: zone at sector %llu holds %llu bytes, a "
				 "section %llu", d, (unsigned long long)z->start,
				 (unsigned long long)z->len * 512, (unsigned long long)sec_bytes);
			err = F2_EUNSUPP;
		} else if (z->cap != z->len) {
			snprintf(why, len, "device %u: zone capacity below the zone size (zone at "
				 "sector %llu): moving blocks is not supported there", d,
				 (unsigned long long)z->start);
			err = F2_EUNSUPP;
		}
	}
	f2_zone_list_free(&zl);
	/* the main area's first section on this device starts a zone */
	dev_of(fs, fs->main_blkaddr > fs->devs[d].start_blk ? fs->main_blkaddr :
	       fs->devs[d].start_blk, &off);
	if (!err && fs->main_blkaddr >= fs->devs[d].start_blk && off % sec_bytes) {
		snprintf(why, len, "device %u: the main area does not start a zone", d);
		err = F2_EUNSUPP;
	}
	return err;
}

int f2_engine_open_zoned(struct f2_fs *fs, const char *path, struct f2_engine **out,
			 char *why, size_t len)
{
	struct eng_zones *z;
	uint64_t sec_bytes = (uint64_t)f2_le32(fs->sb.segs_per_sec) * F2_BLKS_PER_SEG * F2_BLKSIZE;
	int err = 0;

	*out = NULL;
	why[0] = 0;
	if (!(fs->features & F2_FEAT_BLKZONED)) {
		err = f2_engine_open(fs, NULL, out);
		if (err)
			snprintf(why, len, "%s", fs->why[0] ? fs->why : f2_strerror(err));
		return err;
	}
	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	z->ndevs = fs->ndevs;
	for (uint32_t i = 0; i < F2_MAX_DEVICES; i++)
		z->fd[i] = -1;
	for (uint32_t i = 0; !err && i < fs->ndevs; i++) {
		const char *p = i == 0 ? path : fs->devs[i].path;
		int fd = open(p, O_RDWR | O_CLOEXEC);

		if (fd < 0) {
			err = -errno;
			snprintf(why, len, "device %u: cannot open %s: %s", i, p, strerror(-err));
			break;
		}
		if (!f2_zoned_fd_is_zoned(fd)) {
			close(fd);
			continue;
		}
		z->fd[i] = fd;
		err = check_zones(fs, i, fd, sec_bytes, why, len);
	}
	if (!err) {
		err = eng_open(fs, NULL, out);
		if (err)
			snprintf(why, len, "%s", fs->why[0] ? fs->why : f2_strerror(err));
	}
	if (err) {
		eng_zones_free(z);
		return err;
	}
	(*out)->zones = z;
	return 0;
}
