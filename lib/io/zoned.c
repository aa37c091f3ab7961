// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zoned.c - zoned block devices: the zone model from sysfs, the zone list
 * from BLKREPORTZONE, the checks and counts the layout needs (pure, on a
 * plain zone list), write-pointer resets, and an I/O backend that delays
 * writes to sequential zones and issues them in ascending order.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/blkzoned.h>

#include "f2/errors.h"
#include "f2/format.h"
#include "f2/zoned.h"
#include "io_private.h"

#define SECTORS_PER_BLOCK	(F2_BLKSIZE / 512)
#define REPORT_BATCH		4096	/* zones per BLKREPORTZONE call */

/* Read the first word of /sys/dev/block/MAJ:MIN/<attr>; partitions use
 * their disk's queue.  Returns 0, -ENOENT when absent, or -errno. */
static int sysfs_word(dev_t rdev, const char *attr, char *buf, size_t len)
{
	static const char *const up[] = { "", "../" };
	char dir[64], path[160];
	FILE *f = NULL;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	for (size_t i = 0; i < 2 && !f; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, up[i], attr);
		f = fopen(path, "r");
		if (!f && errno != ENOENT)
			return -errno;
	}
	if (!f)
		return -ENOENT;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, " \n")] = 0;
	return 0;
}

int f2_zoned_model(const char *path, enum f2_zone_model *model, uint64_t *zone_sectors)
{
	struct stat st;
	char word[64];
	int err;

	*model = F2_ZONED_NONE;
	*zone_sectors = 0;
	if (stat(path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return 0;
	err = sysfs_word(st.st_rdev, "queue/zoned", word, sizeof(word));
	if (err == -ENOENT)
		return 0;	/* a kernel without zoned support */
	if (err)
		return err;
	if (!strcmp(word, "none"))
		return 0;
	if (!strcmp(word, "host-aware"))
		*model = F2_ZONED_HA;
	else if (!strcmp(word, "host-managed"))
		*model = F2_ZONED_HM;
	else
		return F2_EUNSUPP;
	err = sysfs_word(st.st_rdev, "queue/chunk_sectors", word, sizeof(word));
	if (err)
		return err;
	*zone_sectors = strtoull(word, NULL, 10);
	return 0;
}

int f2_zoned_fd_is_zoned(int fd)
{
	struct stat st;
	char word[64];

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		return 0;
	if (sysfs_word(st.st_rdev, "queue/zoned", word, sizeof(word)))
		return 0;
	return strcmp(word, "none") != 0;
}

void f2_zone_list_free(struct f2_zone_list *zl)
{
	free(zl->zones);
	zl->zones = NULL;
	zl->nr_zones = 0;
}

/* Call fn on each zone reported for [sector, end); stops on fn's error. */
typedef int (*zone_fn)(int fd, const struct blk_zone *z, uint32_t flags, void *ctx);

static int each_zone(int fd, uint64_t sector, uint64_t end, zone_fn fn, void *ctx)
{
	size_t size = sizeof(struct blk_zone_report) + REPORT_BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *rep = malloc(size);
	int err = 0;

	if (!rep)
		return -ENOMEM;
	while (sector < end && !err) {
		memset(rep, 0, size);
		rep->sector = sector;
		rep->nr_zones = REPORT_BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep)) {
			err = -errno;
			break;
		}
		if (!rep->nr_zones)
			break;
		if (rep->nr_zones > REPORT_BATCH) {
			err = F2_ECORRUPT;	/* more zones than asked for */
			break;
		}
		for (uint32_t i = 0; i < rep->nr_zones && sector < end && !err; i++) {
			const struct blk_zone *z = &rep->zones[i];

			if (z->len == 0 || z->start + z->len <= sector) {
				err = F2_ECORRUPT;	/* no progress: a broken report */
				break;
			}
			err = fn(fd, z, rep->flags, ctx);
			sector = z->start + z->len;
		}
	}
	free(rep);
	return err;
}

struct collector {
	struct f2_zone_list *zl;
	uint32_t cap;		/* entries allocated */
};

static int collect(int fd, const struct blk_zone *z, uint32_t flags, void *ctx)
{
	struct collector *c = ctx;
	struct f2_zone_list *zl = c->zl;
	struct f2_zone *n;

	(void)fd;
	if (zl->nr_zones == c->cap) {
		uint32_t ncap = c->cap ? c->cap * 2 : 64;

		if (ncap <= c->cap)
			return F2_ERANGE;
		n = realloc(zl->zones, (size_t)ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		zl->zones = n;
		c->cap = ncap;
	}
	n = &zl->zones[zl->nr_zones++];
	n->start = z->start;
	n->len = z->len;
	/* kernels before 5.9 leave capacity unset and the flag clear */
	n->cap = (flags & BLK_ZONE_REP_CAPACITY) ? z->capacity : z->len;
	n->wp = z->wp;
	n->type = z->type;
	n->cond = z->cond;
	return 0;
}

int f2_zoned_report(int fd, uint64_t dev_sectors, struct f2_zone_list *zl)
{
	struct collector c = { .zl = zl };
	int err;

	zl->zones = NULL;
	zl->nr_zones = 0;
	err = each_zone(fd, 0, dev_sectors, collect, &c);
	if (!err && (!zl->nr_zones || zl->zones[zl->nr_zones - 1].start +
		     zl->zones[zl->nr_zones - 1].len != dev_sectors))
		err = F2_ECORRUPT;
	if (err)
		f2_zone_list_free(zl);
	return err;
}


int f2_zones_summarize(const struct f2_zone_list *zl, struct f2_zone_summary *s,
		       char *why, size_t wl)
{
	const uint64_t seg_sectors = (uint64_t)F2_BLKS_PER_SEG * SECTORS_PER_BLOCK;
	uint64_t zs = zl->zone_sectors, next = 0;
	int leading = 1;

	memset(s, 0, sizeof(*s));
	if (!zs || (zs & (zs - 1)))
		return f2_why(why, wl, F2_EUNSUPP, "zone size of %llu sectors is not a power of two",
			   (unsigned long long)zs);
	if (zs % seg_sectors)
		return f2_why(why, wl, F2_EUNSUPP, "zone size of %llu KiB is not a multiple of the "
			   "2 MiB segment", (unsigned long long)zs / 2);
	if (!zl->nr_zones || !zl->zones)
		return f2_why(why, wl, F2_ECORRUPT, "no zones reported");
	s->zone_blocks = zs / SECTORS_PER_BLOCK;
	s->nr_zones = zl->nr_zones;
	for (uint32_t i = 0; i < zl->nr_zones; i++) {
		const struct f2_zone *z = &zl->zones[i];
		int random = z->type == F2_ZONE_CONV || z->type == F2_ZONE_SEQ_PREF;
		uint64_t cap_blocks;

		if (z->start != next || !z->len || z->len > zs ||
		    (z->len != zs && i + 1 != zl->nr_zones))
			return f2_why(why, wl, F2_ECORRUPT, "zone %u (sector %llu, %llu sectors) "
				   "breaks the zone tiling", i, (unsigned long long)z->start,
				   (unsigned long long)z->len);
		if (z->type < F2_ZONE_CONV || z->type > F2_ZONE_SEQ_PREF)
			return f2_why(why, wl, F2_EUNSUPP, "zone %u has unknown type %u", i, z->type);
		if (z->cap > z->len)
			return f2_why(why, wl, F2_ECORRUPT, "zone %u capacity %llu exceeds its "
				   "size %llu", i, (unsigned long long)z->cap,
				   (unsigned long long)z->len);
		next = z->start + z->len;
		if (z->cond == F2_ZCOND_READONLY || z->cond == F2_ZCOND_OFFLINE)
			leading = 0;
		if (random && leading)
			s->nr_rnd_zones++;
		else
			leading = 0;
		if (z->type == F2_ZONE_CONV)
			s->nr_conv_zones++;
		/* a conventional zone is writable over its whole length */
		cap_blocks = (z->type == F2_ZONE_CONV ? z->len : z->cap) / SECTORS_PER_BLOCK;
		if (cap_blocks < z->len / SECTORS_PER_BLOCK)
			s->cap_smaller = 1;
		s->usable_segs += (cap_blocks + F2_BLKS_PER_SEG - 1) / F2_BLKS_PER_SEG;
	}
	return 0;
}

struct reset_ctx {
	uint64_t lo, hi;	/* sectors */
	uint32_t n;
	int count_only;
};

static int reset_one(int fd, const struct blk_zone *z, uint32_t flags, void *ctx)
{
	struct reset_ctx *r = ctx;
	struct blk_zone_range range = { .sector = z->start, .nr_sectors = z->len };

	(void)flags;
	if (z->type == BLK_ZONE_TYPE_CONVENTIONAL || z->cond == BLK_ZONE_COND_EMPTY ||
	    z->start < r->lo || z->start + z->len > r->hi)
		return 0;
	while (!r->count_only && ioctl(fd, BLKRESETZONE, &range)) {
		if (errno != EINTR)
			return -errno;
	}
	r->n++;
	return 0;
}

static int reset_walk(int fd, uint64_t off, uint64_t len, int count_only, uint32_t *n)
{
	struct reset_ctx r = { .lo = (off + 511) / 512, .hi = (off + len) / 512,
			       .count_only = count_only };
	int err;

	if (n)
		*n = 0;
	if (r.hi <= r.lo)
		return 0;
	/* the report starts at the zone holding lo; zones before lo are skipped */
	err = each_zone(fd, r.lo, r.hi, reset_one, &r);
	if (n)
		*n = r.n;
	return err;
}

int f2_zoned_reset_range(int fd, uint64_t off, uint64_t len, uint32_t *nreset)
{
	return reset_walk(fd, off, len, 0, nreset);
}

int f2_zoned_count_resettable(int fd, uint64_t off, uint64_t len, uint32_t *n)
{
	return reset_walk(fd, off, len, 1, n);
}

/*
 * The ordered backend.  Writes at or past seq_start are kept in memory and
 * written out sorted by offset at the next flush (or before any other call
 * that could observe them), so a writer may fill a sequential zone in any
 * order as long as the blocks it writes are contiguous from the zone start.
 */
struct pending {
	uint64_t off;
	size_t len;
	uint8_t *data;
};

struct ordered {
	uint64_t seq_start;
	struct pending *w;
	size_t n, cap;
};

static int cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int drain(struct f2_io *io)
{
	struct ordered *o = io->priv;
	int err = 0;

	qsort(o->w, o->n, sizeof(*o->w), cmp_pending);
	for (size_t i = 0; i < o->n; i++) {
		if (!err)
			err = f2_io_write(io->lower, o->w[i].off, o->w[i].data, o->w[i].len);
		free(o->w[i].data);
	}
	o->n = 0;
	return err;
}

static int o_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	int err = drain(io);

	return err ? err : f2_io_read(io->lower, off, buf, len);
}

static int o_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	struct ordered *o = io->priv;
	struct pending *p;

	if (!f2_io_in_range(io, off, len))
		return F2_ERANGE;
	if (off < o->seq_start)
		return f2_io_write(io->lower, off, buf, len);
	/* a rewrite of a pending range replaces it */
	for (size_t i = 0; i < o->n; i++)
		if (o->w[i].off == off && o->w[i].len == len) {
			memcpy(o->w[i].data, buf, len);
			return 0;
		}
	if (o->n == o->cap) {
		size_t ncap = o->cap ? o->cap * 2 : 16;

		p = realloc(o->w, ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		o->w = p;
		o->cap = ncap;
	}
	p = &o->w[o->n];
	p->data = malloc(len ? len : 1);
	if (!p->data)
		return -ENOMEM;
	memcpy(p->data, buf, len);
	p->off = off;
	p->len = len;
	o->n++;
	return 0;
}

static int o_flush(struct f2_io *io)
{
	int err = drain(io);

	return err ? err : f2_io_flush(io->lower);
}

static int o_discard(struct f2_io *io, uint64_t off, uint64_t len)
{
	int err = drain(io);

	return err ? err : f2_io_discard(io->lower, off, len);
}

static int o_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	int err = drain(io);

	return err ? err : f2_io_zero(io->lower, off, len);
}

static void o_close(struct f2_io *io)
{
	struct ordered *o = io->priv;

	for (size_t i = 0; i < o->n; i++)
		free(o->w[i].data);
	free(o->w);
	free(o);
}

static const struct f2_io_ops ordered_ops = {
	.name = "ordered", .read = o_read, .write = o_write, .flush = o_flush,
	.discard = o_discard, .zero = o_zero, .close = o_close,
};

int f2_io_open_ordered(struct f2_io *lower, uint64_t seq_start, struct f2_io **out)
{
	struct ordered *o = calloc(1, sizeof(*o));

	if (!o)
		return -ENOMEM;
	o->seq_start = seq_start;
	*out = f2_io_alloc(&ordered_ops, lower->size, lower->name, lower);
	if (!*out) {
		free(o);
		return -ENOMEM;
	}
	(*out)->priv = o;
	return 0;
}
