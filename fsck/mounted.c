// SPDX-License-Identifier: GPL-2.0-or-later
/* mounted.c - is the device (or image file) mounted, and read-only? */
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "mounted.h"

int fsck_mounted(const char *path, char *where, size_t len, int *ro)
{
	struct stat dev, st;
	struct mntent *m;
	FILE *f;
	int found = 0;

	*ro = 0;
	if (stat(path, &dev))
		return 0;
	f = setmntent("/proc/mounts", "r");
	if (!f)
		return 0;
	while (!found && (m = getmntent(f))) {
		if (stat(m->mnt_fsname, &st))
			continue;
		if (S_ISBLK(dev.st_mode))
			found = S_ISBLK(st.st_mode) && st.st_rdev == dev.st_rdev;
		else
			found = st.st_ino == dev.st_ino && st.st_dev == dev.st_dev;
		if (found) {
			snprintf(where, len, "%s", m->mnt_dir);
			*ro = hasmntopt(m, "ro") != NULL;
		}
	}
	endmntent(f);
	return found;
}
