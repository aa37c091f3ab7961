// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quota.c - f2_engine_quota_recount(): the quota files rewritten from
 * the inodes the NAT names, for writers that add files in bulk (populate,
 * sload) and leave the usage to one pass at the end.  Each inode (the
 * quota inodes aside) is charged as the kernel charges it
 * (f2_quota_charge); limits, grace times and flags are kept from the
 * quota file when it parses; ids that own nothing keep a record only
 * when they have limits.  Reads go through w's f2_fs, so w must have
 * written nothing yet (open it on a volume opened after the writer's
 * checkpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/map.h"
#include "f2/quota.h"
#include "internal.h"

#define QT_MAX_BYTES	(256u << 20)	/* larger quota files are not read */

struct usage {
	uint64_t inodes, space;
	struct f2_quota_dq dq;		/* the file's record (limits, times) */
	int in_file;
};

struct nids {
	uint32_t *v;
	size_t n, cap;
	const struct f2_fs *fs;
};

static int is_quota_ino(const struct f2_fs *fs, uint32_t ino)
{
	for (int q = 0; q < F2_MAX_QUOTAS; q++)
		if (f2_le32(fs->sb.qf_ino[q]) == ino)
			return 1;
	return 0;
}

/* f2_nat_iter() callback: the inodes (nid == ino, in use), collected
 * first: an inode read inside the walk would look the NAT up again. */
static int take_inode(void *arg, const struct f2_nat_info *ni)
{
	struct nids *s = arg;

	if (ni->nid != ni->ino || ni->blkaddr == F2_NULL_ADDR || is_quota_ino(s->fs, ni->nid) ||
	    ni->nid <= F2_META_INO)
		return 0;
	if (s->n == s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 1024;
		uint32_t *nv = realloc(s->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n++] = ni->nid;
	return 0;
}

static struct usage *use_of(struct f2_map *m, uint32_t id)
{
	return f2_map_insert(m, id, NULL);
}

static int charge_all(struct f2_engine *w, struct f2_map *tab, const int *on)
{
	struct f2_fs *fs = w->fs;
	struct nids s = { .fs = fs };
	struct f2_inode_ref *ir = malloc(sizeof(*ir));
	int err;

	if (!ir)
		return -ENOMEM;
	err = f2_nat_iter(fs, take_inode, &s);
	if (err)
		err = err == -ENOMEM ? err : eng_fail(w, err, "quota: NAT: %s", fs->why);
	for (size_t i = 0; i < s.n && !err; i++) {
		uint32_t id[F2_MAX_QUOTAS];
		uint64_t space;

		err = f2_inode_read(fs, s.v[i], ir);
		if (err) {
			err = eng_fail(w, err, "quota: ino %u: %s", s.v[i], fs->why);
			break;
		}
		f2_quota_charge(fs->features, &ir->node.i, id, &space);
		for (int q = 0; q < F2_MAX_QUOTAS && !err; q++) {
			struct usage *u;

			if (!on[q])
				continue;
			u = use_of(&tab[q], id[q]);
			if (!u) {
				err = -ENOMEM;
				break;
			}
			u->inodes++;
			u->space += space;
		}
	}
	free(ir);
	free(s.v);
	return err;
}

struct take {
	struct f2_map *tab;
	int dup;
};

/* f2_quota_parse() callback: an id's record, for its limits and times. */
static int take_record(void *arg, const struct f2_quota_dq *dq)
{
	struct take *t = arg;
	struct usage *u = use_of(t->tab, dq->id);

	if (!u)
		return -ENOMEM;
	if (u->in_file)
		t->dup = 1;
	u->dq = *dq;
	u->in_file = 1;
	return 0;
}

/* The records and header of quota file type q (ino), when it parses;
 * a file that does not is replaced with fresh limits (*h as mkfs
 * writes it). */
static int read_limits(struct f2_engine *w, int q, uint32_t ino, struct f2_map *tab,
		       struct f2_quota_hdr *h)
{
	struct f2_file *f = NULL;
	struct take t = { tab, 0 };
	uint8_t *buf;
	size_t len;
	char why[F2_WHY_LEN];
	int err;

	memset(h, 0, sizeof(*h));
	h->bgrace = h->igrace = F2_QT_GRACE;
	err = f2_file_open(w->fs, ino, &f);
	if (err)
		return err == -ENOMEM ? err : 0;
	if (f->ir.size < 2 * F2_QT_BLKSIZE || f->ir.size > QT_MAX_BYTES) {
		f2_file_close(f);
		return 0;
	}
	len = (size_t)(f->ir.size / F2_QT_BLKSIZE) * F2_QT_BLKSIZE;
	buf = calloc(1, len);
	if (!buf) {
		f2_file_close(f);
		return -ENOMEM;
	}
	if (f2_file_pread(f, 0, buf, len) == (long)len &&
	    !f2_quota_header(buf, len, q, h, why, sizeof(why))) {
		err = f2_quota_parse(buf, len, q, h, take_record, &t, why, sizeof(why));
		if (err == -ENOMEM) {
			free(buf);
			f2_file_close(f);
			return err;
		}
	} else {
		h->bgrace = h->igrace = F2_QT_GRACE;
		h->flags = 0;
	}
	free(buf);
	f2_file_close(f);
	return 0;
}

static int cmp_dq(const void *a, const void *b)
{
	uint32_t x = ((const struct f2_quota_dq *)a)->id, y = ((const struct f2_quota_dq *)b)->id;

	return x < y ? -1 : x > y;
}

/* Quota file type q from tab, written over ino. */
static int write_file(struct f2_engine *w, int q, uint32_t ino, struct f2_map *tab,
		      const struct f2_quota_hdr *h)
{
	struct f2_quota_dq *dq = calloc(tab->n + 1, sizeof(*dq));
	struct usage *u;
	uint64_t key;
	size_t pos = 0, n = 0;
	uint8_t *out = NULL;
	uint32_t nblk = 0;
	int err;

	if (!dq)
		return -ENOMEM;
	while ((u = f2_map_next(tab, &pos, &key))) {
		struct f2_quota_dq *d = &dq[n];

		if (u->in_file)
			*d = u->dq;
		if (!u->inodes && !(d->ihard | d->isoft | d->bhard | d->bsoft)) {
			memset(d, 0, sizeof(*d));
			continue;	/* owns nothing, no limits: no record */
		}
		d->id = (uint32_t)key;
		d->inodes = u->inodes;
		d->space = u->space;
		if (!u->space)
			d->btime = 0;
		if (!u->inodes)
			d->itime = 0;
		n++;
	}
	qsort(dq, n, sizeof(*dq), cmp_dq);
	err = f2_quota_build(q, h, dq, n, &out, &nblk);
	free(dq);
	if (err)
		return err;
	err = f2_engine_write(w, ino, 0, out, (size_t)nblk * F2_QT_BLKSIZE);
	if (!err)
		err = f2_engine_truncate(w, ino, (uint64_t)nblk * F2_QT_BLKSIZE);
	free(out);
	return err;
}

int f2_engine_quota_recount(struct f2_engine *w)
{
	struct f2_map tab[F2_MAX_QUOTAS];
	struct f2_quota_hdr h[F2_MAX_QUOTAS];
	uint32_t ino[F2_MAX_QUOTAS];
	int on[F2_MAX_QUOTAS], err = 0;

	for (int q = 0; q < F2_MAX_QUOTAS; q++) {
		f2_map_init(&tab[q], sizeof(struct usage), 0);
		ino[q] = f2_le32(w->fs->sb.qf_ino[q]);
		on[q] = (w->fs->features & F2_FEAT_QUOTA_INO) && ino[q] > F2_META_INO &&
			ino[q] < w->fs->max_nid;
	}
	for (int q = 0; q < F2_MAX_QUOTAS && !err; q++)
		if (on[q])
			err = read_limits(w, q, ino[q], &tab[q], &h[q]);
	if (!err)
		err = charge_all(w, tab, on);
	for (int q = 0; q < F2_MAX_QUOTAS && !err; q++)
		if (on[q])
			err = write_file(w, q, ino[q], &tab[q], &h[q]);
	for (int q = 0; q < F2_MAX_QUOTAS; q++)
		f2_map_free(&tab[q]);
	if (!err)
		f2_engine_cp_flags(w, 0, F2_CP_QUOTA_NEED_FSCK);
	return err;
}
