// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - resize.f2fs: refuse a mounted device, open the volume (read-only
 * for -n), plan the new size (lib/resize/plan.c: refusals write nothing),
 * report, and without -n carry the plan out (lib/resize/run.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "support/mounted.h"
#include "resize_cmd.h"

static void warn_cb(void *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	fprintf(stderr, "resize.f2fs: warning: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Mounted, or (probe) a block device someone holds exclusively:
 * message, 1. */
static int busy(const char *path, int probe)
{
	char dir[4096];
	struct stat st;
	int fd;

	if (sup_mounted(path, dir, sizeof(dir), NULL)) {
		fprintf(stderr, "resize.f2fs: %s is mounted on %s; resize it only when "
			"unmounted\n", path, dir);
		return 1;
	}
	if (!probe || stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_EXCL);
	if (fd < 0 && errno == EBUSY) {
		fprintf(stderr, "resize.f2fs: %s is in use (exclusive open refused)\n", path);
		return 1;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static int open_volume(const struct rs_cmd *c, struct f2_io **io, struct f2_fs **fs)
{
	/* a multi-device volume grows into the whole of its last device */
	struct f2_fs_opts o = { .warn = warn_cb, .last_dev_whole = 1 };
	char why[F2_WHY_LEN + 64];
	int err;

	*io = NULL;
	*fs = NULL;
	if (c->dry_run) {
		err = f2_fs_open(c->device, &o, fs);
		if (err) {
			fprintf(stderr, "resize.f2fs: %s: %s\n", c->device,
				*fs && (*fs)->why[0] ? (*fs)->why : f2_strerror(err));
			f2_fs_close(*fs);
			*fs = NULL;
		}
		return err;
	}
	o.stream = 1;	/* moved blocks go to disk while the next are read */
	err = f2_fs_open_rw(c->device, &o, io, fs, why, sizeof(why));
	if (err)
		fprintf(stderr, "resize.f2fs: %s: %s\n", c->device, why);
	return err;
}

/* Moving needs a clean unmount: the roll-forward chain lives in what the
 * checkpoint calls free space. */
static int check_clean(const struct rs_cmd *c, const struct f2_fs *fs)
{
	if (!(fs->cp_flags & F2_CP_UMOUNT)) {
		fprintf(stderr, "resize.f2fs: %s was not unmounted cleanly: mount it once so the "
			"kernel rolls forward what was written after the last checkpoint "
			"(-n works as is)\n", c->device);
		return -1;
	}
	if (fs->cp_flags & (F2_CP_FSCK | F2_CP_ERROR)) {
		fprintf(stderr, "resize.f2fs: %s is marked as needing fsck: run fsck.f2fs first "
			"(-n works as is)\n", c->device);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct f2_resize_plan plan;
	struct f2_resize_stats st;
	struct f2_resize_opts o = { 0 };
	char why[F2_WHY_LEN + 512] = "";
	struct rs_cmd c;
	struct f2_io *io;
	struct f2_fs *fs;
	uint64_t dev_sectors;
	int r = rs_parse(argc, argv, &c), err;

	if (r)
		return r > 0 ? RS_EXIT_OK : RS_EXIT_USAGE;
	if (busy(c.device, 1))
		return RS_EXIT_ERROR;
	if (open_volume(&c, &io, &fs))
		return RS_EXIT_ERROR;
	/* the other devices of a multi-device volume: mounted?  (Without -n
	 * the open holds them exclusively already: one in use was refused.) */
	for (uint32_t i = 1; i < fs->ndevs; i++)
		if (busy(fs->devs[i].path, c.dry_run)) {
			r = RS_EXIT_ERROR;
			goto out;
		}
	/* all devices: the last one whole (last_dev_whole) */
	dev_sectors = fs->io->size / 512;
	if (c.target_sectors > dev_sectors) {
		fprintf(stderr, "resize.f2fs: %s: target %llu sectors is beyond its end (%llu "
			"sectors)\n", c.device, (unsigned long long)c.target_sectors,
			(unsigned long long)dev_sectors);
		r = RS_EXIT_ERROR;
		goto out;
	}
	o.target_blocks = (c.target_sectors ? c.target_sectors : dev_sectors) / 8;
	o.overprovision = c.overprovision;
	o.safe = c.safe;
	if (!c.dry_run && check_clean(&c, fs)) {
		r = RS_EXIT_ERROR;
		goto out;
	}
	err = f2_resize_plan(fs, &o, &plan, why, sizeof(why));
	if (err) {
		if (c.json)
			rs_report(stdout, &c, &plan, NULL, err, why);
		fprintf(stderr, "resize.f2fs: %s: %s\n", c.device, why);
		r = err == F2_ENOSPC ? RS_EXIT_REFUSED : RS_EXIT_ERROR;
		goto out;
	}
	if (c.dry_run || plan.kind == F2_RESIZE_NONE) {
		rs_report(stdout, &c, &plan, NULL, 0, NULL);
		r = RS_EXIT_OK;
		goto out;
	}
	/* the moves are the long part: say so on a terminal */
	if (isatty(STDERR_FILENO) && plan.move_data + plan.move_node)
		fprintf(stderr, "resize.f2fs: %s: moving %llu blocks past the new end...\n",
			c.device, (unsigned long long)(plan.move_data + plan.move_node));
	err = f2_resize_run(io, fs, c.device, &plan, &st, why, sizeof(why));
	rs_report(stdout, &c, &plan, &st, err, why);
	if (err) {
		fprintf(stderr, "resize.f2fs: %s: %s\n", c.device, why);
		r = RS_EXIT_ERROR;
		goto out;
	}
	r = RS_EXIT_OK;
out:
	f2_fs_close(fs);
	if (io)
		f2_io_close(io);
	return r;
}
