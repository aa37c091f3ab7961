// SPDX-License-Identifier: GPL-2.0-or-later
/* common.c - the busy-device refusal and the opens shared by gc.f2fs and
 * defrag.f2fs. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/fs.h"
#include "f2/gc.h"
#include "f2/io.h"
#include "support/mounted.h"
#include "common.h"

/* Is path mounted, or (excl) a block device someone holds open
 * exclusively?  where says which. */
static int device_busy(const char *path, int excl, char *where, size_t len)
{
	char dir[4096];
	struct stat st;
	int fd;

	if (sup_mounted(path, dir, sizeof(dir), NULL)) {
		snprintf(where, len, "mounted on %s", dir);
		return 1;
	}
	if (!excl || stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_EXCL);
	if (fd < 0 && errno == EBUSY) {
		snprintf(where, len, "in use (exclusive open refused)");
		return 1;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static void warn_cb(void *ctx, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", (const char *)ctx);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Refuse a busy path (message on stderr: 1), else set o up for opening it. */
static int refuse_busy(const char *prog, const char *path, struct f2_fs_opts *o)
{
	char where[4200];

	if (device_busy(path, 1, where, sizeof(where))) {
		fprintf(stderr, "%s: %s is %s; clean it only when unmounted\n", prog, path, where);
		return 1;
	}
	memset(o, 0, sizeof(*o));
	o->warn = warn_cb;
	o->warn_ctx = (void *)prog;
	return 0;
}

int gc_open_ro(const char *prog, const char *path, struct f2_fs **fs)
{
	struct f2_fs_opts o;
	uint32_t unsup;
	int r;

	*fs = NULL;
	if (refuse_busy(prog, path, &o))
		return GC_EXIT_ERROR;
	r = f2_fs_open(path, &o, fs);
	if (r) {
		fprintf(stderr, "%s: %s: %s\n", prog, path,
			*fs && (*fs)->why[0] ? (*fs)->why : f2_strerror(r));
		if (*fs)
			f2_fs_close(*fs);
		*fs = NULL;
		return GC_EXIT_ERROR;
	}
	/* a dry run reads on; the writers refuse (f2_fs_open_rw) */
	unsup = f2_features_unsupported((*fs)->features);
	for (uint32_t bit = 1; bit; bit <<= 1)
		if (unsup & bit) {
			char text[512];

			f2_feature_unsupported_text(bit, text, sizeof(text));
			fprintf(stderr, "%s: warning: %s: %s\n", prog, path, text);
		}
	return 0;
}

int gc_open_rw(const char *prog, const char *path, struct f2_io **io, struct f2_fs **fs)
{
	struct f2_fs_opts o;
	char where[4200], why[F2_WHY_LEN + 64];
	int r;

	*io = NULL;
	*fs = NULL;
	if (refuse_busy(prog, path, &o))
		return GC_EXIT_ERROR;
	o.stream = 1;	/* moved sections go to disk while the next is read */
	r = f2_fs_open_rw(path, &o, io, fs, why, sizeof(why));
	if (r) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, why);
		return GC_EXIT_ERROR;
	}
	/* f2_fs_open_rw() holds every device exclusively: only mounts are left
	 * to look for (an image file has no exclusive open) */
	for (uint32_t i = 1; i < (*fs)->ndevs; i++)
		if (device_busy((*fs)->devs[i].path, 0, where, sizeof(where))) {
			fprintf(stderr, "%s: %s (device %u of %s) is %s; clean it only when "
				"unmounted\n", prog, (*fs)->devs[i].path, i, path, where);
			f2_fs_close(*fs);
			f2_io_close(*io);
			*fs = NULL;
			*io = NULL;
			return GC_EXIT_ERROR;
		}
	return 0;
}

int gc_check_clean(const char *prog, const char *path, const struct f2_fs *fs)
{
	if (!(fs->cp_flags & F2_CP_UMOUNT)) {
		fprintf(stderr, "%s: %s was not unmounted cleanly: mount it once so the kernel "
			"rolls forward what was written after the last checkpoint, then clean it "
			"(-n works as is)\n", prog, path);
		return GC_EXIT_ERROR;
	}
	if (fs->cp_flags & (F2_CP_FSCK | F2_CP_ERROR)) {
		fprintf(stderr, "%s: %s is marked as needing fsck: run fsck.f2fs first "
			"(-n works as is)\n", prog, path);
		return GC_EXIT_ERROR;
	}
	return 0;
}
