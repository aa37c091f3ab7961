/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.h - mount.f2fs: running the fsck program and writing /etc/mtab. */
#ifndef MOUNT_RUN_H
#define MOUNT_RUN_H
#include <stddef.h>

/* The result of the fsck step, from fsck(8) exit codes. */
enum mh_fsck_result {
	MH_FSCK_OK,		/* 0 or 1: clean, or errors corrected */
	MH_FSCK_REBOOT,		/* 2: corrected, reboot advised */
	MH_FSCK_FAILED,		/* 4 and above, or killed: do not mount */
	MH_FSCK_MISSING,	/* the program could not be found or run */
};

/*
 * Find the fsck program: prog (built in, or from $F2_FSCK) is used as is
 * when it holds a '/', else looked up next to this helper's executable,
 * then on PATH.  The found path goes to found[].  Returns 0 or -1.
 */
int mh_fsck_find(const char *prog, char *found, size_t len);
/* Run "found -p dev", waiting for it; *code gets its exit status. */
enum mh_fsck_result mh_fsck_run(const char *found, const char *dev, int *code);

/*
 * Append "spec dir f2fs opts 0 0" to mtab if it is a regular file (not a
 * symlink to /proc/mounts).  Returns 0 (also when nothing was to be
 * written; *written says which) or -1 with why set.
 */
int mh_mtab_add(const char *mtab, const char *spec, const char *dir, const char *opts,
		int *written, char *why, size_t wl);
#endif
