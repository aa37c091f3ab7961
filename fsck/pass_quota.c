// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_quota.c - phase 11: the quota files (quota feature only).
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
 * path and parsed as the kernel's quota v2 tree format (revision 1): a
 * 1 KiB header block, a four-level radix tree of 1 KiB blocks of 256
 * refs indexed by the id's bytes from the most significant, and data
 * blocks of 14 records of 72 bytes.  Checks: magic and revision, block
 * counts and the free lists in range, refs inside the file and never
 * naming the header, the root or a block twice in the tree, every leaf
 * naming a data block that holds that id; then every id that owns inodes
 * has a record (QUOTA_MISSING) with the space and inode counts found
 * (QUOTA_USAGE), and records of ids owning nothing have no usage.
 *
 * Repair (-y, -p, or yes on a terminal), when the quota findings are the
 * only errors left and no earlier repair changed the tree (superblock
 * and counter repairs aside; otherwise a second run does it): each quota
 * file that disagrees is rewritten through the write engine from the
 * usage found, limits and grace times kept, then one checkpoint (which
 * also clears CP_QUOTA_NEED_FSCK).
 * Builds: nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/map.h"
#include "fsck.h"
#include "problem.h"

#define QT_BLK		1024u		/* quota tree block */
#define QT_REFS		(QT_BLK / 4)	/* refs per tree block */
#define QT_DEPTH	4
#define QT_ROOT		1u		/* block 0 is the header */
#define QT_DHDR		16u		/* data block header */
#define QT_REC		72u		/* v2r1 record */
#define QT_RECS		((QT_BLK - QT_DHDR) / QT_REC)	/* 14 */
#define QT_MAX_BYTES	(256u << 20)	/* larger quota files are refused */
#define QT_REPORT_MAX	20		/* findings printed per quota type */
#define QT_GRACE	604800u		/* default grace times (7 days) */

/* v2 header: magic, revision; then the info block at byte 8 */
#define QH_MAGIC	0
#define QH_VERSION	4
#define QI_BGRACE	8
#define QI_IGRACE	12
#define QI_FLAGS	16
#define QI_BLOCKS	20
#define QI_FREE_BLK	24
#define QI_FREE_ENT	28
/* data block header */
#define QD_NEXT		0
#define QD_PREV		4
#define QD_ENTRIES	8
/* record fields */
#define QR_ID		0
#define QR_IHARD	8
#define QR_ISOFT	16
#define QR_INODES	24
#define QR_BHARD	32
#define QR_BSOFT	40
#define QR_SPACE	48
#define QR_BTIME	56
#define QR_ITIME	64

static const uint32_t qmagic[F2_MAX_QUOTAS] = { 0xd9c01f11, 0xd9c01927, 0xd9c03f14 };
static const char *const qname[F2_MAX_QUOTAS] = { "user", "group", "project" };

/* One id's usage: found by the walk, and as recorded in the quota file. */
struct qrec {
	uint32_t id;
	uint8_t mem, disk;
	uint64_t space, inodes;		/* found */
	uint64_t dspace, dinodes;	/* in the file */
	uint8_t limits[QT_REC];		/* the file's record (limits, times kept) */
};

struct qtab {
	struct f2_map map;		/* id -> struct qrec */
};

struct qfile {
	int type;
	uint32_t ino;
	uint8_t *buf;			/* the whole file */
	uint32_t nblk;			/* 1 KiB blocks in buf */
	uint8_t *seen;			/* per block: 1 tree, 2 data */
	char why[F2_WHY_LEN];		/* first structural fault */
	uint32_t bgrace, igrace, flags;	/* from a good header */
	int hdr_ok;
};

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)v);
	wr32(p + 4, (uint32_t)(v >> 32));
}

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
		const struct f2_inode *in = &ir->node.i;
		uint32_t id[F2_MAX_QUOTAS];
		uint64_t blocks;

		if (!(r->flags & INO_WALKED) || (r->flags & INO_BAD) || is_quota_ino(fs, ino))
			continue;
		if ((++done & 4095) == 0)
			progress(ctx, "quota", done, ctx->inodes.map.n);
		if (f2_inode_read(fs, ino, ir)) {
			vmsg(ctx, "quota: ino %u not charged: %s", ino, fs->why);
			continue;
		}
		blocks = f2_le64(in->i_blocks);
		id[0] = f2_le32(in->i_uid);
		id[1] = f2_le32(in->i_gid);
		id[2] = 0;
		if ((fs->features & F2_FEAT_PRJQUOTA) && (in->i_inline & F2_EXTRA_ATTR) &&
		    f2_le16(in->i_extra_isize) >= offsetof(struct f2_inode, i_projid) + 4 -
						   offsetof(struct f2_inode, i_extra_isize))
			id[2] = f2_le32(in->i_projid);
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
			qr->space += blocks ? (blocks - 1) * F2_BLKSIZE : 0;
		}
	}
	free(ir);
	return 0;
}

/* ---- reading a quota file --------------------------------------------------- */
static void qbad(struct qfile *qf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void qbad(struct qfile *qf, const char *fmt, ...)
{
	va_list ap;

	if (qf->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(qf->why, sizeof(qf->why), fmt, ap);
	va_end(ap);
}

/* Look id's leaf up in the tree and take its record from the data block. */
static void take_record(struct qfile *qf, struct qtab *t, uint32_t id, uint32_t blk)
{
	const uint8_t *d = qf->buf + (size_t)blk * QT_BLK;
	struct qrec *r;

	if (rd32(d + QD_ENTRIES) > QT_RECS) {
		qbad(qf, "data block %u holds %u records (at most 14)", blk, rd32(d + QD_ENTRIES));
		return;
	}
	for (uint32_t k = 0; k < QT_RECS; k++) {
		const uint8_t *rec = d + QT_DHDR + k * QT_REC;
		int unused = 1;

		for (uint32_t b = 0; b < QT_REC && unused; b++)
			unused = !rec[b];
		if (unused || rd32(rec + QR_ID) != id)
			continue;
		r = qget(t, id);
		if (!r)
			return;
		if (r->disk) {
			qbad(qf, "id %u has two records (data block %u)", id, blk);
			return;
		}
		r->disk = 1;
		r->dinodes = rd64(rec + QR_INODES);
		r->dspace = rd64(rec + QR_SPACE);
		memcpy(r->limits, rec, QT_REC);
		return;
	}
	qbad(qf, "the tree leads id %u to data block %u, which has no record for it", id, blk);
}

static void walk_tree(struct qfile *qf, struct qtab *t, uint32_t blk, int depth, uint32_t prefix)
{
	const uint8_t *b = qf->buf + (size_t)blk * QT_BLK;

	for (uint32_t i = 0; i < QT_REFS && !qf->why[0]; i++) {
		uint32_t ref = rd32(b + 4 * i), id = prefix << 8 | i;

		if (!ref)
			continue;
		if (ref <= QT_ROOT || ref >= qf->nblk) {
			qbad(qf, "tree block %u names block %u, outside the file", blk, ref);
			return;
		}
		if (depth < QT_DEPTH - 1) {
			if (qf->seen[ref]) {
				qbad(qf, "tree block %u names block %u a second time", blk, ref);
				return;
			}
			qf->seen[ref] = 1;
			walk_tree(qf, t, ref, depth + 1, id);
		} else {
			if (qf->seen[ref] == 1) {
				qbad(qf, "leaf names tree block %u as data (id %u)", ref, id);
				return;
			}
			qf->seen[ref] = 2;
			take_record(qf, t, id, ref);
		}
	}
}

/* Read quota file type q into qf and its records into t; returns 0, or
 * 1 with qf->why set when the file is malformed, or < 0. */
static int read_qfile(struct fsck_ctx *ctx, struct qfile *qf, struct qtab *t)
{
	struct f2_fs *fs = ctx->fs;
	struct f2_file *f = NULL;
	uint64_t size;
	uint32_t blocks;
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
	if (size < 2 * QT_BLK || size > QT_MAX_BYTES) {
		f2_file_close(f);
		qbad(qf, "size %u bytes (%u KiB blocks) out of range", (uint32_t)size,
		     (uint32_t)(size / QT_BLK));
		return 1;
	}
	qf->nblk = (uint32_t)(size / QT_BLK);
	qf->buf = calloc(qf->nblk, QT_BLK);
	qf->seen = calloc(qf->nblk, 1);
	if (!qf->buf || !qf->seen) {
		f2_file_close(f);
		return -ENOMEM;
	}
	got = f2_file_pread(f, 0, qf->buf, (size_t)qf->nblk * QT_BLK);
	f2_file_close(f);
	if (got < 0) {
		if (got == -ENOMEM)
			return -ENOMEM;
		snprintf(qf->why, sizeof(qf->why), "%s", fs->why);
		return 1;
	}
	if (rd32(qf->buf + QH_MAGIC) != qmagic[qf->type] || rd32(qf->buf + QH_VERSION) != 1) {
		qbad(qf, "magic 0x%08x revision %u (not a v2r1 quota file)",
		     rd32(qf->buf + QH_MAGIC), rd32(qf->buf + QH_VERSION));
		return 1;
	}
	blocks = rd32(qf->buf + QI_BLOCKS);
	if (blocks < 2 || blocks > qf->nblk) {
		qbad(qf, "header says %u blocks, the file has %u", blocks, qf->nblk);
		return 1;
	}
	if (rd32(qf->buf + QI_FREE_BLK) >= blocks || rd32(qf->buf + QI_FREE_ENT) >= blocks) {
		qbad(qf, "free block list %u or free entry list %u beyond the file",
		     rd32(qf->buf + QI_FREE_BLK), rd32(qf->buf + QI_FREE_ENT));
		return 1;
	}
	qf->hdr_ok = 1;
	qf->bgrace = rd32(qf->buf + QI_BGRACE);
	qf->igrace = rd32(qf->buf + QI_IGRACE);
	qf->flags = rd32(qf->buf + QI_FLAGS);
	qf->nblk = blocks;	/* the kernel refuses refs past dqi_blocks */
	qf->seen[0] = qf->seen[QT_ROOT] = 1;
	walk_tree(qf, t, QT_ROOT, 0, 0);
	return qf->why[0] ? 1 : 0;
}

/* ---- writing a quota file ---------------------------------------------------- */
struct qbuild {
	uint8_t *buf;
	uint32_t nblk, cap;
};

static int qalloc(struct qbuild *b, uint32_t *blk)
{
	if (b->nblk == b->cap) {
		uint32_t nc = b->cap * 2;
		uint8_t *n = realloc(b->buf, (size_t)nc * QT_BLK);

		if (!n)
			return -ENOMEM;
		memset(n + (size_t)b->cap * QT_BLK, 0, (size_t)(nc - b->cap) * QT_BLK);
		b->buf = n;
		b->cap = nc;
	}
	*blk = b->nblk++;
	return 0;
}

/*
 * A quota file holding one record per id of t that owns something or
 * has limits, in id order: header, root, tree blocks as the ids' paths
 * need them, data blocks filled in turn (the last one, when not full,
 * heads the free entry list), as the kernel would leave it.
 */
static int build_qfile(const struct qfile *qf, const struct qtab *t, struct qbuild *b)
{
	uint32_t n, data = 0, blk, path[QT_DEPTH];
	struct qrec **v = qsorted(t, &n);
	int err = 0;

	if (!v)
		return -ENOMEM;
	b->cap = 8;
	b->nblk = 2;
	b->buf = calloc(b->cap, QT_BLK);
	if (!b->buf) {
		free(v);
		return -ENOMEM;
	}
	memset(path, 0, sizeof(path));
	for (uint32_t k = 0; k < n && !err; k++) {
		const struct qrec *r = v[k];
		uint8_t *rec, *d;
		uint32_t at = QT_ROOT, cnt;
		int limits = 0;

		for (uint32_t i = QR_IHARD; i < QR_INODES; i++)
			limits |= r->limits[i];
		for (uint32_t i = QR_BHARD; i < QR_SPACE; i++)
			limits |= r->limits[i];
		if (!r->mem && !limits)
			continue;	/* owns nothing, no limits: no record */
		if (!data || rd32(b->buf + (size_t)data * QT_BLK + QD_ENTRIES) == QT_RECS)
			err = qalloc(b, &data);
		for (int dep = 0; dep < QT_DEPTH && !err; dep++) {
			uint8_t *ref = b->buf + (size_t)at * QT_BLK + 4 * ((r->id >> (24 - 8 * dep)) & 0xFF);

			if (dep == QT_DEPTH - 1) {
				wr32(ref, data);
			} else if (rd32(ref)) {
				at = rd32(ref);
			} else {
				err = qalloc(b, &blk);
				/* b->buf may have moved */
				ref = b->buf + (size_t)at * QT_BLK + 4 * ((r->id >> (24 - 8 * dep)) & 0xFF);
				if (!err)
					wr32(ref, blk), at = blk;
			}
		}
		if (err)
			break;
		d = b->buf + (size_t)data * QT_BLK;
		cnt = rd32(d + QD_ENTRIES);
		rec = d + QT_DHDR + cnt * QT_REC;
		if (r->disk)
			memcpy(rec, r->limits, QT_REC);
		wr32(rec + QR_ID, r->id);
		wr64(rec + QR_INODES, r->inodes);
		wr64(rec + QR_SPACE, r->space);
		if (!r->space)
			wr64(rec + QR_BTIME, 0);	/* under any limit now */
		if (!r->inodes)
			wr64(rec + QR_ITIME, 0);
		{
			int zero = 1;

			for (uint32_t i = 0; i < QT_REC && zero; i++)
				zero = !rec[i];
			if (zero)	/* id 0 owning nothing: the kernel's marker */
				wr64(rec + QR_ITIME, 1);
		}
		wr32(d + QD_ENTRIES, cnt + 1);
	}
	free(v);
	if (err)
		return err;
	wr32(b->buf + QH_MAGIC, qmagic[qf->type]);
	wr32(b->buf + QH_VERSION, 1);
	wr32(b->buf + QI_BGRACE, qf->hdr_ok ? qf->bgrace : QT_GRACE);
	wr32(b->buf + QI_IGRACE, qf->hdr_ok ? qf->igrace : QT_GRACE);
	wr32(b->buf + QI_FLAGS, qf->hdr_ok ? qf->flags : 0);
	wr32(b->buf + QI_BLOCKS, b->nblk);
	wr32(b->buf + QI_FREE_BLK, 0);
	wr32(b->buf + QI_FREE_ENT,
	     data && rd32(b->buf + (size_t)data * QT_BLK + QD_ENTRIES) < QT_RECS ? data : 0);
	return 0;
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
		struct qbuild b = { 0 };
		size_t len;

		if (!fix[q])
			continue;
		err = build_qfile(&qf[q], &tabs[q], &b);
		len = (size_t)b.nblk * QT_BLK;
		if (!err)
			err = f2_engine_write(w, qf[q].ino, 0, b.buf, len);
		if (!err)
			err = f2_engine_truncate(w, qf[q].ino, len);
		free(b.buf);
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
	unsigned missing, usage, bad;
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

		if (ctx->findings[i].fixed && phase != 0x01 && phase != 0x0A)
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
	struct qacc acc = { 0, 0, 0 };

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
		ctx->no_repair = "other repairs may change what the inodes own: run fsck.f2fs again";
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
	ctx->no_repair = NULL;
	for (int q = 0; q < F2_MAX_QUOTAS; q++)
		any |= fix[q];
	if (!err && any) {
		/* one rewrite answers every accepted finding of the phase */
		int ok = ctx->rw && !rewrite(ctx, qf, tabs, fix);

		for (; acc.bad; acc.bad--)
			problem_fixed(ctx, PR_QUOTA_FILE_BAD, ok);
		for (; acc.missing; acc.missing--)
			problem_fixed(ctx, PR_QUOTA_MISSING, ok);
		for (; acc.usage; acc.usage--)
			problem_fixed(ctx, PR_QUOTA_USAGE, ok);
	}
	for (int q = 0; q < F2_MAX_QUOTAS; q++) {
		f2_map_free(&tabs[q].map);
		free(qf[q].buf);
		free(qf[q].seen);
	}
	return err;
}
