// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * f2extract - copy the tree of an image to a host directory through the
 * read path (f2/file.h): contents (holes kept), directories, symlinks,
 * hard links, fifos, sockets, devices, modes, owners, mtimes, xattrs.
 * Tests compare the result with the tree an image was populated from.
 *   f2extract IMAGE DESTDIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/file.h"

struct seen {
	uint32_t ino;
	char *path;
};

struct ctx {
	struct f2_fs *fs;
	struct seen *seen;
	size_t nseen, cap;
	int errors;
	char path[8192];
};

static void bad(struct ctx *c, const char *what, int err)
{
	fprintf(stderr, "f2extract: %s: %s: %s (%s)\n", c->path, what,
		err < 0 ? f2_strerror(err) : "", c->fs->why);
	c->errors++;
}

static const char *seen_path(struct ctx *c, uint32_t ino)
{
	for (size_t i = 0; i < c->nseen; i++)
		if (c->seen[i].ino == ino)
			return c->seen[i].path;
	return NULL;
}

static void add_seen(struct ctx *c, uint32_t ino)
{
	if (c->nseen == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->seen = realloc(c->seen, c->cap * sizeof(*c->seen));
		if (!c->seen)
			exit(8);
	}
	c->seen[c->nseen].ino = ino;
	c->seen[c->nseen++].path = strdup(c->path);
}

static int set_xattr(void *ctx, const struct f2_xattr *x)
{
	struct ctx *c = ctx;
	const char *pre = f2_xattr_prefix(x->index);
	char name[300];

	if (!pre)
		return 0;
	snprintf(name, sizeof(name), "%s%.*s", pre, x->name_len, x->name);
	if (lsetxattr(c->path, name, x->value, x->value_len, 0))
		bad(c, name, -errno);
	return 0;
}

static void extract(struct ctx *c, const struct f2_inode_ref *ir);

static int entry(void *ctx, const struct f2_dirent *d)
{
	struct ctx *c = ctx;
	struct f2_inode_ref ir;
	size_t len = strlen(c->path);
	const char *prev;

	if ((d->name_len == 1 && d->name[0] == '.') ||
	    (d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	snprintf(c->path + len, sizeof(c->path) - len, "/%s", (const char *)d->name);
	if ((prev = seen_path(c, d->ino))) {
		if (link(prev, c->path))
			bad(c, "link", -errno);
	} else if (f2_inode_read(c->fs, d->ino, &ir)) {
		bad(c, "inode", F2_ECORRUPT);
	} else {
		extract(c, &ir);
	}
	c->path[len] = 0;
	return 0;
}

static void extract(struct ctx *c, const struct f2_inode_ref *ir)
{
	const struct f2_inode *i = &ir->node.i;
	uint16_t mode = ir->mode;
	struct timespec ts[2];
	int err;

	if (S_ISDIR(mode)) {
		if (mkdir(c->path, 0700) && errno != EEXIST)
			bad(c, "mkdir", -errno);
		err = f2_dir_iter(c->fs, ir, entry, c);
		if (err)
			bad(c, "readdir", err);
	} else if (S_ISREG(mode)) {
		struct f2_file *f;
		int fd = open(c->path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		static uint8_t buf[1 << 20];

		if (fd < 0 || f2_file_open_ref(c->fs, ir, &f)) {
			bad(c, "open", -errno);
			if (fd >= 0)
				close(fd);
			return;
		}
		for (uint64_t blk = f2_file_next_data(f, 0); blk * 4096 < ir->size;) {
			uint64_t off = blk * 4096;
			long n = f2_file_pread(f, off, buf, sizeof(buf));
			int zero = 1;

			if (n <= 0) {
				bad(c, "read", (int)n);
				break;
			}
			for (long k = 0; k < n && zero; k++)
				zero = !buf[k];
			if (!zero && pwrite(fd, buf, (size_t)n, (off_t)off) != n)
				bad(c, "write", -errno);
			blk = f2_file_next_data(f, (off + (uint64_t)n + 4095) / 4096);
		}
		if (ftruncate(fd, (off_t)ir->size))
			bad(c, "truncate", -errno);
		f2_file_close(f);
		close(fd);
	} else if (S_ISLNK(mode)) {
		char t[4096];

		err = f2_symlink_read(c->fs, ir, t, sizeof(t));
		if (err || symlink(t, c->path))
			bad(c, "symlink", err ? err : -errno);
	} else {
		uint32_t a0 = f2_inode_addr(ir, 0), a1 = f2_inode_addr(ir, 1);
		dev_t dev = a0 ? makedev((a0 >> 8) & 0xff, a0 & 0xff) :
			    makedev((a1 & 0xfff00) >> 8, (a1 & 0xff) | ((a1 >> 12) & 0xfff00));

		if (mknod(c->path, mode, S_ISCHR(mode) || S_ISBLK(mode) ? dev : 0))
			bad(c, "mknod", -errno);
	}
	if (!S_ISDIR(mode) && f2_le32(i->i_links) > 1)
		add_seen(c, ir->ino);
	if (lchown(c->path, f2_le32(i->i_uid), f2_le32(i->i_gid)))
		bad(c, "chown", -errno);
	if (!S_ISLNK(mode) && chmod(c->path, mode & 07777))
		bad(c, "chmod", -errno);
	err = f2_xattr_iter(c->fs, ir, set_xattr, c);
	if (err)
		bad(c, "xattrs", err);
	ts[0].tv_sec = (time_t)f2_le64(i->i_atime);
	ts[0].tv_nsec = f2_le32(i->i_atime_nsec);
	ts[1].tv_sec = (time_t)f2_le64(i->i_mtime);
	ts[1].tv_nsec = f2_le32(i->i_mtime_nsec);
	if (utimensat(AT_FDCWD, c->path, ts, AT_SYMLINK_NOFOLLOW))
		bad(c, "utimes", -errno);
}

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	struct f2_inode_ref ir;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: f2extract IMAGE DESTDIR\n");
		return 2;
	}
	err = f2_fs_open(argv[1], NULL, &c.fs);
	if (err) {
		fprintf(stderr, "f2extract: %s: %s\n", argv[1], f2_strerror(err));
		return 1;
	}
	snprintf(c.path, sizeof(c.path), "%s", argv[2]);
	err = f2_inode_read(c.fs, F2_ROOT_INO, &ir);
	if (err) {
		fprintf(stderr, "f2extract: root: %s\n", c.fs->why);
		return 1;
	}
	extract(&c, &ir);
	f2_fs_close(c.fs);
	for (size_t i = 0; i < c.nseen; i++)
		free(c.seen[i].path);
	free(c.seen);
	return c.errors ? 1 : 0;
}
