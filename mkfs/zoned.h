/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zoned.h - mkfs.f2fs: zone probing and the checks -m needs. */
#ifndef MKFS_ZONED_H
#define MKFS_ZONED_H
#include "options.h"

/*
 * Probe every device of c for zones and fill c->fs.geom accordingly:
 * sections follow the zone size, per-device zone facts go to the geometry.
 * dev_bytes[i] is the size of device i.  Refuses (message on stderr,
 * returns -1) what the format cannot do: a host-managed device without
 * -m, -m with no zoned device or without discard, zone sizes that differ
 * or do not suit f2fs, a first device with no conventional zone.
 */
int mkfs_zones_setup(struct mkfs_cmd *c, const uint64_t *dev_bytes);
#endif
