// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c - mount.f2fs: resolve SPEC and attach image files to loop
 * devices.  A loop device is configured in one step (LOOP_CONFIGURE, or
 * LOOP_SET_FD + LOOP_SET_STATUS64 on kernels before 5.8) with autoclear,
 * so it disappears when the file system it carries is unmounted, or when
 * this helper closes it after a failure.
 */
#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "source.h"

static int is_tag(const char *spec)
{
	static const char *const tags[] = { "UUID=", "LABEL=", "PARTUUID=", "PARTLABEL=", NULL };

	for (int i = 0; tags[i]; i++)
		if (!strncmp(spec, tags[i], strlen(tags[i])))
			return 1;
	return 0;
}

int mh_source_resolve(const char *spec, struct mh_source *s, char *why, size_t wl)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->loop_fd = -1;
	if (is_tag(spec)) {
		s->path = blkid_evaluate_tag(spec, NULL, NULL);
		if (!s->path) {
			snprintf(why, wl, "no device with %s found", spec);
			return -1;
		}
	} else {
		s->path = strdup(spec);
		if (!s->path) {
			snprintf(why, wl, "out of memory");
			return -1;
		}
	}
	if (stat(s->path, &st)) {
		snprintf(why, wl, "%s: %s", s->path, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		s->is_file = 1;
	} else if (!S_ISBLK(st.st_mode)) {
		snprintf(why, wl, "%s is neither a block device nor an image file", s->path);
		return -1;
	}
	return 0;
}

static int configure(int lfd, int ffd, int ro, const char *path)
{
	struct loop_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (uint32_t)ffd;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | (ro ? LO_FLAGS_READ_ONLY : 0);
	snprintf((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), "%s", path);
	if (!ioctl(lfd, LOOP_CONFIGURE, &cfg))
		return 0;
	if (errno != EINVAL && errno != ENOTTY)
		return -1;
	/* kernels before 5.8: two steps */
	if (ioctl(lfd, LOOP_SET_FD, ffd))
		return -1;
	if (ioctl(lfd, LOOP_SET_STATUS64, &cfg.info)) {
		int e = errno;

		ioctl(lfd, LOOP_CLR_FD, 0);
		errno = e;
		return -1;
	}
	return 0;
}

int mh_loop_attach(struct mh_source *s, int ro, int *forced_ro, char *why, size_t wl)
{
	int ctl, ffd, tries;

	*forced_ro = 0;
	ffd = open(s->path, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (ffd < 0 && !ro && (errno == EACCES || errno == EROFS || errno == EPERM)) {
		ffd = open(s->path, O_RDONLY | O_CLOEXEC);
		if (ffd >= 0)
			*forced_ro = ro = 1;
	}
	if (ffd < 0) {
		snprintf(why, wl, "cannot open %s: %s", s->path, strerror(errno));
		return -1;
	}
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		snprintf(why, wl, "cannot open /dev/loop-control: %s (is the loop driver loaded?)",
		    strerror(errno));
		close(ffd);
		return -1;
	}
	/* another process may take the free device between the two calls */
	for (tries = 0; tries < 16; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		int lfd;

		if (n < 0) {
			snprintf(why, wl, "no free loop device: %s", strerror(errno));
			break;
		}
		snprintf(s->loopdev, sizeof(s->loopdev), "/dev/loop%d", n);
		lfd = open(s->loopdev, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
		if (lfd < 0) {
			snprintf(why, wl, "cannot open %s: %s", s->loopdev, strerror(errno));
			if (errno == ENOENT || errno == ENXIO)
				continue;
			break;
		}
		if (!configure(lfd, ffd, ro, s->path)) {
			s->loop_fd = lfd;
			s->loop_ro = ro;
			close(ffd);
			close(ctl);
			return 0;
		}
		snprintf(why, wl, "cannot attach %s to %s: %s", s->path, s->loopdev, strerror(errno));
		close(lfd);
		if (errno != EBUSY)
			break;
	}
	s->loopdev[0] = 0;
	close(ffd);
	close(ctl);
	return -1;
}

void mh_loop_detach(struct mh_source *s)
{
	if (s->loop_fd >= 0) {
		ioctl(s->loop_fd, LOOP_CLR_FD, 0);
		close(s->loop_fd);
	}
	s->loop_fd = -1;
	s->loopdev[0] = 0;
}

void mh_loop_keep(struct mh_source *s)
{
	if (s->loop_fd >= 0)
		close(s->loop_fd);
	s->loop_fd = -1;
}

void mh_source_free(struct mh_source *s)
{
	mh_loop_detach(s);
	free(s->path);
	s->path = NULL;
}
