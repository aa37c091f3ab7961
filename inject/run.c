// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - inject.f2fs's work: find the block holding the member
 * (f2/locate.h), change it in a copy of the block, redo the checksum that
 * covers the block unless told not to or the member is that checksum, and
 * write the block back in place.  A checkpoint head is written to the
 * pack's tail as well, as a pack's two ends must agree.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include "f2/casefold.h"
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/format.h"
#include "f2/fs.h"
#include "f2/hash.h"
#include "f2/io.h"
#include "f2/locate.h"
#include "f2/sb.h"
#include "support/mounted.h"
#include "inject.h"

enum redo { REDO_NONE, REDO_SB, REDO_CP, REDO_INODE };

struct job {
	const struct inject_opts *o;
	struct member m;
	struct f2_fs *fs;		/* NULL for the superblock */
	struct f2_io *io;		/* read-write; NULL on a dry run */
	struct f2_io *rio;		/* where blocks are read */
	uint8_t blk[F2_BLKSIZE];
	uint64_t blkaddr;
	uint64_t mirror;		/* a second block to write the same bytes to (0: none) */
	uint32_t base;			/* byte of the member's structure in blk */
	enum redo redo;
	char where[160];
};

/* "inject.f2fs: DEVICE: what" on stderr; 1. */
static int fail(const struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const struct job *j, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": %s: ", j->o->dev);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int fail_fs(const struct job *j, int err)
{
	return fail(j, "%s", j->fs && j->fs->why[0] ? j->fs->why : f2_strerror(err));
}

/* The element of an array member: --idx, else auto (when given), else none. */
static int pick_index(const struct job *j, int have_auto, uint32_t auto_idx, uint32_t *idx)
{
	const struct f2_field *f = j->m.f;

	*idx = j->o->have_idx ? j->o->idx : have_auto && f->count > 1 ? auto_idx : 0;
	if (f->count == 1 && *idx) {
		fprintf(stderr, PROG ": member %s is not an array: no --idx\n", j->m.name);
		return 1;
	}
	if (f->count > 1 && !j->o->have_idx && !have_auto) {
		fprintf(stderr, PROG ": member %s is an array: give --idx 0..%u\n", j->m.name,
			f->count - 1);
		return 1;
	}
	if (*idx >= f->count) {
		fprintf(stderr, PROG ": invalid index %u of %s (0..%u)\n", *idx, j->m.name,
			f->count - 1);
		return 1;
	}
	return 0;
}

/* Set a row of the structure at j->base: a number from --val, a string from --str. */
static int set_row(struct job *j, int have_auto, uint32_t auto_idx)
{
	const struct f2_field *f = j->m.f;
	uint8_t *p;
	uint32_t idx;
	char label[80];

	if (pick_index(j, have_auto, auto_idx, &idx))
		return 1;
	p = j->blk + j->base + f2_field_offset(f, idx);
	if (j->base + f2_field_offset(f, idx) + f->width > F2_BLKSIZE)
		return fail(j, "member %s lies past its block", j->m.name);
	snprintf(label, sizeof(label), f->count > 1 ? "%s[%u]" : "%s", j->m.name, idx);
	if (f->fmt == F2_FMT_UINT) {
		uint64_t old = f2_field_get(f, j->blk + j->base, idx);

		if (!j->o->have_val)
			return fail(j, "member %s needs --val", j->m.name);
		if (f->width < 8 && j->o->val >> (8 * f->width)) {
			fprintf(stderr, PROG ": --val %llu does not fit %s (%u bytes)\n",
				(unsigned long long)j->o->val, label, f->width);
			return 1;
		}
		f2_field_set(f, j->blk + j->base, idx, j->o->val);
		printf("Info: inject %s of %s: %llu (0x%llx) -> %llu (0x%llx)\n", label, j->where,
		       (unsigned long long)old, (unsigned long long)old,
		       (unsigned long long)j->o->val, (unsigned long long)j->o->val);
		return 0;
	}
	if (!j->o->str)
		return fail(j, "member %s needs --str", j->m.name);
	if (f->fmt == F2_FMT_UTF16) {
		le16 u[F2_MAX_VOLUME_NAME];

		memset(u, 0, sizeof(u));
		if (f->width > sizeof(u) || f2_utf8_to_utf16le(j->o->str, u, f->width / 2))
			return fail(j, "--str is not UTF-8 or too long for %s", label);
		memcpy(p, u, f->width);
	} else {
		if (strlen(j->o->str) >= f->width) {
			fprintf(stderr, PROG ": --str is too long for %s (at most %u bytes)\n",
				label, f->width - 1u);
			return 1;
		}
		memset(p, 0, f->width);
		memcpy(p, j->o->str, strlen(j->o->str));
	}
	printf("Info: inject %s of %s: \"%s\"\n", label, j->where, j->o->str);
	return 0;
}

static int read_at(struct job *j, uint64_t blkaddr)
{
	int err = f2_io_read_block(j->rio, blkaddr, j->blk);

	j->blkaddr = blkaddr;
	if (err) {
		fprintf(stderr, PROG ": %s: cannot read block %llu: %s\n", j->o->dev,
			(unsigned long long)blkaddr, f2_strerror(err));
		return 1;
	}
	return 0;
}

static int do_sb(struct job *j)
{
	int copy = j->o->pack == 2 ? 1 : 0;

	snprintf(j->where, sizeof(j->where), "sb %d", copy + 1);
	if (read_at(j, (uint64_t)copy))
		return 1;
	j->base = F2_SUPER_OFFSET;
	if (set_row(j, 0, 0))
		return 1;
	if (f2_le32(((struct f2_super *)(j->blk + F2_SUPER_OFFSET))->feature) & F2_FEAT_SB_CHKSUM &&
	    strcmp(j->m.name, "crc"))
		j->redo = REDO_SB;
	return 0;
}

static int do_cp(struct job *j)
{
	int pack = j->o->pack ? j->o->pack - 1 : j->fs->cp_pack;
	uint64_t start = f2_le32(j->fs->sb.cp_blkaddr) + (uint64_t)pack * F2_BLKS_PER_SEG;
	const struct f2_checkpoint *cp = (const void *)j->blk;
	uint32_t total;

	snprintf(j->where, sizeof(j->where), "cp pack %d", pack + 1);
	if (read_at(j, start))
		return 1;
	total = f2_le32(cp->cp_pack_total_block_count);
	if (total >= 2 && total <= F2_BLKS_PER_SEG)
		j->mirror = start + total - 1;
	else
		fprintf(stderr, PROG ": warning: cp pack %d: cp_pack_total_block_count %u is "
			"out of range; its tail is left alone\n", pack + 1, total);
	j->redo = REDO_CP;
	if (j->m.kind == MK_CP_CRC) {
		uint32_t at = f2_le32(cp->checksum_offset);
		uint32_t old;

		if (!j->o->have_val)
			return fail(j, "member crc needs --val");
		if (at > F2_BLKSIZE - 4 || j->o->val > UINT32_MAX)
			return fail(j, "cannot set the crc (checksum_offset %u or --val out of range)",
				    at);
		memcpy(&old, j->blk + at, 4);
		old = f2_le32(old);
		f2_set_le32(*(le32 *)(j->blk + at), (uint32_t)j->o->val);
		printf("Info: inject crc of %s: %u (0x%x) -> %llu (0x%llx)\n", j->where, old, old,
		       (unsigned long long)j->o->val, (unsigned long long)j->o->val);
		j->redo = REDO_NONE;
		return 0;
	}
	return set_row(j, 0, 0);
}

static int do_nat(struct job *j)
{
	struct f2_spot s;
	int err;

	if (!j->o->have_nid)
		return fail(j, "--nat needs --nid NID");
	err = f2_locate_nat(j->fs, j->o->nid, j->o->pack, &s);
	if (err)
		return fail_fs(j, err);
	snprintf(j->where, sizeof(j->where), "nat entry of nid %u in %s", j->o->nid,
		 s.home == F2_HOME_JOURNAL ? "the journal" : s.copy == 2 ? "pack 2" : "pack 1");
	if (read_at(j, s.blkaddr))
		return 1;
	j->base = s.off;
	return set_row(j, 0, 0);
}

static int main_block(const struct job *j, uint32_t *segno, uint32_t *ofs)
{
	if (!j->o->have_blk)
		return fail(j, "--%s needs --blk BLKADDR", area_names[j->o->area]);
	if (!f2_fs_in_main(j->fs, j->o->blk)) {
		fprintf(stderr, PROG ": %s: block %llu is outside the main area (%u..%llu)\n",
			j->o->dev, (unsigned long long)j->o->blk, j->fs->main_blkaddr,
			(unsigned long long)j->fs->main_blkaddr +
				(uint64_t)j->fs->main_segs * F2_BLKS_PER_SEG - 1);
		return 1;
	}
	*segno = f2_fs_segno(j->fs, j->o->blk);
	*ofs = (uint32_t)(j->o->blk - f2_fs_seg_start(j->fs, *segno));
	return 0;
}

static int do_sit(struct job *j)
{
	struct f2_spot s;
	uint32_t segno, ofs;
	int err;

	if (main_block(j, &segno, &ofs))
		return 1;
	err = f2_locate_sit(j->fs, segno, j->o->pack, &s);
	if (err)
		return fail_fs(j, err);
	snprintf(j->where, sizeof(j->where), "sit entry of segment %u in %s", segno,
		 s.home == F2_HOME_JOURNAL ? "the journal" : s.copy == 2 ? "pack 2" : "pack 1");
	if (read_at(j, s.blkaddr))
		return 1;
	j->base = s.off;
	/* valid_map: by default the byte holding the block's bit */
	return set_row(j, 1, ofs / 8);
}

static int do_ssa(struct job *j)
{
	struct f2_spot s;
	uint32_t segno, ofs, entry;
	int footer = j->m.st == F2_ST_SUM_FOOTER, err;

	if (main_block(j, &segno, &ofs))
		return 1;
	entry = j->o->have_idx && !footer ? j->o->idx : ofs;
	if (!footer && entry >= F2_ENTRIES_IN_SUM) {
		fprintf(stderr, PROG ": invalid index %u of the summary entries (0..%u)\n", entry,
			F2_ENTRIES_IN_SUM - 1);
		return 1;
	}
	err = f2_locate_sum(j->fs, segno, footer ? F2_SUM_AT_FOOTER : (int)entry, &s);
	if (err)
		return fail_fs(j, err);
	if (footer)
		snprintf(j->where, sizeof(j->where), "the summary footer of segment %u%s", segno,
			 s.home == F2_HOME_CP_SUM ? " (checkpoint copy)" : "");
	else
		snprintf(j->where, sizeof(j->where), "summary entry %u of segment %u%s", entry,
			 segno, s.home == F2_HOME_CP_SUM ? " (checkpoint copy)" : "");
	if (read_at(j, s.blkaddr))
		return 1;
	j->base = s.off;
	return set_row(j, 0, 0);
}

static int do_node(struct job *j)
{
	const struct f2_node *n = (const void *)j->blk;
	struct f2_spot s;
	int err, inode;

	if (!j->o->have_nid)
		return fail(j, "--node needs --nid NID");
	err = f2_locate_node(j->fs, j->o->nid, &s);
	if (err)
		return fail_fs(j, err);
	if (read_at(j, s.blkaddr))
		return 1;
	inode = f2_le32(n->footer.nid) == j->o->nid && f2_le32(n->footer.ino) == j->o->nid &&
		f2_node_ofs(n) == 0;
	snprintf(j->where, sizeof(j->where), "%s %u (block %llu)", inode ? "inode" : "node",
		 j->o->nid, (unsigned long long)s.blkaddr);
	if (j->m.st == F2_ST_INODE && !inode)
		return fail(j, "%s is not an inode", j->where);
	if (j->m.st == F2_ST_DIRECT_NODE && inode)
		return fail(j, "%s: use i_addr or i_nid", j->where);
	j->base = j->m.st == F2_ST_NODE_FOOTER ? (uint32_t)offsetof(struct f2_node, footer) : 0;
	if (s.csum == F2_CSUM_INODE && strcmp(j->m.name, "i_inode_checksum"))
		j->redo = REDO_INODE;
	return set_row(j, 0, 0);
}

/* The hash the directory's lookups use for name. */
static uint32_t dentry_hash(struct job *j, uint32_t dir, const char *name, size_t len)
{
	struct f2_inode_ref ir;
	uint32_t h;

	if (!f2_inode_read(j->fs, dir, &ir) && (f2_le32(ir.node.i.i_flags) & F2_CASEFOLD_FL) &&
	    !f2_dentry_hash_casefold((const uint8_t *)name, len, f2_fs_cf_strict(j->fs), &h))
		return h;
	return f2_dentry_hash((const uint8_t *)name, len);
}

static int do_dent(struct job *j)
{
	struct f2_dent_spot d;
	struct f2_dir_entry *de;
	int err;

	if (!j->o->have_nid)
		return fail(j, "--dent needs --nid INO");
	err = f2_locate_dentry(j->fs, j->o->nid, j->o->dots, &d);
	if (err)
		return fail_fs(j, err);
	snprintf(j->where, sizeof(j->where), "%s of ino %u (directory %u, slot %u)",
		 j->o->dots == 1 ? "dentry \".\"" : j->o->dots == 2 ? "dentry \"..\"" : "dentry",
		 j->o->nid, d.dir, d.slot);
	if (read_at(j, d.s.blkaddr))
		return 1;
	if (d.s.csum == F2_CSUM_INODE)
		j->redo = REDO_INODE;
	de = (struct f2_dir_entry *)(j->blk + d.dentry_off);
	if (j->m.kind == MK_BITMAP) {
		uint8_t bit = (uint8_t)(1u << (d.slot % 8)), *b = j->blk + d.bitmap_off;
		int old = !!(*b & bit), v = j->o->have_val ? !!j->o->val : 0;

		*b = (uint8_t)(v ? *b | bit : *b & ~bit);
		printf("Info: inject d_bitmap of %s: %d -> %d\n", j->where, old, v);
		return 0;
	}
	if (j->m.kind == MK_FILENAME) {
		size_t len = j->o->str ? strlen(j->o->str) : 0;

		if (!len || len > d.slots_free || len > F2_NAME_LEN) {
			fprintf(stderr, PROG ": filename needs --str of 1..%u bytes (the entry's "
				"slots)\n", d.slots_free);
			return 1;
		}
		memset(j->blk + d.name_off, 0, d.slots_free);
		memcpy(j->blk + d.name_off, j->o->str, len);
		f2_set_le16(de->name_len, (uint16_t)len);
		f2_set_le32(de->hash_code, dentry_hash(j, d.dir, j->o->str, len));
		printf("Info: inject filename of %s: \"%s\" (name_len %zu, hash 0x%x)\n", j->where,
		       j->o->str, len, f2_le32(de->hash_code));
		return 0;
	}
	j->base = d.dentry_off;
	return set_row(j, 0, 0);
}

static void redo_csum(struct job *j)
{
	if (j->o->keep_crc)
		return;
	if (j->redo == REDO_SB) {
		f2_sb_set_crc((struct f2_super *)(j->blk + F2_SUPER_OFFSET));
	} else if (j->redo == REDO_CP) {
		uint32_t at = f2_le32(((const struct f2_checkpoint *)j->blk)->checksum_offset);

		if (at <= F2_BLKSIZE - 4)
			f2_cp_set_crc(j->blk, at);
	} else if (j->redo == REDO_INODE) {
		struct f2_node *n = (struct f2_node *)j->blk;

		f2_set_le32(n->i.i_inode_checksum, f2_inode_csum(j->fs->csum_seed, j->blk));
	}
}

static int write_back(struct job *j)
{
	int err = 0;

	if (j->fs && (j->fs->features & F2_FEAT_BLKZONED) && j->blkaddr >= j->fs->main_blkaddr)
		return fail(j, "block %llu of the main area lies in a sequential zone: it cannot "
			    "be rewritten in place", (unsigned long long)j->blkaddr);
	if (j->o->dry_run) {
		printf("Info: dry run: block %llu not written\n", (unsigned long long)j->blkaddr);
		return 0;
	}
	err = f2_io_write_block(j->io, j->blkaddr, j->blk);
	if (!err && j->mirror)
		err = f2_io_write_block(j->io, j->mirror, j->blk);
	if (!err)
		err = f2_io_flush(j->io);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot write block %llu: %s\n", j->o->dev,
			(unsigned long long)j->blkaddr, f2_strerror(err));
		return 1;
	}
	return 0;
}

static int open_volume(struct job *j)
{
	struct f2_fs_opts fo = { 0 };
	char why[F2_WHY_LEN];
	int err;

	if (j->o->area == AREA_SB) {
		err = f2_io_open(j->o->dev, j->o->dry_run ? F2_IO_RDONLY : F2_IO_RDWR | F2_IO_EXCL,
				 &j->io);
		j->rio = j->io;
		if (err)
			return fail(j, "%s", f2_strerror(err));
		return 0;
	}
	/* an explicit checkpoint pack is found from the superblock alone */
	fo.sb_only = j->o->area == AREA_CP && j->o->pack;
	if (j->o->dry_run) {
		err = f2_fs_open(j->o->dev, &fo, &j->fs);
		if (err)
			return fail(j, "%s", j->fs ? j->fs->why : f2_strerror(err));
		j->rio = j->fs->io;
		return 0;
	}
	err = f2_fs_open_rw(j->o->dev, &fo, &j->io, &j->fs, why, sizeof(why));
	if (err)
		return fail(j, "%s", why[0] ? why : f2_strerror(err));
	j->rio = j->io;
	return 0;
}

int inject_run(const struct inject_opts *o)
{
	static int (*const areas[AREA_NR])(struct job *) = {
		[AREA_SB] = do_sb, [AREA_CP] = do_cp, [AREA_NAT] = do_nat, [AREA_SIT] = do_sit,
		[AREA_SSA] = do_ssa, [AREA_NODE] = do_node, [AREA_DENT] = do_dent,
	};
	struct job j;
	char where[4096];
	int ret;

	memset(&j, 0, sizeof(j));
	j.o = o;
	if (!member_find(o->area, o->mb, &j.m)) {
		fprintf(stderr, PROG ": unknown or unsupported member \"%s\" of --%s; "
			"inject.f2fs --%s 0 -h lists them\n", o->mb, area_names[o->area],
			area_names[o->area]);
		return 1;
	}
	if (!o->dry_run && sup_mounted(o->dev, where, sizeof(where), NULL))
		return fail(&j, "is mounted on %s; inject faults into unmounted volumes only", where);
	if (open_volume(&j))
		return 1;
	ret = areas[o->area](&j);
	if (!ret) {
		redo_csum(&j);
		ret = write_back(&j);
	}
	f2_fs_close(j.fs);
	if (j.io)
		f2_io_close(j.io);
	return ret;
}
