// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quota.c - the quota files of a volume that turns quota on: usage summed
 * over every inode the NAT names (as fsck.f2fs sums it over the inodes it
 * reaches: on a clean volume the same), laid out by f2_quota_build() as
 * the driver would leave it, written as unnamed files by the engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "f2/map.h"
#include "f2/quota.h"
#include "quota.h"

#define PROG "tune.f2fs"

struct usage {
	struct f2_fs *fs;
	uint32_t features;
	struct f2_map ids[3];		/* id -> struct f2_quota_dq */
	uint64_t inodes;
	int err;
};

static int charge(void *ctx, const struct f2_nat_info *ni)
{
	struct usage *u = ctx;
	struct f2_inode_ref ir;
	uint32_t ids[3];
	uint64_t space;

	if (ni->nid != ni->ino || !ni->blkaddr || f2_inode_read(u->fs, ni->ino, &ir))
		return 0;	/* not an inode, or fsck's to judge */
	f2_quota_charge(u->features, &ir.node.i, ids, &space);
	u->inodes++;
	for (int q = 0; q < 3; q++) {
		/* (map values are not aligned for the struct: copied through) */
		void *v = f2_map_insert(&u->ids[q], ids[q], NULL);
		struct f2_quota_dq d;

		if (!v)
			return -12;
		memcpy(&d, v, sizeof(d));
		d.id = ids[q];
		d.inodes++;
		d.space += space;
		memcpy(v, &d, sizeof(d));
	}
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct f2_quota_dq *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The file of type q: usage of each id, ascending. */
static int build(struct usage *u, int q, uint8_t **buf, uint32_t *nblk)
{
	static const struct f2_quota_hdr fresh = { .bgrace = F2_QT_GRACE, .igrace = F2_QT_GRACE };
	struct f2_quota_dq *v = calloc(u->ids[q].n + 1, sizeof(*v));
	size_t pos = 0, n = 0;
	uint64_t key;
	void *d;
	int err;

	if (!v)
		return -12;
	while ((d = f2_map_next(&u->ids[q], &pos, &key)))
		memcpy(&v[n++], d, sizeof(*v));
	qsort(v, n, sizeof(*v), by_id);
	err = f2_quota_build(q, &fresh, v, n, buf, nblk);
	free(v);
	return err;
}

int quota_make(const char *dev, unsigned want, uint32_t features, int dry_run,
	       uint32_t qf_ino[3], uint64_t *inodes)
{
	struct usage u = { .features = features };
	struct f2_fs_opts fo = { 0 };
	struct f2_io *io = NULL;
	struct f2_engine *w = NULL;
	struct f2_wattr a = { .mode = 0100600, .flags = 0x10 /* FS_IMMUTABLE_FL */ };
	char why[F2_WHY_LEN] = "";
	int err;

	for (int q = 0; q < 3; q++)
		f2_map_init(&u.ids[q], sizeof(struct f2_quota_dq), F2_MAP_KEY32);
	err = dry_run ? f2_fs_open(dev, &fo, &u.fs) : f2_fs_open_rw(dev, &fo, &io, &u.fs, why,
								   sizeof(why));
	if (!err)
		err = f2_nat_iter(u.fs, charge, &u);
	if (err) {
		fprintf(stderr, PROG ": %s: summing the usage: %s\n", dev, why[0] ? why :
			u.fs && u.fs->why[0] ? u.fs->why : f2_strerror(err));
		goto out;
	}
	*inodes = u.inodes;
	if (dry_run)
		goto out;
	err = f2_engine_open(u.fs, NULL, &w);
	a.atime = a.mtime = a.ctime = a.crtime = (uint64_t)time(NULL);
	for (int q = 0; q < 3 && !err; q++) {
		uint8_t *buf = NULL;
		uint32_t nblk = 0;

		if (!(want & (1u << q)))
			continue;
		err = build(&u, q, &buf, &nblk);
		if (!err)
			err = f2_engine_create_unnamed(w, f2_le32(u.fs->sb.root_ino), &a, &qf_ino[q]);
		if (!err)
			err = f2_engine_write(w, qf_ino[q], 0, buf, (size_t)nblk * F2_QT_BLKSIZE);
		free(buf);
	}
	if (!err)
		err = f2_engine_checkpoint(w);
	if (err)
		fprintf(stderr, PROG ": %s: making the quota files: %s\n", dev,
			w ? f2_engine_why(w) : f2_strerror(err));
out:
	if (w)
		f2_engine_close(w);
	f2_fs_close(u.fs);
	if (io)
		f2_io_close(io);
	for (int q = 0; q < 3; q++)
		f2_map_free(&u.ids[q]);
	return err ? 1 : 0;
}
