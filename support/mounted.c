// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mounted.c - the mount check every tool makes before touching a device.
 * A block device is matched by device number against each mount source;
 * an image file by inode, as a mount source itself or as the backing file
 * of a loop device (/sys/block/loopN/loop/backing_file) that is mounted.
 * And what a tool reading a mounted block device needs: its cache dropped.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* secure_getenv */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "mounted.h"

/* What a mount source must be to count. */
struct want {
	enum { BY_RDEV, BY_INODE, BY_NAME } by;	/* block device rdev, file dev/ino */
	dev_t rdev, dev;
	ino_t ino;
	const char *name;	/* also a source spelled /dev/NAME (a loop device) */
};

static const char *test_path(const char *var, const char *dflt)
{
	const char *v = secure_getenv(var);

	return v && *v ? v : dflt;
}

static int source_is(const char *fsname, const struct want *w)
{
	struct stat st;

	if (w->name && !strncmp(fsname, "/dev/", 5) && !strcmp(fsname + 5, w->name))
		return 1;
	if (w->by == BY_NAME || stat(fsname, &st))
		return 0;
	if (w->by == BY_RDEV)
		return S_ISBLK(st.st_mode) && st.st_rdev == w->rdev;
	return st.st_dev == w->dev && st.st_ino == w->ino;
}

static int find_mount(const struct want *w, char *where, size_t len, int *ro)
{
	FILE *f = setmntent(test_path("F2_PROC_MOUNTS", "/proc/self/mounts"), "r");
	struct mntent *m;
	int found = 0;

	if (!f)
		return 0;
	while (!found && (m = getmntent(f)))
		if ((found = source_is(m->mnt_fsname, w))) {
			snprintf(where, len, "%s", m->mnt_dir);
			if (ro)
				*ro = hasmntopt(m, "ro") != NULL;
		}
	endmntent(f);
	return found;
}

/* First line of a sysfs file, newline dropped; 0 or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int r = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = 0;
		r = 0;
	}
	fclose(f);
	return r;
}

/* Is a loop device backed by the file st mounted? */
static int find_loop(const struct stat *file, char *where, size_t len, int *ro)
{
	const char *sys = test_path("F2_SYS_BLOCK", "/sys/block");
	char p[PATH_MAX], line[PATH_MAX];
	struct dirent *e;
	int found = 0;
	DIR *d;

	d = opendir(sys);
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		struct want w = { .by = BY_RDEV, .name = e->d_name };
		unsigned maj, min;
		struct stat st;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "%s/%s/loop/backing_file", sys, e->d_name);
		if (read_line(p, line, sizeof(line)) || stat(line, &st) ||
		    st.st_dev != file->st_dev || st.st_ino != file->st_ino)
			continue;
		snprintf(p, sizeof(p), "%s/%s/dev", sys, e->d_name);
		if (!read_line(p, line, sizeof(line)) && sscanf(line, "%u:%u", &maj, &min) == 2)
			w.rdev = makedev(maj, min);
		else
			w.by = BY_NAME;	/* no dev file: only the name can match */
		found = find_mount(&w, where, len, ro);
	}
	closedir(d);
	return found;
}

int sup_mounted(const char *path, char *where, size_t len, int *ro)
{
	struct want w = { .by = BY_INODE };
	struct stat st;

	if (ro)
		*ro = 0;
	if (stat(path, &st))
		return 0;
	if (S_ISBLK(st.st_mode)) {
		w.by = BY_RDEV;
		w.rdev = st.st_rdev;
		return find_mount(&w, where, len, ro);
	}
	w.dev = st.st_dev;
	w.ino = st.st_ino;
	return find_mount(&w, where, len, ro) || find_loop(&st, where, len, ro);
}

int sup_uncache(const char *path)
{
	struct stat st;
	int fd, r;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);	/* the error, not -1 */
	close(fd);
	return -r;
}
