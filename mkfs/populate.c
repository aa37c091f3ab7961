// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * populate.c - copy a host directory into an unmounted F2FS volume through
 * the write engine (f2/engine.h): regular files (holes kept, found with
 * SEEK_DATA/SEEK_HOLE), directories, symlinks, hard links, fifos, sockets,
 * device nodes, modes, owners through uid/gid maps, user/trusted/security
 * xattrs, SELinux labels from a file_contexts file (libselinux), and
 * casefolded directories (--casefold: the engine folds, hashes and
 * refuses names as the kernel would, and subdirectories inherit the flag),
 * and compressed files (pop_compress.c picks them; the engine lays out
 * their clusters).
 * Entries are visited in byte order of their names and every time can be
 * fixed, so the same input gives the same image.  The regular files of a
 * directory are read from the host in batches (batchread.c) ahead of
 * their turn.  One checkpoint at the
 * end commits everything: a crash before it leaves the volume as it was.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <selinux/label.h>
#include <selinux/selinux.h>
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/io.h"
#include "f2/map.h"
#include "batchread.h"
#include "fsconfig.h"
#include "populate.h"

#define COPY_BUF	(4u << 20)

struct pop {
	const struct pop_opts *o;
	FILE *err;
	struct f2_engine *w;
	struct selabel_handle *sehnd;
	char path[8192];		/* host path */
	size_t plen;
	char fspath[8192];		/* path in the volume, for labels */
	size_t flen;
	size_t mplen;			/* fspath's mount point prefix */
	char *cf[POP_MAX_CASEFOLD];	/* --casefold paths: "" (root), "/a/b" */
	uint8_t *buf;
	struct f2_map links;		/* host dev -> struct f2_map *: host ino -> f2fs ino */
	uint64_t files, bytes, last_report;
	uint64_t batched;		/* files whose data came from a batch */
	int progress, acl_warned;
	int dense_compressed;		/* compressed files written without holes */
	char *xnames;
	size_t xnames_cap;
	struct fscfg cfg;		/* --fs-config, or empty */
	const struct fscfg_entry *cur;	/* the entry of the file being made */
	struct pop_batch *batch;	/* host files read ahead, or NULL */
	int fd;				/* the current file, open by the batch, or -1 */
	char *const *bnames;		/* the names array the batch was read for */
	size_t bidx;			/* the current file's entry in it, or SIZE_MAX */
};

int pop_parse_idmap(const char *spec, struct pop_idmap *m)
{
	unsigned long a, b, c = 1;
	char *end;

	errno = 0;
	a = strtoul(spec, &end, 10);
	if (*end != ':' || errno)
		return -1;
	b = strtoul(end + 1, &end, 10);
	if (errno || (*end && *end != ':'))
		return -1;
	if (*end == ':') {
		c = strtoul(end + 1, &end, 10);
		if (errno || *end || !c)
			return -1;
	}
	if (a > UINT32_MAX || b > UINT32_MAX || c > UINT32_MAX || a + c - 1 > UINT32_MAX ||
	    b + c - 1 > UINT32_MAX)
		return -1;
	m->host = (uint32_t)a;
	m->fs = (uint32_t)b;
	m->count = (uint32_t)c;
	return 0;
}

/* PATH as "/a/b" ("" for the root) in out, or -1 for "." or "..". */
static int cf_normalize(const char *path, char *out, size_t outsz)
{
	size_t o = 0;

	while (*path) {
		size_t n;

		while (*path == '/')
			path++;
		n = strcspn(path, "/");
		if (!n)
			break;
		if ((n == 1 && path[0] == '.') || (n == 2 && !strncmp(path, "..", 2)) ||
		    o + n + 2 > outsz)
			return -1;
		out[o++] = '/';
		memcpy(out + o, path, n);
		o += n;
		path += n;
	}
	out[o] = 0;
	return 0;
}

int pop_add_casefold(struct pop_opts *o, const char *path, const char *prog)
{
	char buf[4096];

	if (o->ncasefold >= POP_MAX_CASEFOLD) {
		fprintf(stderr, "%s: --casefold: at most %d directories\n", prog,
			POP_MAX_CASEFOLD);
		return -1;
	}
	if (!*path || cf_normalize(path, buf, sizeof(buf))) {
		fprintf(stderr, "%s: --casefold '%s': not a path in the volume (\"/\" is its "
			"root; no \".\" or \"..\")\n", prog, path);
		return -1;
	}
	o->casefold[o->ncasefold++] = path;
	return 0;
}

/*
 * Normalize the --casefold paths into p->cf and check each names a
 * directory of the host tree, every component a directory (not a
 * symlink): the walk meets exactly those.  0 or a negative code.
 */
static int cf_prepare(struct pop *p)
{
	char host[sizeof(p->path)], norm[4096];
	struct stat st;

	for (uint32_t i = 0; i < p->o->ncasefold; i++) {
		const char *path = p->o->casefold[i];

		if (cf_normalize(path, norm, sizeof(norm)) ||
		    p->plen + strlen(norm) >= sizeof(host)) {
			fprintf(p->err, "populate: --casefold '%s': not a path in the volume\n",
				path);
			return -EINVAL;
		}
		for (char *c = norm; c;) {
			char *next = strchr(c + 1, '/');

			snprintf(host, sizeof(host), "%.*s%.*s", (int)p->plen, p->path,
				 (int)(next ? next - norm : (ptrdiff_t)strlen(norm)), norm);
			if (lstat(host, &st) || !S_ISDIR(st.st_mode)) {
				fprintf(p->err, "populate: --casefold '%s': %s is not a directory "
					"of the tree\n", path, host);
				return -ENOTDIR;
			}
			c = next;
		}
		p->cf[i] = strdup(norm);
		if (!p->cf[i])
			return -ENOMEM;
	}
	return 0;
}

/* Is the directory at p->fspath one --casefold names? */
static int cf_listed(const struct pop *p)
{
	for (uint32_t i = 0; i < p->o->ncasefold; i++)
		if (p->cf[i] && !strcmp(p->cf[i], p->fspath + p->mplen))
			return 1;
	return 0;
}

static uint32_t map_id(const struct pop_idmap *m, uint32_t n, uint32_t id)
{
	for (uint32_t i = 0; i < n; i++)
		if (id >= m[i].host && id - m[i].host < m[i].count)
			return m[i].fs + (id - m[i].host);
	return id;
}

static int fail(struct pop *p, int err, const char *what)
{
	fprintf(p->err, "populate: %s: %s: %s%s%s\n", p->path, what, f2_strerror(err),
		p->w && *f2_engine_why(p->w) ? ": " : "", p->w ? f2_engine_why(p->w) : "");
	return err;
}

static void attr_of(struct pop *p, const struct stat *st, struct f2_wattr *a)
{
	memset(a, 0, sizeof(*a));
	a->mode = (uint16_t)st->st_mode;
	if (p->o->owner_root) {
		a->uid = a->gid = 0;
	} else {
		a->uid = map_id(p->o->uid, p->o->nuid, st->st_uid);
		a->gid = map_id(p->o->gid, p->o->ngid, st->st_gid);
	}
	/* fs_config names paths without the leading slash */
	p->cur = fscfg_find(&p->cfg, p->fspath[0] == '/' ? p->fspath + 1 : p->fspath);
	if (p->cur) {
		a->uid = p->cur->uid;
		a->gid = p->cur->gid;
		a->mode = (uint16_t)((st->st_mode & S_IFMT) | p->cur->mode);
	}
	if (p->o->fixed_time >= 0) {
		a->atime = a->mtime = a->ctime = a->crtime = (uint64_t)p->o->fixed_time;
	} else {
		a->atime = (uint64_t)st->st_atim.tv_sec;
		a->atime_ns = (uint32_t)st->st_atim.tv_nsec;
		a->mtime = (uint64_t)st->st_mtim.tv_sec;
		a->mtime_ns = (uint32_t)st->st_mtim.tv_nsec;
		a->ctime = (uint64_t)st->st_ctim.tv_sec;
		a->ctime_ns = (uint32_t)st->st_ctim.tv_nsec;
		a->crtime = a->ctime;
		a->crtime_ns = a->ctime_ns;
	}
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		a->rdev = (uint64_t)major(st->st_rdev) << 32 | minor(st->st_rdev);
}

/* ---- hard links --------------------------------------------------------- */
/* The f2fs inode made for the host inode of st, or 0. */
static uint32_t hl_find(const struct pop *p, const struct stat *st)
{
	const struct f2_map *inos = f2_pmap_get(&p->links, st->st_dev);
	const uint32_t *fs_ino = inos ? f2_map_find(inos, st->st_ino) : NULL;

	return fs_ino ? *fs_ino : 0;
}

static int hl_add(struct pop *p, const struct stat *st, uint32_t fs_ino)
{
	struct f2_map *inos = f2_pmap_get(&p->links, st->st_dev);
	uint32_t *v;

	if (!inos) {
		inos = malloc(sizeof(*inos));
		if (!inos)
			return -ENOMEM;
		f2_map_init(inos, sizeof(uint32_t), 0);
		if (f2_pmap_put(&p->links, st->st_dev, inos)) {
			free(inos);
			return -ENOMEM;
		}
	}
	v = f2_map_insert(inos, st->st_ino, NULL);
	if (!v)
		return -ENOMEM;
	*v = fs_ino;
	return 0;
}

static void hl_free(struct f2_map *links)
{
	struct f2_map **inos;
	size_t pos = 0;

	while ((inos = f2_map_next(links, &pos, NULL))) {
		f2_map_free(*inos);
		free(*inos);
	}
	f2_map_free(links);
}

/* ---- xattrs and labels ------------------------------------------------- */
static int copy_xattrs(struct pop *p, uint32_t ino, const struct stat *st)
{
	ssize_t n = p->fd >= 0 ? flistxattr(p->fd, NULL, 0) : llistxattr(p->path, NULL, 0);
	char *val = (char *)p->buf;
	int have_label = 0, err;

	if (n < 0 && errno != ENOTSUP && errno != ENODATA)
		return fail(p, -errno, "listing xattrs");
	if (n > 0) {
		if ((size_t)n + 1 > p->xnames_cap) {
			free(p->xnames);
			p->xnames_cap = (size_t)n + 1;
			p->xnames = malloc(p->xnames_cap);
			if (!p->xnames)
				return -ENOMEM;
		}
		n = p->fd >= 0 ? flistxattr(p->fd, p->xnames, p->xnames_cap) :
				 llistxattr(p->path, p->xnames, p->xnames_cap);
		if (n < 0)
			return fail(p, -errno, "listing xattrs");
	}
	for (ssize_t off = 0; n > 0 && off < n; off += (ssize_t)strlen(p->xnames + off) + 1) {
		const char *name = p->xnames + off, *suffix;
		uint8_t index;
		ssize_t v;

		if (f2_xattr_split(name, &index, &suffix)) {
			if (!p->acl_warned)
				fprintf(p->err, "populate: %s: xattr %s not copied (only user., "
					"trusted. and security. are)\n", p->path, name);
			p->acl_warned = 1;
			continue;
		}
		if (p->sehnd && !strcmp(name, "security.selinux"))
			continue;	/* the file_contexts label wins */
		if (p->cur && !strcmp(name, "security.capability"))
			continue;	/* so does fs_config's */
		v = p->fd >= 0 ? fgetxattr(p->fd, name, val, COPY_BUF) :
				 lgetxattr(p->path, name, val, COPY_BUF);
		if (v < 0)
			return fail(p, -errno, name);
		err = f2_engine_setxattr(p->w, ino, index, suffix, strlen(suffix), val, (size_t)v);
		if (err)
			return fail(p, err, name);
	}
	if (p->sehnd) {
		char *con = NULL;

		if (selabel_lookup(p->sehnd, &con, p->flen ? p->fspath : "/",
				   st->st_mode & S_IFMT) == 0) {
			err = f2_engine_setxattr(p->w, ino, F2_XATTR_INDEX_SECURITY, "selinux", 7, con, strlen(con) + 1);
			freecon(con);
			if (err)
				return fail(p, err, "security.selinux");
			have_label = 1;
		} else if (errno != ENOENT) {
			return fail(p, -errno, "selabel_lookup");
		}
	}
	(void)have_label;
	if (p->cur && p->cur->caps) {
		uint8_t cap[FSCFG_CAP_BYTES];

		fscfg_cap_value(p->cur->caps, cap);
		err = f2_engine_setxattr(p->w, ino, F2_XATTR_INDEX_SECURITY, "capability", 10, cap,
					 sizeof(cap));
		if (err)
			return fail(p, err, "security.capability");
	}
	return 0;
}

static void report(struct pop *p, int last)
{
	if (!p->progress || (!last && p->files - p->last_report < 500))
		return;
	p->last_report = p->files;
	fprintf(p->err, "\rpopulate: %llu files, %llu MiB", (unsigned long long)p->files,
		(unsigned long long)(p->bytes >> 20));
	if (last)
		fprintf(p->err, ", %llu read in batches\n", (unsigned long long)p->batched);
	fflush(p->err);
}

/* ---- contents --------------------------------------------------------- */
/* A compressed file's writes go by whole clusters of csz bytes: a data
 * range is widened to its clusters (a hole inside one reads as zeroes),
 * never back over what was written (done). */
static void cluster_range(off_t csz, off_t end, off_t done, off_t *data, off_t *hole)
{
	*data -= *data % csz;
	if (*data < done)
		*data = done;
	if (*hole % csz)
		*hole += csz - *hole % csz;
	if (*hole > end)
		*hole = end;
}

/* A file the batch read whole (it has no holes): one write. */
static int copy_batched(struct pop *p, uint32_t ino, const struct stat *st, const void *buf,
			size_t len)
{
	int err = len ? f2_engine_write(p->w, ino, 0, buf, len) : 0;

	if (err)
		return fail(p, err, "write");
	p->bytes += len;
	p->batched++;
	err = f2_engine_truncate(p->w, ino, (uint64_t)st->st_size);
	return err ? fail(p, err, "size") : 0;
}

static int copy_data(struct pop *p, uint32_t ino, const struct stat *st, int compress)
{
	const void *bbuf;
	size_t blen;
	int fd, err = 0;
	off_t off = 0, end = st->st_size;
	off_t csz = compress ? (off_t)4096 << p->o->copts.log_cluster : 0;

	if (compress && (err = f2_engine_set_compress(p->w, ino, &p->o->copts)))
		return fail(p, err, "compression");
	if (p->bidx != SIZE_MAX && pop_batch_get(p->batch, p->bidx, st, &bbuf, &blen))
		return copy_batched(p, ino, st, bbuf, blen);
	fd = p->fd >= 0 ? p->fd : open(p->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(p, -errno, "open");
	/* On a read-only volume Linux reads a compressed file's clusters
	 * through its extent cache, which maps a cluster of holes to block 0
	 * and a hole in a plain cluster to the block after its data (6.1,
	 * 6.12): there, holes are written as zeroes, which compress. */
	int sparse = (off_t)st->st_blocks * 512 < end && !(compress && p->dense_compressed);

	while (off < end) {
		off_t data = sparse ? lseek(fd, off, SEEK_DATA) : off, hole = end;

		if (data < 0) {
			if (errno == ENXIO)
				break;		/* only a hole to the end */
			data = off;		/* no SEEK_DATA: copy everything */
			hole = end;
		} else if (sparse) {
			hole = lseek(fd, data, SEEK_HOLE);
			if (hole < 0 || hole > end)
				hole = end;
		}
		if (csz)
			cluster_range(csz, end, off, &data, &hole);
		for (off = data; off < hole;) {
			size_t want = hole - off < (off_t)COPY_BUF ? (size_t)(hole - off) : COPY_BUF;
			ssize_t r = pread(fd, p->buf, want, off);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				err = fail(p, r < 0 ? -errno : F2_ESHORTIO, "read");
				goto out;
			}
			err = f2_engine_write(p->w, ino, (uint64_t)off, p->buf, (size_t)r);
			if (err) {
				err = fail(p, err, "write");
				goto out;
			}
			off += r;
			p->bytes += (uint64_t)r;
		}
	}
	/* a hole at the end still counts in the size */
	err = f2_engine_truncate(p->w, ino, (uint64_t)end);
	if (err)
		err = fail(p, err, "size");
out:
	if (fd != p->fd)
		close(fd);
	return err;
}

static int walk(struct pop *p, uint32_t dir_ino);

static int cmp_name(const void *a, const void *b)
{
	/* names carry their d_type in the byte before them */
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define PREFETCH	64	/* regular files asked for ahead of the copy */

/* Start reading regular file names[i] of the directory at p->path[0..plen]
 * into the page cache, so the disk works ahead of the copy. */
static void prefetch(struct pop *p, size_t plen, const char *name)
{
	char path[sizeof(p->path)];
	int fd;

	if (!pop_name_is_reg(name) || plen + strlen(name) + 2 > sizeof(path))
		return;
	memcpy(path, p->path, plen);
	path[plen] = '/';
	strcpy(path + plen + 1, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOATIME);
	if (fd < 0)
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
		close(fd);
	}
}

static int one(struct pop *p, uint32_t dir_ino, const char *name)
{
	struct stat st;
	struct f2_wattr a;
	uint32_t ino;
	size_t nl = strlen(name);
	int err;

	/* a file the batch opened: its fstat, and its descriptor for the
	 * xattrs and contents; anything else by its path */
	p->fd = -1;
	if ((p->bidx == SIZE_MAX || !pop_batch_file(p->batch, p->bidx, &st, &p->fd)) &&
	    lstat(p->path, &st))
		return fail(p, -errno, "lstat");
	attr_of(p, &st, &a);
	if (S_ISDIR(st.st_mode) && cf_listed(p))
		a.flags |= F2_CASEFOLD_FL;
	if (!S_ISDIR(st.st_mode) && st.st_nlink > 1 && (ino = hl_find(p, &st))) {
		err = f2_engine_link(p->w, dir_ino, name, nl, ino);
		return err ? fail(p, err, "link") : 0;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(p->path, target, sizeof(target) - 1);

		if (n < 0)
			return fail(p, -errno, "readlink");
		target[n] = 0;
		err = f2_engine_symlink(p->w, dir_ino, name, nl, &a, target, &ino);
	} else {
		err = f2_engine_create(p->w, dir_ino, name, nl, &a, &ino);
	}
	if (err)
		return fail(p, err, "create");
	p->files++;
	if (S_ISREG(st.st_mode) && (err = copy_data(p, ino, &st, pop_compress_picks(p->o, name))))
		return err;
	if ((err = copy_xattrs(p, ino, &st)))
		return err;
	if (!S_ISDIR(st.st_mode) && st.st_nlink > 1 && (err = hl_add(p, &st, ino)))
		return err;
	report(p, 0);
	if (S_ISDIR(st.st_mode)) {
		err = walk(p, ino);
		if (err)
			return err;
		/* times of a directory after its entries were added */
		return f2_engine_setattr(p->w, ino, &a) ? fail(p, -EIO, "attributes") : 0;
	}
	return 0;
}

static int walk(struct pop *p, uint32_t dir_ino)
{
	DIR *d = opendir(p->path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, plen = p->plen, flen = p->flen;
	int err = 0;

	if (!d)
		return fail(p, -errno, "opendir");
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*nn));

			if (!nn) {
				err = -ENOMEM;
				goto out;
			}
			names = nn;
		}
		{
			size_t l = strlen(de->d_name);
			char *nm = malloc(l + 2);

			if (!nm) {
				err = -ENOMEM;
				goto out;
			}
			nm[0] = (char)de->d_type;
			memcpy(nm + 1, de->d_name, l + 1);
			names[n++] = nm + 1;
		}
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	/* without batches, the disk reads ahead of the copy file by file */
	for (size_t i = 0; !p->batch && i < n && i < PREFETCH; i++)
		prefetch(p, plen, names[i]);
	for (size_t i = 0, bbase = 0, bend = 0; i < n && !err; i++) {
		size_t l = strlen(names[i]);

		if (!p->batch && i + PREFETCH < n)
			prefetch(p, plen, names[i + PREFETCH]);
		/* the run of regular files from here, read as one batch (a
		 * subdirectory's walk reads its own: bnames then differs) */
		p->bidx = SIZE_MAX;
		if (p->batch && pop_name_is_reg(names[i])) {
			if (p->bnames != names || i >= bend) {
				bbase = i;
				bend = i + pop_batch_at(p->batch, p->path, names, i, n);
				p->bnames = names;
			}
			p->bidx = i - bbase;
		}

		if (plen + l + 2 > sizeof(p->path) || flen + l + 2 > sizeof(p->fspath)) {
			err = fail(p, -ENAMETOOLONG, names[i]);
			break;
		}
		p->path[plen] = '/';
		memcpy(p->path + plen + 1, names[i], l + 1);
		p->plen = plen + 1 + l;
		p->fspath[flen] = '/';
		memcpy(p->fspath + flen + 1, names[i], l + 1);
		p->flen = flen + 1 + l;
		err = one(p, dir_ino, names[i]);
		p->fd = -1;	/* the batch's descriptor is not ours past the file */
		p->path[plen] = 0;
		p->plen = plen;
		p->fspath[flen] = 0;
		p->flen = flen;
	}
out:
	if (p->bnames == names)
		p->bnames = NULL;
	for (size_t i = 0; i < n; i++)
		free(names[i] - 1);
	free(names);
	closedir(d);
	return err;
}

/* The quota files from the committed tree: the volume opened again (the
 * engine reads through it), recounted, checkpointed. */
static int quota_pass(struct pop *p, struct f2_io *io, struct f2_fs **fs)
{
	int err;

	f2_engine_close(p->w);
	p->w = NULL;
	f2_fs_close(*fs);
	*fs = NULL;
	err = f2_fs_open_io(io, NULL, fs);
	if (err) {
		fprintf(p->err, "populate: quota: reopening: %s\n", *fs ? (*fs)->why : f2_strerror(err));
		return err;
	}
	err = f2_engine_open(*fs, NULL, &p->w);
	if (!err)
		err = f2_engine_quota_recount(p->w);
	if (!err)
		err = f2_engine_checkpoint(p->w);
	if (err)
		fprintf(p->err, "populate: quota: %s: %s\n", f2_strerror(err),
			p->w ? f2_engine_why(p->w) : (*fs)->why);
	return err;
}

int pop_run(const char *dev, const struct pop_opts *o, FILE *err_out)
{
	return pop_run_stats(dev, o, err_out, NULL);
}

int pop_run_stats(const char *dev, const struct pop_opts *o, FILE *err_out, struct pop_stats *s)
{
	struct pop p = { .o = o, .err = err_out, .bidx = SIZE_MAX, .fd = -1 };
	struct f2_io *io = NULL;
	struct f2_fs *fs = NULL;
	struct stat st;
	struct f2_wattr a;
	int err;

	f2_map_init(&p.links, sizeof(struct f2_map *), 0);
	p.progress = o->progress < 0 ? isatty(fileno(err_out)) && !o->quiet : o->progress;
	if (strlen(o->root) >= sizeof(p.path) / 2)
		return -ENAMETOOLONG;
	strcpy(p.path, o->root);
	p.plen = strlen(p.path);
	while (p.plen > 1 && p.path[p.plen - 1] == '/')
		p.path[--p.plen] = 0;
	if (o->mount_point && strcmp(o->mount_point, "/")) {
		snprintf(p.fspath, sizeof(p.fspath) / 2, "%s", o->mount_point);
		p.flen = strlen(p.fspath);
		while (p.flen && p.fspath[p.flen - 1] == '/')
			p.fspath[--p.flen] = 0;
	}
	p.mplen = p.flen;
	if (stat(p.path, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(err_out, "populate: %s: not a directory\n", o->root);
		return -ENOTDIR;
	}
	err = cf_prepare(&p);
	if (err)
		goto out;
	if (o->file_contexts) {
		struct selinux_opt so[] = { { SELABEL_OPT_PATH, o->file_contexts } };

		p.sehnd = selabel_open(SELABEL_CTX_FILE, so, 1);
		if (!p.sehnd) {
			fprintf(err_out, "populate: %s: cannot load file contexts: %s\n",
				o->file_contexts, strerror(errno));
			return -EINVAL;
		}
	}
	if (o->fs_config && (err = fscfg_load(o->fs_config, &p.cfg, err_out)))
		goto out;
	p.buf = malloc(COPY_BUF);
	if (!p.buf) {
		err = -ENOMEM;
		goto out;
	}
	err = f2_io_open(dev, F2_IO_RDWR | F2_IO_BEHIND, &io);
	if (err) {
		fprintf(err_out, "populate: %s: %s\n", dev, f2_strerror(err));
		goto out;
	}
	err = f2_fs_open_io(io, NULL, &fs);
	if (err) {
		fprintf(err_out, "populate: %s: %s\n", dev, fs ? fs->why : f2_strerror(err));
		goto out;
	}
	p.dense_compressed = (fs->features & F2_FEAT_RO) != 0;
	if (o->ncasefold && !(fs->features & F2_FEAT_CASEFOLD)) {
		fprintf(err_out, "populate: %s: --casefold needs a volume with the casefold "
			"feature (mkfs.f2fs -C utf8)\n", dev);
		err = F2_EUNSUPP;
		goto out;
	}
	if (o->compress && (!(fs->features & F2_FEAT_COMPRESSION) ||
			    !(fs->features & F2_FEAT_EXTRA_ATTR))) {
		fprintf(err_out, "populate: %s: compression needs a volume with the extra_attr and "
			"compression features (mkfs.f2fs -O extra_attr,compression)\n", dev);
		err = F2_EUNSUPP;
		goto out;
	}
	err = f2_engine_open(fs, NULL, &p.w);
	if (err) {
		fprintf(err_out, "populate: %s: %s\n", dev, fs->why);
		goto out;
	}
	/* the root takes the source directory's attributes */
	attr_of(&p, &st, &a);
	err = f2_engine_setattr(p.w, F2_ROOT_INO, &a);
	if (!err && cf_listed(&p) && (err = f2_engine_casefold_dir(p.w, F2_ROOT_INO)))
		fail(&p, err, "--casefold /");
	if (!err)
		err = copy_xattrs(&p, F2_ROOT_INO, &st);
	if (!err) {
		/* F2_POPULATE_BATCH=0: file by file (tests compare the two) */
		const char *bv = getenv("F2_POPULATE_BATCH");

		p.batch = bv && !strcmp(bv, "0") ? NULL : pop_batch_new();
		err = walk(&p, F2_ROOT_INO);
		pop_batch_free(p.batch);
		p.batch = NULL;
	}
	if (!err) {
		/* quota usage is counted after the tree is committed: until
		 * then the checkpoint says the quota files need a check */
		if (fs->features & F2_FEAT_QUOTA_INO)
			f2_engine_cp_flags(p.w, F2_CP_QUOTA_NEED_FSCK, 0);
		err = f2_engine_checkpoint(p.w);
		if (err)
			fprintf(err_out, "populate: checkpoint: %s: %s\n", f2_strerror(err),
				f2_engine_why(p.w));
	}
	if (!err && (fs->features & F2_FEAT_QUOTA_INO))
		err = quota_pass(&p, io, &fs);
	if (!err && s) {
		struct f2_engine_stats es;

		f2_engine_stats(p.w, &es);
		s->files = p.files;
		s->bytes = p.bytes;
		s->image_bytes = ((uint64_t)fs->main_blkaddr +
				  (uint64_t)es.segs_in_use_end * F2_BLKS_PER_SEG) * F2_BLKSIZE;
		s->free_bytes = (es.user_blocks - es.valid_blocks) * F2_BLKSIZE;
	}
	report(&p, 1);
out:
	f2_engine_close(p.w);
	if (fs)
		f2_fs_close(fs);
	if (io)
		f2_io_close(io);
	if (p.sehnd)
		selabel_close(p.sehnd);
	hl_free(&p.links);
	fscfg_free(&p.cfg);
	for (uint32_t i = 0; i < o->ncasefold; i++)
		free(p.cf[i]);
	free(p.xnames);
	free(p.buf);
	return err;
}
