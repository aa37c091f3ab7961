/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source.h - mount.f2fs: what SPEC names (device, tag, image) and loop devices. */
#ifndef MOUNT_SOURCE_H
#define MOUNT_SOURCE_H
#include <stddef.h>

struct mh_source {
	char *path;		/* the device or image file SPEC resolves to */
	int is_file;		/* a regular file: needs a loop device */
	char loopdev[32];	/* "/dev/loopN" once attached, else "" */
	int loop_fd;		/* open on loopdev while attached, else -1 */
	int loop_ro;		/* attached read-only */
};

/*
 * Resolve spec: UUID=, LABEL=, PARTUUID=, PARTLABEL= through libblkid,
 * else a path that must be a block device or a regular file.  Returns 0
 * or -1 with why set.
 */
int mh_source_resolve(const char *spec, struct mh_source *s, char *why, size_t wl);

/*
 * Attach s->path to a free loop device with autoclear (read-only when ro
 * is set or the file is not writable; *forced_ro then tells which).
 * Returns 0, or -1 with why set: no loop device is left attached.
 */
int mh_loop_attach(struct mh_source *s, int ro, int *forced_ro, char *why, size_t wl);
/* Detach now (after a failure).  Harmless when nothing is attached. */
void mh_loop_detach(struct mh_source *s);
/* After a successful mount: close our handle; autoclear detaches the
 * device when the file system is unmounted. */
void mh_loop_keep(struct mh_source *s);
void mh_source_free(struct mh_source *s);
#endif
