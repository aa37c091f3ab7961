// SPDX-License-Identifier: GPL-2.0-or-later
/* probe.c - refuse to format mounted devices and existing file systems. */
#include <blkid.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "probe.h"

int probe_mounted(const char *path, char *where, size_t len)
{
	struct stat dev, st;
	struct mntent *m;
	FILE *f;
	int found = 0;

	if (stat(path, &dev))
		return 0;
	f = setmntent("/proc/mounts", "r");
	if (!f)
		return 0;
	while (!found && (m = getmntent(f))) {
		if (S_ISBLK(dev.st_mode)) {
			found = !stat(m->mnt_fsname, &st) && S_ISBLK(st.st_mode) &&
				st.st_rdev == dev.st_rdev;
		} else {
			/* an image file is "mounted" when it is the source (loop) */
			found = !stat(m->mnt_fsname, &st) && st.st_ino == dev.st_ino &&
				st.st_dev == dev.st_dev;
		}
		if (found)
			snprintf(where, len, "%s", m->mnt_dir);
	}
	endmntent(f);
	return found;
}

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
