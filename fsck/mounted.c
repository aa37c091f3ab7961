// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mounted.c - is the device (or image file) mounted, and read-only?
 * A block device is matched by device number in /proc/mounts; an image
 * file by inode, either as a mount source itself or as the backing file
 * of a loop device that is mounted.
 */
#include <dirent.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "mounted.h"

/* Is some mount's source the block device rdev (or, rdev 0, the file
 * with this dev/ino)? */
static int find_mount(dev_t rdev, dev_t fdev, ino_t fino, char *where, size_t len, int *ro)
{
	struct mntent *m;
	struct stat st;
	FILE *f = setmntent("/proc/mounts", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && (m = getmntent(f))) {
		if (stat(m->mnt_fsname, &st))
			continue;
		if (rdev)
			found = S_ISBLK(st.st_mode) && st.st_rdev == rdev;
		else
			found = st.st_ino == fino && st.st_dev == fdev;
		if (found) {
			snprintf(where, len, "%s", m->mnt_dir);
			*ro = hasmntopt(m, "ro") != NULL;
		}
	}
	endmntent(f);
	return found;
}

/* A loop device backed by the file dev/ino that is mounted. */
static int find_loop(dev_t fdev, ino_t fino, char *where, size_t len, int *ro)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		char p[PATH_MAX], file[PATH_MAX], dev[300];
		struct stat st;
		FILE *f;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (!fgets(file, sizeof(file), f))
			file[0] = 0;
		fclose(f);
		file[strcspn(file, "\n")] = 0;
		if (stat(file, &st) || st.st_ino != fino || st.st_dev != fdev)
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", e->d_name);
		if (!stat(dev, &st) && S_ISBLK(st.st_mode))
			found = find_mount(st.st_rdev, 0, 0, where, len, ro);
	}
	closedir(d);
	return found;
}

int fsck_mounted(const char *path, char *where, size_t len, int *ro)
{
	struct stat dev;

	*ro = 0;
	if (stat(path, &dev))
		return 0;
	if (S_ISBLK(dev.st_mode))
		return find_mount(dev.st_rdev, 0, 0, where, len, ro);
	return find_mount(0, dev.st_dev, dev.st_ino, where, len, ro) ||
	       find_loop(dev.st_dev, dev.st_ino, where, len, ro);
}
