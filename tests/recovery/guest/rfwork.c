// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rfwork.c - guest workload of the roll-forward campaign
 * (tests/recovery/campaign.bash): seeded random file operations on one
 * mounted f2fs, so that the driver leaves a roll-forward chain behind.
 *
 *   rfwork SEED DIR general [full]   random operations, no fsync; "full"
 *                                    then fills the volume to ENOSPC and
 *                                    frees a few MiB for the fsync phase
 *   rfwork SEED DIR fsync            random operations, most followed by
 *                                    fsync or fdatasync, then a tail of
 *                                    file operations only, sometimes a few
 *                                    without fsync (the guest cuts the
 *                                    power after the last disk's)
 *
 * The same SEED always makes the same sequence of choices; the outcome
 * of each call (ENOSPC, a busy rmdir) is not checked.  The fsync phase
 * finds its files again by walking DIR.  Prints one summary line.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAXP 512
#define PLEN 256
/* file blocks addressed by the inode (923) and its two direct nodes:
 * a file past this needs an indirect node */
#define IND_BOUNDARY (923 + 2 * 1018)

static uint64_t rs;
static char files[MAXP][PLEN], dirs[MAXP][PLEN];
static int nfiles, ndirs, serial, syncing, nops, nsyncs;
static char buf[1 << 16];

/* a path into OUT (PLEN bytes), cut short if it must be */
static void pathf(char *out, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(out, PLEN, f, ap);
	va_end(ap);
}

static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned r(unsigned n) { return n ? (unsigned)(rnd() % n) : 0; }

static void fill(size_t len)
{
	for (size_t i = 0; i + 8 <= len; i += 8) {
		uint64_t v = rnd();
		memcpy(buf + i, &v, 8);
	}
}

/* write LEN bytes at OFF (OFF < 0: append) in 64 KiB pieces */
static void put(int fd, long long off, long long len)
{
	while (len > 0) {
		size_t n = len > (long long)sizeof(buf) ? sizeof(buf) : (size_t)len;
		ssize_t w;

		fill(n);
		w = off < 0 ? write(fd, buf, n) : pwrite(fd, buf, n, off);
		if (w <= 0)
			return;
		if (off >= 0)
			off += w;
		len -= w;
	}
}

/* a file size: mostly small, some inline-sized, some medium, rarely one
 * crossing the indirect-node boundary (not on a full volume) */
static long long pick_size(int full)
{
	switch (r(20)) {
	case 0: return 0;
	case 1: case 2: case 3: case 4: return r(3400);
	case 5: case 6: return 4096LL * r(300) + r(4096);
	case 7: return full || r(4) ? 4096LL * r(64) : 4096LL * (IND_BOUNDARY + r(300));
	default: return r(20000);
	}
}

static void add(char (*tab)[PLEN], int *n, const char *p)
{
	if (*n < MAXP)
		pathf(tab[(*n)++], "%s", p);
}

static void drop(char (*tab)[PLEN], int *n, int i)
{
	memmove(tab[i], tab[i + 1], (size_t)(*n - i - 1) * PLEN);
	(*n)--;
}

static int find(char (*tab)[PLEN], int n, const char *p)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(tab[i], p))
			return i;
	return -1;
}

static void newname(char *out, const char *pre)
{
	pathf(out, "%s/%s%d", dirs[r(ndirs)], pre, serial++);
}

/* fsync phase: fsync (or fdatasync) FD after most operations */
static void maybe_sync(int fd)
{
	if (!syncing || fd < 0 || r(10) < 2)
		return;
	if (r(4) == 0)
		fdatasync(fd);
	else
		fsync(fd);
	nsyncs++;
}

static void sync_path(const char *p)
{
	int fd = open(p, O_RDONLY);

	maybe_sync(fd);
	if (fd >= 0)
		close(fd);
}

static void parent_of(char *out, const char *p)
{
	char *s;

	pathf(out, "%s", p);
	s = strrchr(out, '/');
	if (s)
		*s = 0;
}

static void op_create(int full)
{
	char p[PLEN];
	int fd;

	newname(p, "f");
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	add(files, &nfiles, p);
	put(fd, 0, pick_size(full));
	maybe_sync(fd);
	close(fd);
}

static void op_file(int full)
{
	const char *p = files[r(nfiles)];
	struct stat st;
	long long off, len;
	int fd = open(p, O_RDWR), k = r(13);
	char name[32];

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	off = r((unsigned)st.st_size + 20000);
	len = 1 + r(r(8) ? 32768 : 400000);
	switch (k) {
	case 0: case 1: put(fd, off, len); break;			/* write anywhere */
	case 2: lseek(fd, 0, SEEK_END); put(fd, -1, len); break;	/* append */
	case 3: ftruncate(fd, r((unsigned)st.st_size + 1)); break;	/* truncate down */
	case 4: ftruncate(fd, st.st_size + r(300000)); break;		/* truncate up */
	case 5: fallocate(fd, 0, off, len); break;
	case 6: fallocate(fd, FALLOC_FL_KEEP_SIZE, off, len); break;
	case 7: fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len); break;
	case 8: fchmod(fd, r(07777)); break;
	case 9: {
		static const unsigned ids[] = { 0, 1000, 1001, 65534, 2000, 2001, 2002 };

		fchown(fd, ids[r(7)], ids[r(7)]);
		break;
	}
	case 10: {
		struct timeval tv[2] = { { 1000000 + r(1 << 30), r(1000000) },
					 { 1000000 + r(1 << 30), r(1000000) } };

		futimes(fd, tv);
		break;
	}
	case 11: {
		size_t vl = r(5) ? 1 + r(300) : 1000 + r(1000);

		snprintf(name, sizeof(name), "user.a%u", r(8));
		fill(vl);
		fsetxattr(fd, name, buf, vl, 0);
		break;
	}
	case 12:
		snprintf(name, sizeof(name), "user.a%u", r(8));
		fremovexattr(fd, name);
		break;
	}
	(void)full;
	maybe_sync(fd);
	close(fd);
}

static void op_names(void)
{
	char p[PLEN], dir[PLEN], old[PLEN];
	int i = r(nfiles), j;

	switch (r(4)) {
	case 0:		/* rename, sometimes over another file */
		if (r(3) == 0 && nfiles > 1)
			pathf(p, "%s", files[r(nfiles)]);
		else
			newname(p, "f");
		pathf(old, "%s", files[i]);
		if (!strcmp(p, old) || rename(old, p))
			return;
		if ((j = find(files, nfiles, p)) >= 0)
			drop(files, &nfiles, j);
		i = find(files, nfiles, old);
		pathf(files[i], "%s", p);
		sync_path(p);
		break;
	case 1:		/* hard link */
		newname(p, "f");
		if (link(files[i], p))
			return;
		add(files, &nfiles, p);
		sync_path(r(2) ? p : files[i]);
		break;
	default:	/* unlink; the fsync goes to the parent or to another link */
		if (unlink(files[i]))
			return;
		parent_of(dir, files[i]);
		drop(files, &nfiles, i);
		if (r(2))
			sync_path(dir);
		else if (nfiles)
			sync_path(files[r(nfiles)]);
	}
}

static void op_dirs(void)
{
	char p[PLEN];
	int i;

	if (r(3)) {
		newname(p, "d");
		if (mkdir(p, 0755))
			return;
		add(dirs, &ndirs, p);
		if (r(3) == 0)
			sync_path(p);
		return;
	}
	i = 1 + r(ndirs - 1);
	if (ndirs < 2 || rmdir(dirs[i]))
		return;
	parent_of(p, dirs[i]);
	drop(dirs, &ndirs, i);
	sync_path(p);
}

/* One operation.  The fsync phase renames, links and makes directories
 * less often (the driver checkpoints instead of logging a hard-linked or
 * renamed file, or one in a new directory), and not at all in its tail:
 * the chain the power cut leaves grows long. */
static void op(int full, int tail)
{
	unsigned k = r(100), names = syncing ? 90 : 70, dirs = syncing ? 95 : 88;

	nops++;
	if (k < 25 || nfiles == 0)
		op_create(full);
	else if (k < names || tail)
		op_file(full);
	else if (k < dirs)
		op_names();
	else
		op_dirs();
}

/* fill the volume: 4 MiB files until ENOSPC, then free 0.5 to 8 MiB of
 * it (a volume left with no room at all checkpoints on every fsync) */
static void fill_volume(const char *top)
{
	char p[PLEN];
	int fd, n = 0;

	for (;;) {
		struct stat st;

		pathf(p, "%s/fill%d", top, n++);
		fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			break;
		put(fd, 0, 4 << 20);
		fstat(fd, &st);
		close(fd);
		if (st.st_size < 4 << 20)
			break;
	}
	unlink(p);
	if (n > 1) {
		pathf(p, "%s/fill%d", top, n - 2);
		truncate(p, (4 << 20) - (512 << 10) - 4096LL * r(1024));
	}
}

static void walk(const char *d)
{
	DIR *dh = opendir(d);
	struct dirent *e;
	char p[PLEN];

	if (!dh)
		return;
	add(dirs, &ndirs, d);
	while ((e = readdir(dh))) {
		if (e->d_name[0] == '.')
			continue;
		pathf(p, "%s/%s", d, e->d_name);
		if (e->d_type == DT_DIR && strcmp(e->d_name, "lost+found"))
			walk(p);
		else if (e->d_type == DT_REG && strncmp(e->d_name, "fill", 4))
			add(files, &nfiles, p);
		if (e->d_name[0] != 'f' && e->d_name[0] != 'd')
			continue;
		if (atoi(e->d_name + 1) >= serial)
			serial = atoi(e->d_name + 1) + 1;
	}
	closedir(dh);
}

int main(int argc, char **argv)
{
	unsigned long long seed;
	int full, n, tail;

	if (argc < 4) {
		fprintf(stderr, "usage: rfwork SEED DIR general [full] | rfwork SEED DIR fsync\n");
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	full = argc > 4 && !strcmp(argv[4], "full");
	syncing = !strcmp(argv[3], "fsync");
	rs = seed * 2 + syncing;
	walk(argv[2]);
	if (syncing) {
		n = 10 + r(150);
		tail = n + 5 + r(40);
	} else {
		n = tail = 100 + r(150);
	}
	while (nops < n)
		op(full, 0);
	while (nops < tail)
		op(full, 1);
	if (full && !syncing)
		fill_volume(argv[2]);
	/* sometimes a few more without fsync: lost at the power cut */
	syncing = 0;
	for (n = r(3) ? 0 : r(6); n > 0; n--)
		op(full, 1);
	printf("rfwork %llu %s: %d ops, %d fsyncs, %d files, %d dirs\n", seed, argv[3], nops,
	       nsyncs, nfiles, ndirs);
	return 0;
}
