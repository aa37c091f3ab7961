// SPDX-License-Identifier: GPL-2.0-or-later
/* common.c - number parsing, the mounted-device refusal and the read-only
 * open shared by gc.f2fs and defrag.f2fs. */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/gc.h"
#include "f2/io.h"
#include "common.h"

int gc_parse_u64(const char *prog, const char *s, const char *what, uint64_t *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*digits || (hex ? !strchr("0123456789abcdefABCDEF", *digits) :
			 (*digits < '0' || *digits > '9')))
		goto bad;
	v = strtoull(digits, &end, hex ? 16 : 10);
	if (errno || *end)
		goto bad;
	*out = v;
	return 0;
bad:
	fprintf(stderr, "%s: invalid %s '%s'\n", prog, what, s);
	return -1;
}

int gc_parse_u32(const char *prog, const char *s, const char *what, uint32_t min,
		 uint32_t *out)
{
	uint64_t v;

	if (gc_parse_u64(prog, s, what, &v))
		return -1;
	if (v < min || v > UINT32_MAX) {
		fprintf(stderr, "%s: invalid %s '%s' (%u to %u)\n", prog, what, s, min, UINT32_MAX);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

/* Is the mounted loop device fsname backed by the file st? */
static int loop_backs(const char *fsname, const struct stat *st)
{
	char p[128], file[4096];
	struct stat bs, ls;
	FILE *f;
	int r = 0;

	if (stat(fsname, &ls) || !S_ISBLK(ls.st_mode) || major(ls.st_rdev) != 7)
		return 0;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/loop/backing_file",
		 major(ls.st_rdev), minor(ls.st_rdev));
	f = fopen(p, "r");
	if (!f)
		return 0;
	if (fgets(file, sizeof(file), f)) {
		file[strcspn(file, "\n")] = 0;
		r = !stat(file, &bs) && bs.st_dev == st->st_dev && bs.st_ino == st->st_ino;
	}
	fclose(f);
	return r;
}

int gc_device_busy(const char *path, char *where, size_t len)
{
	const char *tab = getenv("F2_PROC_MOUNTS");
	struct stat dev, st;
	struct mntent *m;
	FILE *f;
	int found = 0;

	if (stat(path, &dev))
		return 0;
	f = setmntent(tab && *tab ? tab : "/proc/mounts", "r");
	if (f) {
		while (!found && (m = getmntent(f))) {
			if (stat(m->mnt_fsname, &st))
				continue;
			if (S_ISBLK(dev.st_mode))
				found = S_ISBLK(st.st_mode) && st.st_rdev == dev.st_rdev;
			else
				found = (st.st_dev == dev.st_dev && st.st_ino == dev.st_ino) ||
					loop_backs(m->mnt_fsname, &dev);
			if (found)
				snprintf(where, len, "mounted on %s", m->mnt_dir);
		}
		endmntent(f);
	}
	if (!found && S_ISBLK(dev.st_mode)) {
		int fd = open(path, O_RDONLY | O_EXCL);

		if (fd < 0 && errno == EBUSY) {
			snprintf(where, len, "in use (exclusive open refused)");
			found = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	return found;
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

int gc_open_ro(const char *prog, const char *path, struct f2_fs **fs)
{
	struct f2_fs_opts o;
	char where[4200];
	int r;

	if (gc_device_busy(path, where, sizeof(where))) {
		fprintf(stderr, "%s: %s is %s; clean it only when unmounted\n", prog, path, where);
		return GC_EXIT_ERROR;
	}
	memset(&o, 0, sizeof(o));
	o.warn = warn_cb;
	o.warn_ctx = (void *)prog;
	*fs = NULL;
	r = f2_fs_open(path, &o, fs);
	if (r) {
		fprintf(stderr, "%s: %s: %s\n", prog, path,
			*fs && (*fs)->why[0] ? (*fs)->why : f2_strerror(r));
		if (*fs)
			f2_fs_close(*fs);
		*fs = NULL;
		return GC_EXIT_ERROR;
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
	if (gc_device_busy(path, where, sizeof(where))) {
		fprintf(stderr, "%s: %s is %s; clean it only when unmounted\n", prog, path, where);
		return GC_EXIT_ERROR;
	}
	memset(&o, 0, sizeof(o));
	o.warn = warn_cb;
	o.warn_ctx = (void *)prog;
	r = f2_fs_open_rw(path, &o, io, fs, why, sizeof(why));
	if (r) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, why);
		return GC_EXIT_ERROR;
	}
	for (uint32_t i = 1; i < (*fs)->ndevs; i++)
		if (gc_device_busy((*fs)->devs[i].path, where, sizeof(where))) {
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
