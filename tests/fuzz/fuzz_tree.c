// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_tree.c - fuzz target "tree": open the file system, then walk the
 * directory tree from the root with f2_dir_iter, looking every name up
 * again by hash (f2_dir_lookup) and by path from the root, reading every
 * file (f2_file_pread over its data, skipping holes; compressed clusters
 * included), every symlink and every inode's xattrs.  Budgets bound the
 * inodes visited and the blocks read, so a huge or looping tree costs a
 * bounded time.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/file.h"
#include "f2/fs.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INODE_BUDGET	128
#define BLOCK_BUDGET	1024
#define FILE_BLOCKS	128
#define LOOKUPS		16

struct walk {
	struct f2_fs *fs;
	uint32_t seen[INODE_BUDGET], todo[INODE_BUDGET];
	unsigned nseen, ntodo, blocks, lookups;
	const struct f2_inode_ref *dir;	/* directory being listed */
	uint32_t dir_ino;
	uint64_t sum;
};

static int seen(const struct walk *w, uint32_t ino)
{
	for (unsigned i = 0; i < w->nseen; i++)
		if (w->seen[i] == ino)
			return 1;
	for (unsigned i = 0; i < w->ntodo; i++)
		if (w->todo[i] == ino)
			return 1;
	return 0;
}

static int on_dirent(void *ctx, const struct f2_dirent *d)
{
	struct walk *w = ctx;
	struct f2_dirent again;

	w->sum += d->hash + d->type;
	if (w->lookups < LOOKUPS) {
		w->lookups++;
		if (!f2_dir_lookup(w->fs, w->dir, d->name, d->name_len, &again))
			w->sum += again.ino;
		if (w->dir_ino == F2_ROOT_INO && !memchr(d->name, '/', d->name_len)) {
			char path[F2_NAME_LEN + 2];
			struct f2_inode_ref ir;

			path[0] = '/';
			memcpy(path + 1, d->name, d->name_len);
			path[1 + d->name_len] = 0;
			if (!f2_path_lookup(w->fs, path, &ir))
				w->sum += ir.mode;
		}
	}
	if ((d->name_len == 1 && d->name[0] == '.') ||
	    (d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	if (w->nseen + w->ntodo < INODE_BUDGET && !seen(w, d->ino))
		w->todo[w->ntodo++] = d->ino;
	return 0;
}

static int on_xattr(void *ctx, const struct f2_xattr *x)
{
	struct walk *w = ctx;

	w->sum += x->index + x->name_len + x->value_len;
	if (x->value_len)
		w->sum += x->value[x->value_len - 1] + (uint8_t)x->name[0];
	return 0;
}

static void read_file(struct walk *w, struct f2_file *f)
{
	uint8_t buf[F2_BLKSIZE];
	uint64_t nblocks = (f->ir.size + F2_BLKSIZE - 1) / F2_BLKSIZE;
	uint64_t fofs = 0;
	uint32_t addr;

	for (unsigned n = 0; n < FILE_BLOCKS && w->blocks < BLOCK_BUDGET; n++, w->blocks++) {
		long got;

		fofs = f2_file_next_data(f, fofs);
		if (fofs >= nblocks)
			break;
		if (f2_file_map(f, fofs, &addr, NULL) == 0)
			w->sum += addr;
		got = f2_file_pread(f, fofs * F2_BLKSIZE, buf, sizeof(buf));
		if (got < 0)
			break;
		if (got)
			w->sum += buf[got - 1];
		fofs++;
	}
}

static void visit(struct walk *w, uint32_t ino)
{
	struct f2_file *f = NULL;
	char link[F2_BLKSIZE + 1];

	if (f2_file_open(w->fs, ino, &f))
		return;
	f2_xattr_iter(w->fs, &f->ir, on_xattr, w);
	if (S_ISDIR(f->ir.mode)) {
		w->dir = &f->ir;
		w->dir_ino = ino;
		f2_dir_iter(w->fs, &f->ir, on_dirent, w);
	} else if (S_ISLNK(f->ir.mode)) {
		if (!f2_symlink_read(w->fs, &f->ir, link, sizeof(link)))
			w->sum += strlen(link);
	} else if (S_ISREG(f->ir.mode)) {
		read_file(w, f);
	}
	f2_file_close(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2_io *io = fz_begin(data, size);
	struct f2_fs *fs = NULL;
	static struct walk w;

	if (f2_fs_open_io(io, NULL, &fs) == 0) {
		memset(&w, 0, sizeof(w));
		w.fs = fs;
		w.todo[w.ntodo++] = F2_ROOT_INO;
		while (w.ntodo) {
			uint32_t ino = w.todo[--w.ntodo];

			w.seen[w.nseen++] = ino;
			visit(&w, ino);
		}
	}
	f2_fs_close(fs);
	fz_end();
	return 0;
}
