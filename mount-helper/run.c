// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - mount.f2fs: find and run fsck.f2fs -p, append to /etc/mtab. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "support/exitcodes.h"
#include "run.h"

static int executable(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK);
}

int mh_fsck_find(const char *prog, char *found, size_t len)
{
	char self[PATH_MAX];
	ssize_t n;
	const char *path;

	if (!prog || !*prog)
		return -1;
	if (strchr(prog, '/')) {
		snprintf(found, len, "%s", prog);
		return executable(found) ? 0 : -1;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = 0;
		slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			snprintf(found, len, "%s/%s", self, prog);
			if (executable(found))
				return 0;
		}
	}
	path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	while (*path) {
		size_t d = strcspn(path, ":");

		snprintf(found, len, "%.*s/%s", (int)d, d ? path : ".", prog);
		if (executable(found))
			return 0;
		path += d;
		path += strspn(path, ":");
	}
	return -1;
}

enum mh_fsck_result mh_fsck_run(const char *found, const char *dev, int *code)
{
	pid_t pid, w;
	int st;

	*code = -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return MH_FSCK_MISSING;
	if (pid == 0) {
		execl(found, found, "-p", dev, (char *)NULL);
		fprintf(stderr, "mount.f2fs: cannot run %s: %s\n", found, strerror(errno));
		_exit(127);
	}
	do
		w = waitpid(pid, &st, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return MH_FSCK_FAILED;
	if (!WIFEXITED(st)) {
		*code = 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		return MH_FSCK_FAILED;
	}
	*code = WEXITSTATUS(st);
	if (*code == 127)
		return MH_FSCK_MISSING;
	if (*code <= FSCK_EXIT_CORRECTED)
		return MH_FSCK_OK;
	if (*code < FSCK_EXIT_UNCORRECTED)	/* REBOOT, with or without CORRECTED */
		return MH_FSCK_REBOOT;
	return MH_FSCK_FAILED;
}

int mh_mtab_add(const char *mtab, const char *spec, const char *dir, const char *opts,
		int *written, char *why, size_t wl)
{
	struct mntent me = {
		.mnt_fsname = (char *)spec, .mnt_dir = (char *)dir,
		.mnt_type = (char *)"f2fs", .mnt_opts = (char *)opts,
	};
	struct stat st;
	FILE *f;
	int fd, bad;

	*written = 0;
	if (lstat(mtab, &st) || !S_ISREG(st.st_mode))
		return 0;
	fd = open(mtab, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		snprintf(why, wl, "cannot open %s: %s", mtab, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	f = fdopen(fd, "a");
	if (!f) {
		snprintf(why, wl, "cannot open %s: %s", mtab, strerror(errno));
		close(fd);
		return -1;
	}
	bad = addmntent(f, &me) != 0;
	bad |= fflush(f) != 0;
	bad |= fsync(fd) != 0;
	if (bad)
		snprintf(why, wl, "cannot write %s: %s", mtab, strerror(errno));
	fclose(f);
	*written = !bad;
	return bad ? -1 : 0;
}
