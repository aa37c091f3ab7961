// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * extract.c - dump.f2fs --extract: copy a file or a tree out of the image.
 *
 * Safety: everything is created relative to directory descriptors with
 * the *at() calls, one name at a time, with O_EXCL/O_NOFOLLOW, so nothing
 * can be written outside the output directory and no symlink the image
 * made is ever followed.  Names containing '/', empty names, "." and ".."
 * are refused; a name already present is renamed (".dupN") with a
 * warning; a directory met twice (a loop or a hard-linked directory) is
 * refused.  Hard links are recreated as links; files are written sparse.
 * Anything unreadable is reported and the walk goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/map.h"
#include "dump.h"

#define MAX_DEPTH	512
#define CHUNK_BLOCKS	64
#define MAX_FILE_ERRORS	16	/* per file, then give up on it */

/* Frees the map of inodes met and the paths it holds. */
static void seen_free(struct f2_map *m)
{
	size_t pos = 0;
	char **v;

	while ((v = f2_map_next(m, &pos, NULL)))
		free(*v);
	f2_map_free(m);
}

struct ex {
	struct dump_ctx *d;
	const struct extract_opts *eo;
	int rootfd;
	struct f2_map seen;	/* ino -> first extracted path (hard links), NULL (dirs) */
	uint8_t *buf;
	int xattr_warned;
	uint64_t files, dirs, bytes;
};

/* A path for messages: bytes that could confuse a terminal escaped. */
static char *show(const char *rel)
{
	size_t n = strlen(rel);
	char *s = malloc(n * 4 + 1), *p = s;

	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)rel[i];

		if (c < 0x20 || c == 0x7f || c == '\\')
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = (char)c;
	}
	*p = 0;
	return s;
}

static void ex_err(struct ex *x, const char *rel, const char *what)
{
	char *s = show(rel);

	dump_error(x->d, "%s: %s", s ? s : "?", what);
	free(s);
}

static void ex_warn(struct ex *x, const char *rel, const char *what)
{
	char *s = show(rel);

	dump_warn(x->d, "%s: %s", s ? s : "?", what);
	free(s);
}

static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *s = malloc(a + b + 2);

	if (!s)
		return NULL;
	if (a) {
		memcpy(s, dir, a);
		s[a++] = '/';
	}
	memcpy(s + a, name, b + 1);
	return s;
}

static void set_times(int dirfd, const char *name, int fd, const struct f2_inode *i)
{
	struct timespec ts[2] = {
		{ (time_t)f2_le64(i->i_atime), f2_le32(i->i_atime_nsec) % 1000000000 },
		{ (time_t)f2_le64(i->i_mtime), f2_le32(i->i_mtime_nsec) % 1000000000 },
	};

	if (fd >= 0)
		futimens(fd, ts);
	else
		utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW);
}

struct xctx {
	struct ex *x;
	int fd;			/* the file, or -1: use path (via /proc, no follow) */
	const char *path;
	const char *rel;
};

static int put_xattr(void *ctx, const struct f2_xattr *xa)
{
	struct xctx *c = ctx;
	struct ex *x = c->x;
	const char *p = f2_xattr_prefix(xa->index);
	char name[300];

	const uint8_t *val = xa->value;
	size_t vlen = xa->value_len;
	/* x->buf is free while attributes are set (data copied, or a
	 * directory's children done) and holds the largest converted ACL */
	uint8_t *acl = x->buf;
	_Static_assert(CHUNK_BLOCKS * F2_BLKSIZE >= 4 + 2 * 65536, "ACL buffer");

	if (!p || xa->index == F2_XATTR_INDEX_ADVISE)
		return 0;	/* internal attributes */
	if (xa->index == F2_XATTR_INDEX_POSIX_ACL_ACCESS ||
	    xa->index == F2_XATTR_INDEX_POSIX_ACL_DEFAULT) {
		/* f2fs keeps ACLs in its own compact layout */
		long n = xa->name_len ? F2_ECORRUPT : f2_acl_to_posix(val, vlen, acl,
									  (size_t)CHUNK_BLOCKS * F2_BLKSIZE);

		if (n < 0) {
			ex_warn(x, c->rel, "POSIX ACL malformed: not restored");
			return 0;
		}
		val = acl;
		vlen = (size_t)n;
	} else if (strcmp(p, "user.") && x->eo->xattrs < 2) {
		return 0;
	}
	if (memchr(xa->name, 0, xa->name_len))
		return 0;
	snprintf(name, sizeof(name), "%s%.*s", p, (int)xa->name_len, xa->name);
	if (c->fd >= 0 ? fsetxattr(c->fd, name, val, vlen, 0) :
	    lsetxattr(c->path, name, val, vlen, 0)) {
		if ((errno == ENOTSUP || errno == EPERM) && x->xattr_warned++)
			return 0;
		char why[400];

		snprintf(why, sizeof(why), "cannot set xattr %s: %s", name, strerror(errno));
		ex_warn(x, c->rel, why);
	}
	return 0;
}

static void set_meta(struct ex *x, int fd, const char *rel, const struct f2_inode_ref *ir)
{
	const struct f2_inode *i = &ir->node.i;

	if (x->eo->xattrs) {
		struct xctx c = { x, fd, NULL, rel };

		if (f2_xattr_iter(x->d->fs, ir, put_xattr, &c))
			ex_err(x, rel, x->d->fs->why);
	}
	if (x->eo->owners && fchown(fd, f2_le32(i->i_uid), f2_le32(i->i_gid)))
		ex_warn(x, rel, "cannot set the owner");
	if (fchmod(fd, ir->mode & 07777))
		ex_warn(x, rel, "cannot set the mode");
	set_times(-1, NULL, fd, i);
}

static int write_all(int fd, const uint8_t *b, size_t n, uint64_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, b, n, (off_t)off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static void copy_data(struct ex *x, int fd, const char *rel, const struct f2_inode_ref *ir)
{
	struct f2_fs *fs = x->d->fs;
	struct f2_file *f;
	uint64_t nblocks = (ir->size + F2_BLKSIZE - 1) / F2_BLKSIZE, b;
	unsigned nerr = 0;
	int err = f2_file_open_ref(fs, ir, &f);

	if (err) {
		ex_err(x, rel, fs->why);
		return;
	}
	b = f2_file_next_data(f, 0);
	while (b < nblocks) {
		uint64_t start = b;
		size_t n = 0;
		int hole = 0;

		while (b < nblocks && n < CHUNK_BLOCKS) {
			err = f2_file_read_block(f, b, x->buf + n * F2_BLKSIZE, &hole);
			if (err || hole)
				break;
			n++;
			b++;
		}
		if (n) {
			size_t len = n * F2_BLKSIZE;

			if (start * F2_BLKSIZE + len > ir->size)
				len = (size_t)(ir->size - start * F2_BLKSIZE);
			if (write_all(fd, x->buf, len, start * F2_BLKSIZE)) {
				ex_err(x, rel, "write failed (output full?)");
				break;
			}
			x->bytes += len;
		}
		if (err) {
			char why[F2_WHY_LEN + 64];

			if (++nerr > MAX_FILE_ERRORS) {
				ex_err(x, rel, "too many unreadable blocks, the rest left as holes");
				break;
			}
			snprintf(why, sizeof(why), "block %" PRIu64 " unreadable (%s), left as a hole",
				 b, fs->why);
			ex_err(x, rel, why);
			b++;
		} else if (hole) {
			b++;
		}
		b = f2_file_next_data(f, b);
	}
	f2_file_close(f);
	if (ftruncate(fd, (off_t)ir->size))
		ex_err(x, rel, "cannot set the size");
}

static uint32_t rdev_of(const struct f2_inode_ref *ir)
{
	uint32_t old = f2_inode_addr(ir, 0), nw = f2_inode_addr(ir, 1);

	if (old)
		return makedev((old >> 8) & 0xff, old & 0xff);
	return makedev((nw & 0xfff00) >> 8, (nw & 0xff) | ((nw >> 12) & 0xfff00));
}

/* Is a symlink target able to point outside the tree it sits in? */
static int escapes(const char *rel, const char *t)
{
	int depth = 0;

	if (t[0] == '/')
		return 1;
	for (const char *p = rel; *p; p++)
		depth += *p == '/';
	while (*t) {
		size_t n = strcspn(t, "/");

		if (n == 2 && t[0] == '.' && t[1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (n && !(n == 1 && t[0] == '.')) {
			depth++;
		}
		t += n;
		t += *t == '/';
	}
	return 0;
}

static void extract_dir(struct ex *x, int dirfd, const char *rel,
			const struct f2_inode_ref *dir, int depth);

/* Create name in dirfd, renaming on a clash; *name_out is what was used. */
static int make_entry(struct ex *x, int dirfd, const char *rel_dir, const char *name,
		      const struct f2_inode_ref *ir, int depth)
{
	char used[F2_NAME_LEN + 32];
	char *rel = NULL;
	int fd = -1, err = 0;
	uint16_t m = ir->mode;

	snprintf(used, sizeof(used), "%s", name);
	for (int k = 1;; k++) {
		if (S_ISDIR(m))
			err = mkdirat(dirfd, used, 0700);
		else if (S_ISREG(m)) {
			fd = openat(dirfd, used, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				    0600);
			err = fd < 0 ? -1 : 0;
		} else if (S_ISLNK(m)) {
			char *t = malloc(F2_BLKSIZE);

			if (!t)
				return -ENOMEM;
			rel = join(rel_dir, name);
			if (f2_symlink_read(x->d->fs, ir, t, F2_BLKSIZE)) {
				ex_err(x, rel ? rel : name, x->d->fs->why);
				free(t);
				free(rel);
				return -1;
			}
			err = symlinkat(t, dirfd, used);
			if (!err && escapes(rel ? rel : name, t))
				ex_warn(x, rel ? rel : name, "symlink points outside the extracted "
					"tree (created, never followed)");
			free(t);
			free(rel);
			rel = NULL;
		} else {
			dev_t dev = (S_ISCHR(m) || S_ISBLK(m)) ? rdev_of(ir) : 0;

			err = mknodat(dirfd, used, (m & S_IFMT) | 0600, dev);
			if (err && errno == EPERM) {
				char *r = join(rel_dir, name);

				ex_warn(x, r ? r : name, "device node not created (needs root)");
				free(r);
				return -1;
			}
		}
		if (!err || errno != EEXIST || k > 1000)
			break;
		snprintf(used, sizeof(used), "%s.dup%d", name, k);
	}
	rel = join(rel_dir, used);
	if (!rel) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	if (err) {
		char why[300];

		snprintf(why, sizeof(why), "cannot create: %s", strerror(errno));
		ex_err(x, rel, why);
		free(rel);
		return -1;
	}
	if (strcmp(used, name)) {
		char why[400], *orig = join(rel_dir, name);

		snprintf(why, sizeof(why), "name already present, extracted as '%s'", used);
		ex_warn(x, orig ? orig : rel, why);
		free(orig);
	}
	if (x->eo->verbose)
		printf("%s\n", rel);
	if (S_ISDIR(m)) {
		int sub = openat(dirfd, used, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (sub < 0) {
			ex_err(x, rel, "cannot open the directory just made");
		} else {
			extract_dir(x, sub, rel, ir, depth + 1);
			set_meta(x, sub, rel, ir);
			close(sub);
		}
		x->dirs++;
	} else if (S_ISREG(m)) {
		copy_data(x, fd, rel, ir);
		set_meta(x, fd, rel, ir);
		close(fd);
		x->files++;
	} else {
		if (x->eo->xattrs) {
			char proc[64 + F2_NAME_LEN + 32];
			struct xctx c = { x, -1, proc, rel };

			snprintf(proc, sizeof(proc), "/proc/self/fd/%d/%s", dirfd, used);
			if (f2_xattr_iter(x->d->fs, ir, put_xattr, &c))
				ex_err(x, rel, x->d->fs->why);
		}
		if (x->eo->owners && fchownat(dirfd, used, f2_le32(ir->node.i.i_uid),
					      f2_le32(ir->node.i.i_gid), AT_SYMLINK_NOFOLLOW))
			ex_warn(x, rel, "cannot set the owner");
		if (!S_ISLNK(m) && fchmodat(dirfd, used, m & 07777, 0))
			ex_warn(x, rel, "cannot set the mode");
		set_times(dirfd, used, -1, &ir->node.i);
		x->files++;
	}
	if (!S_ISDIR(m) && f2_le32(ir->node.i.i_links) > 1) {
		if (f2_pmap_put(&x->seen, ir->ino, rel))
			free(rel);
	} else {
		free(rel);
	}
	return 0;
}

/* One directory entry: checks, then link, create or recurse. */
static void extract_entry(struct ex *x, int dirfd, const char *rel_dir,
			  const struct f2_dirent *de, int depth)
{
	struct f2_fs *fs = x->d->fs;
	const char *name = (const char *)de->name;
	struct f2_inode_ref *ir;
	char **first;
	char *rel;

	if ((de->name_len == 1 && name[0] == '.') ||
	    (de->name_len == 2 && name[0] == '.' && name[1] == '.'))
		return;
	rel = join(rel_dir, name);
	if (!rel)
		return;
	if (memchr(name, '/', de->name_len) || strlen(name) != de->name_len) {
		ex_err(x, rel, "name contains '/' or a NUL byte: refused");
		free(rel);
		return;
	}
	ir = malloc(sizeof(*ir));
	if (!ir || f2_inode_read(fs, de->ino, ir)) {
		ex_err(x, rel, ir ? fs->why : "out of memory");
		free(ir);
		free(rel);
		return;
	}
	if (S_ISDIR(ir->mode)) {
		if (f2_map_find(&x->seen, ir->ino)) {
			char why[128];

			snprintf(why, sizeof(why), "directory ino %u met again (a loop or a "
				 "hard-linked directory): refused", ir->ino);
			ex_err(x, rel, why);
			goto out;
		}
		if (depth >= MAX_DEPTH) {
			ex_err(x, rel, "directories nested too deep: refused");
			goto out;
		}
		if (f2_pmap_put(&x->seen, ir->ino, NULL))
			goto out;
	} else if ((first = f2_map_find(&x->seen, ir->ino)) && *first) {
		char used[F2_NAME_LEN + 32];
		int k = 0;

		snprintf(used, sizeof(used), "%s", name);
		while (linkat(x->rootfd, *first, dirfd, used, 0) && errno == EEXIST && ++k < 1000)
			snprintf(used, sizeof(used), "%s.dup%d", name, k);
		if (k) {
			char why[400];

			snprintf(why, sizeof(why), "name already present, linked as '%s'", used);
			ex_warn(x, rel, why);
		}
		if (x->eo->verbose)
			printf("%s\n", rel);
		goto out;
	}
	if (ir->encrypted && (S_ISREG(ir->mode) || S_ISDIR(ir->mode))) {
		ex_err(x, rel, S_ISDIR(ir->mode) ? "encrypted directory: skipped" :
			       "encrypted file: skipped");
		goto out;
	}
	make_entry(x, dirfd, rel_dir, name, ir, depth);
out:
	free(ir);
	free(rel);
}

struct dctx {
	struct ex *x;
	int dirfd;
	const char *rel;
	int depth;
};

static int dir_entry(void *ctx, const struct f2_dirent *de)
{
	struct dctx *c = ctx;

	extract_entry(c->x, c->dirfd, c->rel, de, c->depth);
	return 0;
}

static void extract_dir(struct ex *x, int dirfd, const char *rel,
			const struct f2_inode_ref *dir, int depth)
{
	struct dctx c = { x, dirfd, rel, depth };
	int err = f2_dir_iter(x->d->fs, dir, dir_entry, &c);

	if (err)
		ex_err(x, *rel ? rel : ".", x->d->fs->why);
}

void dump_extract(struct dump_ctx *d, const struct extract_opts *eo)
{
	struct ex x = { .d = d, .eo = eo, .rootfd = -1 };
	struct f2_inode_ref *ir = malloc(sizeof(*ir));
	const char *base;
	int created = 0;

	f2_map_init(&x.seen, sizeof(char *), 0);
	x.buf = malloc((size_t)CHUNK_BLOCKS * F2_BLKSIZE);
	if (!ir || !x.buf) {
		dump_error(d, "out of memory");
		goto out;
	}
	if (!mkdir(eo->outdir, 0777))
		created = 1;
	else if (errno != EEXIST) {
		dump_error(d, "%s: cannot create: %s", eo->outdir, strerror(errno));
		goto out;
	}
	x.rootfd = open(eo->outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x.rootfd < 0) {
		dump_error(d, "%s: not a directory I can open: %s", eo->outdir, strerror(errno));
		goto out;
	}
	if (f2_path_lookup(d->fs, eo->path, ir)) {
		dump_error(d, "%s: %s", eo->path, d->fs->why);
		goto out;
	}
	base = strrchr(eo->path, '/');
	base = base ? base + 1 : eo->path;
	if (ir->ino == F2_ROOT_INO || !*base) {
		/* the root (or "dir/"): its contents go into the output directory */
		if (!S_ISDIR(ir->mode)) {
			dump_error(d, "%s: not a directory", eo->path);
		} else {
			f2_pmap_put(&x.seen, ir->ino, NULL);
			extract_dir(&x, x.rootfd, "", ir, 0);
			/* a directory we made takes the root's attributes */
			if (created)
				set_meta(&x, x.rootfd, ".", ir);
		}
	} else {
		struct f2_dirent de = { .ino = ir->ino };

		de.name_len = (uint16_t)strnlen(base, F2_NAME_LEN);
		memcpy(de.name, base, de.name_len);
		de.name[de.name_len] = 0;
		extract_entry(&x, x.rootfd, "", &de, 0);
	}
	if (d->o->json) {
		out_obj_begin(d->o, "extract", NULL);
		out_u64(d->o, "files", x.files);
		out_u64(d->o, "directories", x.dirs);
		out_u64(d->o, "bytes", x.bytes);
		out_u64(d->o, "errors", d->errors);
		out_u64(d->o, "warnings", d->warnings);
		out_obj_end(d->o);
	} else {
		fprintf(stderr, "%s: extracted %" PRIu64 " files, %" PRIu64 " directories, %"
			PRIu64 " bytes; %u errors, %u warnings\n", d->prog, x.files, x.dirs,
			x.bytes, d->errors, d->warnings);
	}
out:
	if (x.rootfd >= 0)
		close(x.rootfd);
	seen_free(&x.seen);
	free(x.buf);
	free(ir);
}
