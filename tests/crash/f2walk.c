// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * f2walk - the power-cut tests' oracle: open an image with the read path
 * and print a canonical summary of the file system it holds, so two
 * images can be compared by what a reader sees.
 *
 *   f2walk IMAGE
 *
 * Output, one item a line: the volume's uuid, then every inode reached
 * from the root, depth first in name order:
 *   uuid=<32 hex digits>
 *   <path> <type> <mode octal> <uid> <gid> <size> <nlink> <last>
 * type is f d l p c b s; last is a 64-bit hash of a file's contents
 * (16 hex digits), a symlink's target, else "-".  Hard links print once per name.
 * Exit status:
 *   0  opened and walked; the summary is complete
 *   3  the read path refused the volume at open (no valid superblock or
 *      checkpoint): nothing a tool would take for a file system
 *   4  opened, but a structure reached by the walk is damaged (the
 *      reason on stderr): a half-written file system
 *   2  usage error
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/fs.h"

enum { EXIT_WALKED = 0, EXIT_USAGE = 2, EXIT_REFUSED = 3, EXIT_DAMAGED = 4 };

#define MAX_DEPTH 64

struct ent {
	uint32_t ino;
	uint8_t name[F2_NAME_LEN + 1];
};

struct list {
	struct ent *e;
	size_t n, cap;
};

struct walker {
	struct f2_fs *fs;
	int damaged;
};

static void damaged(struct walker *w, const char *path, const char *what, int err)
{
	fprintf(stderr, "f2walk: %s: %s: %s (%s)\n", path, what, f2_strerror(err), w->fs->why);
	w->damaged = 1;
}

static int collect(void *ctx, const struct f2_dirent *d)
{
	struct list *l = ctx;

	if ((d->name_len == 1 && d->name[0] == '.') ||
	    (d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct ent *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return -12;
		l->e = e;
		l->cap = cap;
	}
	l->e[l->n].ino = d->ino;
	memcpy(l->e[l->n].name, d->name, d->name_len);
	l->e[l->n].name[d->name_len] = 0;
	l->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp((const char *)((const struct ent *)a)->name,
		      (const char *)((const struct ent *)b)->name);
}

static char type_of(uint16_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return 'f';
	case S_IFDIR: return 'd';
	case S_IFLNK: return 'l';
	case S_IFIFO: return 'p';
	case S_IFCHR: return 'c';
	case S_IFBLK: return 'b';
	case S_IFSOCK: return 's';
	default: return '?';
	}
}

static void walk(struct walker *w, uint32_t ino, const char *path, int depth);

/*
 * A file's content hash, 8 bytes at a time (a byte-wise crc32 was most of
 * a power-cut test's time); len is a multiple of 8 except at the end,
 * whose tail is zero padded (the size is printed beside it).
 */
static uint64_t content_hash(uint64_t h, const uint8_t *p, size_t len)
{
	const uint64_t k1 = 0x9e3779b185ebca87ull, k2 = 0xc2b2ae3d27d4eb4full;

	for (; len; p += 8, len = len > 8 ? len - 8 : 0) {
		uint64_t v = 0;

		memcpy(&v, p, len < 8 ? len : 8);
		h ^= v * k2;
		h = ((h << 31) | (h >> 33)) * k1;
	}
	return h;
}

static void show(struct walker *w, const char *path, const struct f2_inode_ref *ir)
{
	char last[F2_BLKSIZE + 1] = "-";
	const struct f2_inode *i = &ir->node.i;

	if (S_ISREG(ir->mode)) {
		static uint8_t buf[64 * F2_BLKSIZE];
		struct f2_file *f;
		uint64_t h = 0, off = 0;
		int err = f2_file_open_ref(w->fs, ir, &f);

		if (err) {
			damaged(w, path, "cannot open", err);
			return;
		}
		while (off < ir->size) {
			size_t fill = 0;

			/* whole buffers: only the last one may be partial */
			while (fill < sizeof(buf) && off < ir->size) {
				long got = f2_file_pread(f, off, buf + fill, sizeof(buf) - fill);

				if (got <= 0) {
					damaged(w, path, "cannot read", got ? (int)got : F2_ECORRUPT);
					f2_file_close(f);
					return;
				}
				fill += (size_t)got;
				off += (uint64_t)got;
			}
			h = content_hash(h, buf, fill);
		}
		f2_file_close(f);
		snprintf(last, sizeof(last), "%016" PRIx64, h);
	} else if (S_ISLNK(ir->mode)) {
		int err = f2_symlink_read(w->fs, ir, last, sizeof(last));

		if (err) {
			damaged(w, path, "cannot read the link", err);
			return;
		}
	}
	printf("%s %c %04o %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu32 " %s\n", path,
	       type_of(ir->mode), ir->mode & 07777, f2_le32(i->i_uid), f2_le32(i->i_gid),
	       ir->size, f2_le32(i->i_links), last);
}

static void walk(struct walker *w, uint32_t ino, const char *path, int depth)
{
	struct f2_inode_ref ir;
	struct list l = { 0 };
	int err = f2_inode_read(w->fs, ino, &ir);

	if (err) {
		damaged(w, path, "cannot read the inode", err);
		return;
	}
	show(w, path, &ir);
	if (!S_ISDIR(ir.mode))
		return;
	if (depth >= MAX_DEPTH) {
		damaged(w, path, "directories nested too deep", F2_ERANGE);
		return;
	}
	err = f2_dir_iter(w->fs, &ir, collect, &l);
	if (err)
		damaged(w, path, "cannot list", err);
	if (l.n)
		qsort(l.e, l.n, sizeof(*l.e), by_name);
	for (size_t k = 0; k < l.n; k++) {
		size_t len = strlen(path) + 1 + strlen((char *)l.e[k].name) + 1;
		char *child = malloc(len);

		if (!child)
			exit(1);
		snprintf(child, len, "%s/%s", strcmp(path, "/") ? path : "", (char *)l.e[k].name);
		walk(w, l.e[k].ino, child, depth + 1);
		free(child);
	}
	free(l.e);
}

int main(int argc, char **argv)
{
	struct walker w = { 0 };
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: f2walk IMAGE\n");
		return EXIT_USAGE;
	}
	err = f2_fs_open(argv[1], NULL, &w.fs);
	if (err) {
		fprintf(stderr, "f2walk: %s: refused: %s (%s)\n", argv[1], f2_strerror(err),
			w.fs ? w.fs->why : "");
		f2_fs_close(w.fs);
		return EXIT_REFUSED;
	}
	printf("uuid=");
	for (int k = 0; k < 16; k++)
		printf("%02x", w.fs->sb.uuid[k]);
	printf("\n");
	walk(&w, F2_ROOT_INO, "/", 0);
	f2_fs_close(w.fs);
	return w.damaged ? EXIT_DAMAGED : EXIT_WALKED;
}
