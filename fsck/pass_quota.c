// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_quota.c - phase 10, the last: the quota files (quota feature only).
 *
 * Usage is summed per user, group and project id over every inode the
 * tree walk reached (ctx->inodes: walked and not damaged; the quota
 * inodes themselves are not charged, orphans are, as the kernel still
 * charges them until they are evicted): one inode, and (i_blocks - 1) *
 * 4096 bytes of space, as the kernel accounts (its i_blocks leaves the
 * inode block out).  The project id is i_projid when the inode's extra
 * area holds it, else 0.  The inodes are read again from their nids:
 * the walk stays untouched and only quota volumes pay for it.
 *
 * Each quota file (sb.qf_ino[]) is read through the library's file read
 * path and parsed by f2_quota_parse() (f2/quota.h: the quota v2r1 tree
 * format).  Checks: magic and revision, block counts and the free lists
 * in range, refs inside the file and never naming the header, the root
 * or a block twice in the tree, every leaf naming a data block that
 * holds that id; then every id that owns inodes has a record
 * (QUOTA_MISSING) with the space and inode counts found (QUOTA_USAGE),
 * and records of ids owning nothing have no usage.  When they all agree,
 * a CP_QUOTA_NEED_FSCK flag left in the checkpoint is a finding of its
 * own (QUOTA_NEED_FSCK: the driver would never load them again).
 *
 * Repair (-y, -p, or yes on a terminal), when the quota findings are the
 * only errors left and no earlier repair changed the tree (superblock
 * and counter repairs aside; otherwise a second run does it): each quota
 * file that disagrees is rewritten through the write engine from the
 * usage found (laid out by f2_quota_build()), limits and grace times
 * kept, then one checkpoint (which also clears CP_QUOTA_NEED_FSCK; with
 * nothing to rewrite, the checkpoint alone clears it).
 * Builds: nothing.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/map.h"
#include "f2/quota.h"
#include "fsck.h"
#include "problem.h"

#define QT_MAX_BYTES	(256u << 20)	/* larger quota files are refused */
#define QT_REPORT_MAX	20		/* findings printed per quota type */

static const char *const qname[F2_MAX_QUOTAS] = { "user", "group", "project" };

/* One id's usage: found by the walk, and as recorded in the quota file. */
struct qrec {
	uint32_t id;
	uint8_t mem, disk;
	uint64_t space, inodes;		/* found */
	uint64_t dspace, dinodes;	/* in the file */
	struct f2_quota_dq dq;		/* the file's record (limits, times kept) */
};

struct qtab {
	struct f2_map map;		/* id -> struct qrec */
};

struct qfile {
	int type;
	uint32_t ino;
	uint8_t *buf;			/* the whole file */
	char why[F2_WHY_LEN];		/* first structural fault */
	struct f2_quota_hdr hdr;	/* grace times and flags, from a good header */
	int hdr_ok;
};

/* ---- the id table -------------------------------------------------------- */
/* The record of id, created if absent; NULL on ENOMEM. */
static struct qrec *qget(struct qtab *t, uint32_t id)
{
	int created;
	struct qrec *r = f2_map_insert(&t->map, id, &created);

	if (r && created)
		r->id = id;
	return r;
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = (*(const struct qrec *const *)a)->id, y = (*(const struct qrec *const *)b)->id;

	return x < y ? -1 : x > y;
}

/* The records in id order (NULL on ENOMEM; an empty table gives a
 * valid pointer with *n = 0). */
static struct qrec **qsorted(const struct qtab *t, uint32_t *n)
{
	struct qrec **v = malloc((t->map.n + 1) * sizeof(*v)), *r;
	size_t pos = 0;
	uint32_t k = 0;

	if (!v)
		return NULL;
	while ((r = f2_map_next(&t->map, &pos, NULL)))
		v[k++] = r;
	if (k > 1)
		qsort(v, k, sizeof(*v), cmp_id);
	*n = k;
	return v;
}

/* ---- usage of the walked inodes ---------------------------------------------- */
static int is_quota_ino(const struct f2_fs *fs, uint32_t ino)
{
	for (int q = 0; q < F2_MAX_QUOTAS; q++)
		if (f2_le32(fs->sb.qf_ino[q]) == ino)
			return 1;
	return 0;
}

static int sum_usage(struct fsck_ctx *ctx, struct qtab *tabs, const int *on)
{
	struct f2_fs *fs = ctx->fs;
	struct f2_inode_ref *ir = malloc(sizeof(*ir));
	const struct ino_rec *r;
	uint64_t done = 0;
	size_t pos = 0;
	uint32_t ino;

	if (!ir)
		return -ENOMEM;
	while ((r = inomap_next(&ctx->inodes, &pos, &ino))) {
		uint32_t id[F2_MAX_QUOTAS];
		uint64_t space;

		if (!(r->flags & INO_WALKED) || (r->flags & INO_BAD) || is_quota_ino(fs, ino))
			continue;
		if ((++done & 4095) == 0)
			progress(ctx, "quota", done, inomap_count(&ctx->inodes));
		if (f2_inode_read(fs, ino, ir)) {
			vmsg(ctx, "quota: ino %u not charged: %s", ino, fs->why);
			continue;
		}
		f2_quota_charge(fs->features, &ir->node.i, id, &space);
		for (int q = 0; q < F2_MAX_QUOTAS; q++) {
			struct qrec *qr;

			if (!on[q])
				continue;
			qr = qget(&tabs[q], id[q]);
			if (!qr) {
				free(ir);
				return -ENOMEM;
			}
			qr->mem = 1;
			qr->inodes++;
			qr->space += space;
		}
	}
	free(ir);
	return 0;
}

/* ---- reading a quota file --------------------------------------------------- */
struct qtake {
	struct qfile *qf;
	struct qtab *t;
};

/* f2_quota_parse() callback: id's record, as the file has it. */
static int take_record(void *arg, const struct f2_quota_dq *dq)
{
	struct qtake *k = arg;
	struct qrec *r = qget(k->t, dq->id);

	if (!r)
		return -ENOMEM;
	if (r->disk) {
		snprintf(k->qf->why, sizeof(k->qf->why), "id %u has two records", dq->id);
		return 1;
	}
	r->disk = 1;
	r->dinodes = dq->inodes;
	r->dspace = dq->space;
	r->dq = *dq;
	return 0;
}

/* Read quota file type q into qf and its records into t; returns 0, or
 * 1 with qf->why set when the file is malformed, or < 0. */
static int read_qfile(struct fsck_ctx *ctx, struct qfile *qf, struct qtab *t)
{
	struct f2_fs *fs = ctx->fs;
	struct f2_file *f = NULL;
	struct qtake k = { qf, t };
	size_t len;
	uint64_t size;
	long got;
	int err;

	err = f2_file_open(fs, qf->ino, &f);
	if (err) {
		if (err == -ENOMEM)
			return err;
		snprintf(qf->why, sizeof(qf->why), "%s", fs->why);
		return 1;
	}
	size = f->ir.size;
	if (size < 2 * F2_QT_BLKSIZE || size > QT_MAX_BYTES) {
		f2_file_close(f);
		snprintf(qf->why, sizeof(qf->why), "size %u bytes (%u KiB blocks) out of range",
			 (uint32_t)size, (uint32_t)(size / F2_QT_BLKSIZE));
		return 1;
	}
	len = (size_t)(size / F2_QT_BLKSIZE) * F2_QT_BLKSIZE;
	qf->buf = calloc(1, len);
	if (!qf->buf) {
		f2_file_close(f);
		return -ENOMEM;
	}
	got = f2_file_pread(f, 0, qf->buf, len);
	f2_file_close(f);
	if (got < 0) {
		if (got == -ENOMEM)
			return -ENOMEM;
		snprintf(qf->why, sizeof(qf->why), "%s", fs->why);
		return 1;
	}
	err = f2_quota_header(qf->buf, len, qf->type, &qf->hdr, qf->why, sizeof(qf->why));
	if (err)
		return 1;
	qf->hdr_ok = 1;
	err = f2_quota_parse(qf->buf, len, qf->type, &qf->hdr, take_record, &k, qf->why,
			     sizeof(qf->why));
	return err < 0 && !qf->why[0] ? err : err ? 1 : 0;
}

/* ---- writing a quota file ---------------------------------------------------- */
/*
 * A quota file holding one record per id of t that owns something or
 * has limits, in id order (f2_quota_build(): as the driver would leave
 * it), limits kept, usage as found, a grace time ended when its usage
 * is gone.
 */
static int build_qfile(const struct qfile *qf, const struct qtab *t, uint8_t **buf,
		       uint32_t *nblk)
{
	static const struct f2_quota_hdr fresh = { .bgrace = F2_QT_GRACE, .igrace = F2_QT_GRACE };
	uint32_t n, m = 0;
	struct qrec **v = qsorted(t, &n);
	struct f2_quota_dq *dq;
	int err;

	if (!v)
		return -ENOMEM;
	dq = calloc(n + 1, sizeof(*dq));
	if (!dq) {
		free(v);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < n; k++) {
		const struct qrec *r = v[k];
		struct f2_quota_dq *d = &dq[m];

		if (r->disk)
			*d = r->dq;
		if (!r->mem && !(d->ihard | d->isoft | d->bhard | d->bsoft)) {
			memset(d, 0, sizeof(*d));
			continue;	/* owns nothing, no limits: no record */
		}
		d->id = r->id;
		d->inodes = r->inodes;
		d->space = r->space;
		if (!r->space)
			d->btime = 0;	/* under any limit now */
		if (!r->inodes)
			d->itime = 0;
		m++;
	}
	err = f2_quota_build(qf->type, qf->hdr_ok ? &qf->hdr : &fresh, dq, m, buf, nblk);
	free(dq);
	free(v);
	return err;
}

/* Rewrite the quota files marked in fix[] through the engine. */
static int rewrite(struct fsck_ctx *ctx, struct qfile *qf, struct qtab *tabs, const int *fix)
{
	struct f2_fs *fs = NULL;
	struct f2_engine *w = NULL;
	int err;

	err = f2_fs_open_io(ctx->rw, NULL, &fs);	/* the state after earlier repairs */
	if (err) {
		fprintf(ctx->out, "  quota: reopening for repair: %s\n", fs ? fs->why : f2_strerror(err));
		goto out;
	}
	err = f2_engine_open(fs, NULL, &w);
	if (err) {
		fprintf(ctx->out, "  quota: %s\n", fs->why);
		goto out;
	}
	for (int q = 0; q < F2_MAX_QUOTAS && !err; q++) {
		uint8_t *buf = NULL;
		uint32_t nblk = 0;
		size_t len;

		if (!fix[q])
			continue;
		err = build_qfile(&qf[q], &tabs[q], &buf, &nblk);
		len = (size_t)nblk * F2_QT_BLKSIZE;
		if (!err)
			err = f2_engine_write(w, qf[q].ino, 0, buf, len);
		if (!err)
			err = f2_engine_truncate(w, qf[q].ino, len);
		free(buf);
		if (err)
			fprintf(ctx->out, "  quota: writing the %s quota file (ino %u): %s\n",
				qname[q], qf[q].ino, f2_engine_why(w));
	}
	if (!err) {
		f2_engine_cp_flags(w, 0, F2_CP_QUOTA_NEED_FSCK);
		err = f2_engine_checkpoint(w);
		if (err)
			fprintf(ctx->out, "  quota: checkpoint: %s\n", f2_engine_why(w));
	}
out:
	if (w)
		f2_engine_close(w);
	if (fs)
		f2_fs_close(fs);
	return err;
}

/* ---- the phase ------------------------------------------------------------------ */
/* Findings accepted for repair, by code, answered by one rewrite. */
struct qacc {
	unsigned missing, usage, bad, flag;
};

/* Compare type q; *fix set when a finding was accepted for repair. */
static int compare(struct fsck_ctx *ctx, struct qfile *qf, struct qtab *t, int *fix,
		   struct qacc *acc)
{
	uint32_t n, shown = 0, more = 0;
	struct qrec **v = qsorted(t, &n);
	const char *qn = qname[qf->type];

	if (!v)
		return -ENOMEM;
	for (uint32_t k = 0; k < n; k++) {
		const struct qrec *r = v[k];
		int bad = r->mem ? (!r->disk || r->dspace != r->space || r->dinodes != r->inodes)
				 : (r->disk && (r->dspace || r->dinodes));

		if (!bad)
			continue;
		if (shown++ >= QT_REPORT_MAX) {
			more++;
			continue;
		}
		if (r->mem && !r->disk) {
			if (fix_problem(ctx, PR_QUOTA_MISSING,
					"%s quota (ino %u): no record for id %u, which owns %llu "
					"inode(s) and %llu bytes", qn, qf->ino, r->id,
					(unsigned long long)r->inodes, (unsigned long long)r->space))
				*fix = 1, acc->missing++;
		} else if (fix_problem(ctx, PR_QUOTA_USAGE,
				       "%s quota (ino %u): id %u has %llu inode(s) and %llu bytes, "
				       "found %llu inode(s) and %llu bytes", qn, qf->ino, r->id,
				       (unsigned long long)r->dinodes, (unsigned long long)r->dspace,
				       (unsigned long long)r->inodes, (unsigned long long)r->space)) {
			*fix = 1, acc->usage++;
		}
	}
	if (more && fix_problem(ctx, PR_QUOTA_USAGE, "%s quota (ino %u): %u more id(s) differ",
				qn, qf->ino, more))
		*fix = 1, acc->usage++;
	free(v);
	return 0;
}

/* Did an earlier phase repair something that may change which inodes
 * exist or what they own (anything but the superblock copies and the
 * checkpoint counters)?  Then the usage summed from the walk is stale. */
static int other_repairs(const struct fsck_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->nfindings; i++) {
		uint32_t phase = ctx->findings[i].code >> 16;

		/* a cleared i_ext changes no block's owner either */
		if (ctx->findings[i].fixed && phase != 0x01 && phase != 0x0A &&
		    ctx->findings[i].code != PR_INODE_EXT)
			return 1;
	}
	return 0;
}

int pass_quota(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	struct qtab tabs[F2_MAX_QUOTAS];
	struct qfile qf[F2_MAX_QUOTAS];
	int on[F2_MAX_QUOTAS] = { 0 }, fix[F2_MAX_QUOTAS] = { 0 }, any = 0, err = 0;
	unsigned left_before = ctx->errors_left;
	struct qacc acc = { 0, 0, 0, 0 };

	if (!(fs->features & F2_FEAT_QUOTA_INO))
		return 0;
	memset(qf, 0, sizeof(qf));
	for (int q = 0; q < F2_MAX_QUOTAS; q++) {
		f2_map_init(&tabs[q].map, sizeof(struct qrec), 0);
		qf[q].type = q;
		qf[q].ino = f2_le32(fs->sb.qf_ino[q]);
		on[q] = qf[q].ino != 0;
		if (on[q] && (qf[q].ino <= F2_META_INO || qf[q].ino >= fs->max_nid)) {
			fix_problem(ctx, PR_QUOTA_FILE_BAD, "%s quota: qf_ino %u out of range",
				    qname[q], qf[q].ino);
			on[q] = 0;
		}
	}
	if (left_before)
		ctx->no_repair = "other errors are left";
	else if (other_repairs(ctx))
		ctx->no_repair = "other repairs may change what the inodes own: checked again after them",
		ctx->rerun = ctx->opts.mode != MODE_NO;
	err = sum_usage(ctx, tabs, on);
	for (int q = 0; q < F2_MAX_QUOTAS && !err; q++) {
		int r;

		if (!on[q])
			continue;
		r = read_qfile(ctx, &qf[q], &tabs[q]);
		if (r < 0) {
			err = r;
			break;
		}
		if (r) {
			/* the records read before the fault are kept for the rewrite */
			if (fix_problem(ctx, PR_QUOTA_FILE_BAD, "%s quota (ino %u): %s",
					qname[q], qf[q].ino, qf[q].why))
				fix[q] = 1, acc.bad++;
			continue;
		}
		err = compare(ctx, &qf[q], &tabs[q], &fix[q], &acc);
	}
	for (int q = 0; q < F2_MAX_QUOTAS; q++)
		any |= fix[q];
	/* the files agree: a flag the driver (or a roll-forward) left must go,
	 * or the driver never loads them again */
	if (!err && !any && ctx->errors_left == left_before &&
	    (fs->cp_flags & F2_CP_QUOTA_NEED_FSCK) &&
	    fix_problem(ctx, PR_QUOTA_NEED_FSCK, "checkpoint ckpt_flags 0x%x: CP_QUOTA_NEED_FSCK set",
			fs->cp_flags))
		any = 1, acc.flag = 1;
	ctx->no_repair = NULL;
	if (!err && any) {
		/* one rewrite answers every accepted finding of the phase */
		int ok = ctx->rw && !rewrite(ctx, qf, tabs, fix);

		for (; acc.bad; acc.bad--)
			problem_fixed(ctx, PR_QUOTA_FILE_BAD, ok);
		for (; acc.missing; acc.missing--)
			problem_fixed(ctx, PR_QUOTA_MISSING, ok);
		for (; acc.usage; acc.usage--)
			problem_fixed(ctx, PR_QUOTA_USAGE, ok);
		if (acc.flag)
			problem_fixed(ctx, PR_QUOTA_NEED_FSCK, ok);
	}
	for (int q = 0; q < F2_MAX_QUOTAS; q++) {
		f2_map_free(&tabs[q].map);
		free(qf[q].buf);
	}
	return err;
}
