// SPDX-License-Identifier: GPL-2.0-or-later
/* probe.c - does a device already hold a file system or partition table?
 * (Whether it is mounted: support/mounted.c.) */
#include <blkid.h>
#include <stdio.h>
#include <string.h>
#include "probe.h"

int probe_contents(const char *path, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL;
	int found = 0;

	if (!pr)
		return 0;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	if (blkid_do_fullprobe(pr) == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
			snprintf(what, len, "a %s file system", type);
			found = 1;
		} else if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
			snprintf(what, len, "a %s partition table", type);
			found = 1;
		}
	}
	blkid_free_probe(pr);
	return found;
}
