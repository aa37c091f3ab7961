/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/zoned.h - zoned block devices: model, zone list, zone resets.
 *
 * Discovery (sysfs and the BLKREPORTZONE ioctl) fills plain structs; the
 * layout questions (how many leading conventional zones, how many usable
 * segments below each zone's capacity) are pure functions of a zone list,
 * so tests feed them synthetic lists without a device.
 *
 * All sector numbers are in 512-byte units, whatever the logical sector
 * size, as the block layer reports them.
 */
#ifndef F2_ZONED_H
#define F2_ZONED_H
#include <stdint.h>
#include <stddef.h>

enum f2_zone_model {
	F2_ZONED_NONE = 0,	/* regular device, image file */
	F2_ZONED_HA = 1,	/* host-aware: random writes allowed */
	F2_ZONED_HM = 2,	/* host-managed: sequential zones must be written in order */
};

/* Values of struct blk_zone's type and cond (linux/blkzoned.h). */
enum f2_zone_type { F2_ZONE_CONV = 1, F2_ZONE_SEQ_REQ = 2, F2_ZONE_SEQ_PREF = 3 };
enum f2_zone_cond {
	F2_ZCOND_NOT_WP = 0, F2_ZCOND_EMPTY = 1, F2_ZCOND_IMP_OPEN = 2,
	F2_ZCOND_EXP_OPEN = 3, F2_ZCOND_CLOSED = 4, F2_ZCOND_READONLY = 0xd,
	F2_ZCOND_FULL = 0xe, F2_ZCOND_OFFLINE = 0xf,
};

struct f2_zone {
	uint64_t start, len;	/* sectors */
	uint64_t cap;		/* writable sectors from start (<= len) */
	uint64_t wp;		/* write pointer, sectors */
	uint8_t type, cond;	/* enum f2_zone_type, enum f2_zone_cond */
};

struct f2_zone_list {
	enum f2_zone_model model;
	uint64_t zone_sectors;	/* nominal zone size */
	uint32_t nr_zones;
	struct f2_zone *zones;	/* nr_zones entries, owned (f2_zone_list_free) */
};

/* What the layout needs from a zone list (f2_zones_summarize). */
struct f2_zone_summary {
	uint64_t zone_blocks;		/* 4 KiB blocks per zone */
	uint32_t nr_zones;
	uint32_t nr_rnd_zones;		/* leading zones writable at random */
	uint32_t nr_conv_zones;		/* conventional zones anywhere */
	uint64_t usable_segs;		/* sum over zones of the 2 MiB segments
					 * starting below the zone capacity */
	int cap_smaller;		/* some zone's capacity is below its size */
};

/*
 * Zone model of path: F2_ZONED_NONE for regular files and non-zoned block
 * devices (or when sysfs has no queue/zoned); the zone size in sectors from
 * queue/chunk_sectors into *zone_sectors (0 when not zoned).  Partitions
 * report their disk's model.  Returns 0 or a negative error (an unknown
 * model string is F2_EUNSUPP).
 */
int f2_zoned_model(const char *path, enum f2_zone_model *model, uint64_t *zone_sectors);

/*
 * Report every zone of the block device open as fd, which holds dev_sectors
 * sectors, into zl (model and zone_sectors are the caller's to fill).
 * F2_ECORRUPT if the zones reported do not tile the device.
 */
int f2_zoned_report(int fd, uint64_t dev_sectors, struct f2_zone_list *zl);
void f2_zone_list_free(struct f2_zone_list *zl);

/*
 * Check a zone list and summarize it.  The zones must tile [0, end) in
 * order with the nominal size (the last may be shorter), the size a power
 * of two and a whole number of 2 MiB segments, capacities within the zone.
 * On failure returns F2_EUNSUPP/F2_ECORRUPT with a reason in why.
 */
int f2_zones_summarize(const struct f2_zone_list *zl, struct f2_zone_summary *s,
		       char *why, size_t why_len);

/*
 * Reset the write pointer of every non-empty sequential zone lying wholly
 * inside the byte range [off, off+len) of the zoned device fd.  Zones cut by
 * the range ends and conventional zones are left alone.  Returns 0 or a
 * negative error; *nreset (may be NULL) gets the number of zones reset.
 */
int f2_zoned_reset_range(int fd, uint64_t off, uint64_t len, uint32_t *nreset);

/* The zones f2_zoned_reset_range would reset, counted; none is reset. */
int f2_zoned_count_resettable(int fd, uint64_t off, uint64_t len, uint32_t *n);

/* 1 if fd is a host-managed or host-aware zoned block device, else 0. */
int f2_zoned_fd_is_zoned(int fd);

/*
 * Stack an ordering backend on lower: writes at byte offsets >= seq_start
 * are held in memory and issued sorted by offset at the next flush, read,
 * discard or zero, so blocks of a sequential zone reach the device in
 * write-pointer order whatever order the writer produced them in.  Closing
 * without a flush drops the held writes.
 */
struct f2_io;
int f2_io_open_ordered(struct f2_io *lower, uint64_t seq_start, struct f2_io **out);
#endif
