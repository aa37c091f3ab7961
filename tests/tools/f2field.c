// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * f2field - the corruption tool of the fsck tests: find a named on-disk
 * field through the library's read path and print or overwrite it.
 *
 *   f2field IMG get FIELD          prints "offset size value" (decimal)
 *   f2field IMG set FIELD VALUE    stores VALUE little-endian in the field
 *   f2field IMG fixcrc sb|sb1|cp|cpo|inode.INO   recompute a checksum
 *
 * FIELD is AREA.ARGS.F (numbers in decimal or 0x hex).  F is a number
 * row of the library's field tables (f2/fields.h): the kernel's member name
 * (i_links, i_ext.fofs, block_addr), NAME[i] for an element of an array
 * (i_nid[2], qf_ino[1]), or the row's short alias with the index as a
 * suffix (links, ext_fofs, blkaddr, nid2, qf_ino1, map0):
 *   sb.F, sb1.F        superblock copy 0 / 1 (struct f2_super)
 *   cp.F, cpo.F        head block of the newest checkpoint pack (by version,
 *                      valid or not; pack 1 on a tie) / the other
 *                      (struct f2_checkpoint); also crc (at checksum_offset)
 *   nat.NID.F          struct f2_nat_entry of NID (NAT block, not the journal)
 *   sit.SEG.F          struct f2_sit_entry (vblocks raw: count | type << 10)
 *   ssa.SEG.I.F        entry I of SEG's SSA area block (struct f2_summary)
 *   inode.INO.F        struct f2_inode, or the node footer; also addr0 (the
 *                      first data address, after the extra attributes)
 *   node.NID.F         the node footer (footer.F, or F); word0 (byte 0..3)
 *   dent.DIR.NAME.F    struct f2_dir_entry of NAME, and bit (the bitmap byte
 *                      of the entry's slot) name (its first byte), in DIR's
 *                      first block or inline, else in any block of DIR
 *   orph.I.F           orphan block I of the newest pack (struct
 *                      f2_orphan_block: ino0, entry_count, ...)
 *   quota.Q.ID.F       quota file Q (0 user, 1 group, 2 project), the
 *                      record of ID: id inodes space leaf (the tree's
 *                      last-level ref to its data block)
 *   f2field IMG orphan INO...      add inodes to the orphan list (engine,
 *                                  one checkpoint)
 *   f2field hash NAME              the dentry hash of NAME
 *   f2field hashcf NAME [strict]   its hash in a casefolded directory
 *   f2field hashcf -s NAME         (f2_dentry_hash_casefold); "refused"
 *                                  and exit 1 when strict refuses NAME;
 *                                  NAME "-": one line per NUL-ended name
 *                                  read from stdin (exit 0)
 *   f2field IMG casefold DIR       make DIR a casefolded directory as the
 *                                  kernel keeps one: set F2_CASEFOLD_FL and
 *                                  give every entry the hash the kernel
 *                                  stores for it (the superblock's strict
 *                                  flag; a name it refuses keeps its hash);
 *                                  DIR must be inline or in level 0
 *   f2field IMG dentblk DIR NAME   the directory block (file block index)
 *                                  holding NAME, "inline" when inline
 * The read path must accept the image to locate nat/sit/ssa/inode/node/
 * dent fields: locate (get) before you damage, then set by offset with
 *   f2field IMG setoff OFFSET SIZE VALUE
 * On a multi-device volume (IMG its first device) offsets are in the
 * devices joined: get, set and setoff reach every device.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/casefold.h"
#include "f2/crc.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/fields.h"
#include "f2/file.h"
#include "f2/hash.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "f2/sb.h"

/* f2field hashcf: the casefolded hash of name, or "refused" (1). */
static int hashcf(const char *name, size_t len, int strict)
{
	uint32_t h;

	if (f2_dentry_hash_casefold((const uint8_t *)name, len, strict, &h) < 0) {
		printf("refused\n");
		return 1;
	}
	printf("%u\n", h);
	return 0;
}

static int hashcf_stdin(int strict)
{
	char name[F2_NAME_LEN + 2];
	size_t n = 0;
	int c;

	while ((c = getchar()) != EOF) {
		if (c) {
			if (n < sizeof(name))
				name[n++] = (char)c;
			continue;
		}
		hashcf(name, n, strict);
		n = 0;
	}
	return 0;
}

static int die(const char *what, const char *arg)
{
	fprintf(stderr, "f2field: %s%s\n", what, arg);
	exit(2);
}

/* Adds to *off the offset of field name (a row of f2/fields.h, or one
 * element of it) of structure st and sets *size; 0 if there is no such
 * number field. */
static int field_at(enum f2_struct_id st, const char *name, uint64_t *off, size_t *size)
{
	uint32_t idx;
	const struct f2_field *f = f2_field_find(st, name, &idx);

	if (!f || f->fmt != F2_FMT_UINT || f->width > 8)
		return 0;
	*off += f2_field_offset(f, idx);
	*size = f->width;
	return 1;
}

static uint32_t num(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (end == s || *end)
		die("not a number: ", s);
	return (uint32_t)v;
}

/* The pack the kernel would pick if both were valid (by head version;
 * pack 1 wins a tie), so its fields can be found after its crc broke. */
static int newest_pack(const struct f2_fs *fs)
{
	return (int64_t)(fs->packs[1].version - fs->packs[0].version) > 0 ? 1 : 0;
}

static struct f2_fs *open_fs(const char *img, int sb_only)
{
	struct f2_fs_opts o = { .sb_only = sb_only };
	struct f2_fs *fs;

	if (f2_fs_open(img, &o, &fs)) {
		fprintf(stderr, "f2field: %s: %s\n", img, fs ? fs->why : "cannot open");
		exit(2);
	}
	return fs;
}

struct dent_find {
	const char *name;
	size_t len;
	uint64_t block;
	uint32_t slot;
	int found;
};

static int dent_match(void *arg, const struct f2_dirent *d)
{
	struct dent_find *df = arg;

	if (d->name_len != df->len || memcmp(d->name, df->name, df->len))
		return 0;
	df->block = d->block;
	df->slot = d->slot;
	df->found = 1;
	return 1;
}

/* name in any dentry block of dir (multi-level directories). */
static int locate_dent_any(struct f2_fs *fs, const struct f2_inode_ref *ir, const char *name,
			   const char *f, uint64_t *off, size_t *size)
{
	struct dent_find df = { name, strlen(name), 0, 0, 0 };
	struct f2_file *file;
	uint32_t addr;
	uint64_t base;

	f2_dir_iter(fs, ir, dent_match, &df);
	if (!df.found || df.block == UINT64_MAX || f2_file_open_ref(fs, ir, &file))
		return 0;
	if (f2_file_map(file, df.block, &addr, NULL) || !f2_fs_in_main(fs, addr)) {
		f2_file_close(file);
		return 0;
	}
	f2_file_close(file);
	base = (uint64_t)addr * F2_BLKSIZE;
	*size = 1;
	if (!strcmp(f, "bit")) {
		*off = base + df.slot / 8;
		return 1;
	}
	if (!strcmp(f, "name")) {
		*off = base + offsetof(struct f2_dentry_block, filename) + (uint64_t)df.slot * F2_SLOT_LEN;
		return 1;
	}
	*off = base + offsetof(struct f2_dentry_block, dentry) +
	       (uint64_t)df.slot * sizeof(struct f2_dir_entry);
	if (!field_at(F2_ST_DIR_ENTRY, f, off, size))
		die("unknown dentry field ", f);
	return 1;
}

/* The record of id in quota file type q: file offset of the record. */
static void locate_quota(struct f2_fs *fs, uint32_t q, uint32_t id, const char *f, uint64_t *off,
			 size_t *size)
{
	struct f2_file *file;
	uint8_t b[1024];
	uint32_t blk = 1, addr;
	uint64_t at = 0, leaf = 0;

	if (q > 2 || !fs->sb.qf_ino[q] || f2_file_open(fs, f2_le32(fs->sb.qf_ino[q]), &file))
		die("no quota file", "");
	for (int dep = 0; dep < 4; dep++) {
		if (f2_file_pread(file, (uint64_t)blk * 1024, b, 1024) != 1024)
			die("quota file: short read", "");
		leaf = (uint64_t)blk * 1024 + 4 * ((id >> (24 - 8 * dep)) & 0xFF);
		blk = f2_le32(((const le32 *)b)[(id >> (24 - 8 * dep)) & 0xFF]);
		if (!blk)
			die("quota file: no record for the id", "");
	}
	if (f2_file_pread(file, (uint64_t)blk * 1024, b, 1024) != 1024)
		die("quota file: short read", "");
	for (uint32_t k = 0; k < 14 && !at; k++)
		if (f2_le32(*(const le32 *)(b + 16 + 72 * k)) == id)
			at = (uint64_t)blk * 1024 + 16 + 72 * k;
	if (!at)
		die("quota file: data block lacks the id", "");
	if (!strcmp(f, "leaf"))
		at = leaf;
	if (f2_file_map(file, at / F2_BLKSIZE, &addr, NULL) || !f2_fs_in_main(fs, addr))
		die("quota file: block not mapped", "");
	f2_file_close(file);
	*off = (uint64_t)addr * F2_BLKSIZE + at % F2_BLKSIZE;
	if (!strcmp(f, "id") || !strcmp(f, "leaf")) *size = 4;
	else if (!strcmp(f, "inodes")) { *off += 24; *size = 8; }
	else if (!strcmp(f, "space")) { *off += 48; *size = 8; }
	else die("unknown quota field ", f);
}

/* Inline-or-first-block dentry slot of name in directory dir. */
static void locate_dent(struct f2_fs *fs, uint32_t dir, const char *name, const char *f,
			uint64_t *off, size_t *size)
{
	struct f2_inode_ref ir;
	uint8_t blk[F2_BLKSIZE];
	const uint8_t *bitmap, *de, *names;
	uint32_t nr;
	uint64_t base;
	size_t len = strlen(name);

	if (f2_inode_read(fs, dir, &ir))
		die("", fs->why);
	if (ir.node.i.i_inline & F2_INLINE_DENTRY) {
		uint32_t bytes = ir.inline_bytes, bm, rsv;

		nr = bytes * 8 / ((sizeof(struct f2_dir_entry) + F2_SLOT_LEN) * 8 + 1);
		bm = (nr + 7) / 8;
		rsv = bytes - (uint32_t)((sizeof(struct f2_dir_entry) + F2_SLOT_LEN) * nr) - bm;
		memcpy(blk, &ir.node, F2_BLKSIZE);
		bitmap = f2_inline_data(&ir);
		base = (uint64_t)ir.blkaddr * F2_BLKSIZE;
		bitmap = blk + (bitmap - (const uint8_t *)&ir.node);
		de = bitmap + bm + rsv;
		names = de + nr * sizeof(struct f2_dir_entry);
	} else {
		uint32_t a = f2_inode_addr(&ir, 0);

		if (f2_fs_read_block(fs, a, blk))
			die("", fs->why);
		base = (uint64_t)a * F2_BLKSIZE;
		nr = F2_NR_DENTRY_IN_BLOCK;
		bitmap = blk;
		de = blk + offsetof(struct f2_dentry_block, dentry);
		names = blk + offsetof(struct f2_dentry_block, filename);
	}
	for (uint32_t i = 0; i < nr; i++) {
		const struct f2_dir_entry *d = (const void *)(de + i * sizeof(*d));

		if (!(bitmap[i / 8] & (1u << (i % 8))) || f2_le16(d->name_len) != len ||
		    memcmp(names + (size_t)i * F2_SLOT_LEN, name, len))
			continue;
		if (!strcmp(f, "bit")) {
			*off = base + (uint64_t)(bitmap - blk) + i / 8;
			*size = 1;
			return;
		}
		if (!strcmp(f, "name")) {
			*off = base + (uint64_t)(names + (size_t)i * F2_SLOT_LEN - blk);
			*size = 1;
			return;
		}
		*off = base + (uint64_t)((const uint8_t *)d - blk);
		if (!field_at(F2_ST_DIR_ENTRY, f, off, size))
			die("unknown dentry field ", f);
		return;
	}
	if (!(ir.node.i.i_inline & F2_INLINE_DENTRY) && locate_dent_any(fs, &ir, name, f, off, size))
		return;
	die("no entry ", name);
}

/* The text up to the next dot of *t (cut there); *t moves past the dot,
 * or to NULL if there was none. */
static char *cut(char **t)
{
	char *s = *t, *d = strchr(s, '.');

	*t = d ? d + 1 : NULL;
	if (d)
		*d = 0;
	return s;
}

static void locate(const char *img, const char *spec, uint64_t *off, size_t *size)
{
	char buf[512], *p[5] = { 0 }, *rest = buf;
	int n = 0, args;
	struct f2_fs *fs;

	snprintf(buf, sizeof(buf), "%s", spec);
	if (!strncmp(spec, "dent.", 5)) {	/* the name may hold dots */
		char *dir = buf + 5, *name = strchr(dir, '.'), *f = strrchr(buf, '.');

		if (!name || f == name)
			die("bad field ", spec);
		*name++ = 0;
		*f++ = 0;
		fs = open_fs(img, 0);
		locate_dent(fs, num(dir), name, f, off, size);
		f2_fs_close(fs);
		return;
	}
	/* AREA.ARG...FIELD: the field keeps its dots (i_ext.fofs) */
	p[n++] = cut(&rest);
	args = !strcmp(p[0], "ssa") || !strcmp(p[0], "quota") ? 3 :
	       !strcmp(p[0], "sb") || !strcmp(p[0], "sb1") || !strcmp(p[0], "cp") ||
	       !strcmp(p[0], "cpo") ? 1 : 2;
	while (n < args && rest)
		p[n++] = cut(&rest);
	if (!rest || !*rest)
		die("bad field ", spec);
	p[n++] = rest;
	if (!strcmp(p[0], "sb") || !strcmp(p[0], "sb1")) {
		*off = (p[0][2] ? F2_BLKSIZE : 0) + F2_SUPER_OFFSET;
		if (!field_at(F2_ST_SUPER, p[1], off, size))
			die("unknown superblock field ", p[1]);
		return;
	}
	fs = open_fs(img, 0);
	if (!strcmp(p[0], "cp") || !strcmp(p[0], "cpo")) {
		int pack = p[0][2] ? 1 - newest_pack(fs) : newest_pack(fs);
		uint64_t start = f2_le32(fs->sb.cp_blkaddr) + (uint64_t)pack * F2_BLKS_PER_SEG;

		if (!strcmp(p[1], "crc")) {
			uint8_t head[F2_BLKSIZE];

			if (f2_fs_read_block(fs, start, head))
				die("", fs->why);
			*off = start * F2_BLKSIZE +
			       f2_le32(((const struct f2_checkpoint *)head)->checksum_offset);
			*size = 4;
		} else {
			*off = start * F2_BLKSIZE;
			if (!field_at(F2_ST_CHECKPOINT, p[1], off, size))
				die("unknown checkpoint field ", p[1]);
		}
	} else if (!strcmp(p[0], "nat") && n == 3) {
		uint32_t nid = num(p[1]);
		struct f2_nat_info ni;

		if (f2_nat_lookup(fs, nid, &ni) || ni.in_journal)
			die("not in a NAT block: nid ", p[1]);
		*off = f2_nat_block_addr(fs, nid / F2_NAT_ENTRIES_PER_BLOCK) * F2_BLKSIZE +
		       (nid % F2_NAT_ENTRIES_PER_BLOCK) * sizeof(struct f2_nat_entry);
		if (!field_at(F2_ST_NAT_ENTRY, p[2], off, size))
			die("unknown NAT field ", p[2]);
	} else if (!strcmp(p[0], "sit") && n == 3) {
		uint32_t seg = num(p[1]);
		struct f2_sit_info si;

		if (f2_sit_get(fs, seg, &si) || si.in_journal)
			die("not in a SIT block: segment ", p[1]);
		*off = f2_sit_block_addr(fs, seg / F2_SIT_ENTRIES_PER_BLOCK) * F2_BLKSIZE +
		       (seg % F2_SIT_ENTRIES_PER_BLOCK) * sizeof(struct f2_sit_entry);
		if (!field_at(F2_ST_SIT_ENTRY, p[2], off, size))
			die("unknown SIT field ", p[2]);
	} else if (!strcmp(p[0], "ssa") && n == 4) {
		*off = ((uint64_t)fs->ssa_blkaddr + num(p[1])) * F2_BLKSIZE +
		       num(p[2]) * sizeof(struct f2_summary);
		if (!field_at(F2_ST_SUMMARY, p[3], off, size))
			die("unknown SSA field ", p[3]);
	} else if ((!strcmp(p[0], "inode") || !strcmp(p[0], "node")) && n == 3) {
		uint32_t nid = num(p[1]);
		struct f2_nat_info ni;

		if (f2_nat_lookup(fs, nid, &ni) || !ni.blkaddr)
			die("not in use: nid ", p[1]);
		*off = (uint64_t)ni.blkaddr * F2_BLKSIZE;
		if (!strcmp(p[2], "word0")) {	/* the block's first word */
			*size = 4;
		} else if (!strncmp(p[2], "footer.", 7) &&
			   field_at(F2_ST_NODE_FOOTER, p[2] + 7, off, size)) {
			*off += offsetof(struct f2_node, footer);
		} else if (p[0][1] == 'n' && !strcmp(p[2], "addr0")) {
			struct f2_inode_ref ir;

			if (f2_inode_read(fs, nid, &ir))
				die("", fs->why);
			*off += offsetof(struct f2_inode, i_addr) + 4 * (size_t)ir.extra_words;
			*size = 4;
		} else if (p[0][1] == 'n' && field_at(F2_ST_INODE, p[2], off, size)) {
			;
		} else if (field_at(F2_ST_NODE_FOOTER, p[2], off, size)) {
			*off += offsetof(struct f2_node, footer);
		} else {
			die("unknown node field ", p[2]);
		}
	} else if (!strcmp(p[0], "quota") && n == 4) {
		locate_quota(fs, num(p[1]), num(p[2]), p[3], off, size);
	} else if (!strcmp(p[0], "orph") && n == 3) {
		uint64_t at = f2_le32(fs->sb.cp_blkaddr) + (uint64_t)newest_pack(fs) * F2_BLKS_PER_SEG +
			      1 + f2_le32(fs->sb.cp_payload) + num(p[1]);

		*off = at * F2_BLKSIZE;
		if (!field_at(F2_ST_ORPHAN, p[2], off, size))
			die("unknown orphan block field ", p[2]);
	} else if (!strcmp(p[0], "dent") && n == 4) {
		locate_dent(fs, num(p[1]), p[2], p[3], off, size);
	} else {
		die("bad field ", spec);
	}
	f2_fs_close(fs);
}

static uint64_t get_le(const uint8_t *b, size_t n)
{
	uint64_t v = 0;

	for (size_t i = n; i-- > 0;)
		v = v << 8 | b[i];
	return v;
}

/* The address space field offsets are in: IMG itself, or, when IMG is the
 * first device of a multi-device volume (mkfs -c), every device joined
 * (read-only through the read path, read-write through f2_fs_open_rw()). */
static struct f2_io *vol_open(const char *img, int rw, struct f2_fs **fs)
{
	struct f2_fs_opts o = { .sb_only = 1 };
	struct f2_io *io;
	char why[F2_WHY_LEN];

	*fs = NULL;
	if (!f2_fs_open(img, &o, fs) && (*fs)->ndevs > 1) {
		if (!rw)
			return (*fs)->io;
		f2_fs_close(*fs);
		if (f2_fs_open_rw(img, &o, &io, fs, why, sizeof(why)))
			die("cannot open the devices: ", why);
		return io;
	}
	f2_fs_close(*fs);
	*fs = NULL;
	if (f2_io_open_unix(img, rw ? F2_IO_RDWR : F2_IO_RDONLY, &io))
		die("cannot open ", img);
	return io;
}

static void vol_close(struct f2_io *io, struct f2_fs *fs, int rw)
{
	f2_fs_close(fs);
	if (rw || !fs)
		f2_io_close(io);
}

static void put(const char *img, uint64_t off, size_t size, uint64_t v)
{
	struct f2_fs *fs;
	struct f2_io *io = vol_open(img, 1, &fs);
	uint8_t b[8];

	for (size_t i = 0; i < size; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	if (f2_io_write(io, off, b, size) || f2_io_flush(io))
		die("cannot write ", img);
	vol_close(io, fs, 1);
}

static void fixcrc(const char *img, const char *what)
{
	struct f2_io *io;
	uint8_t blk[F2_BLKSIZE];
	uint64_t at;

	if (f2_io_open_unix(img, F2_IO_RDWR, &io))
		die("cannot open ", img);
	if (!strcmp(what, "sb") || !strcmp(what, "sb1")) {
		at = what[2] ? 1 : 0;
		f2_io_read_block(io, at, blk);
		f2_sb_set_crc((struct f2_super *)(blk + F2_SUPER_OFFSET));
	} else if (!strcmp(what, "cp") || !strcmp(what, "cpo")) {
		struct f2_fs *fs = open_fs(img, 0);
		int pack = what[2] ? 1 - newest_pack(fs) : newest_pack(fs);

		at = f2_le32(fs->sb.cp_blkaddr) + (uint64_t)pack * F2_BLKS_PER_SEG;
		f2_io_read_block(io, at, blk);
		f2_cp_set_crc(blk, f2_le32(((struct f2_checkpoint *)blk)->checksum_offset));
		f2_fs_close(fs);
	} else if (!strncmp(what, "inode.", 6)) {
		struct f2_fs *fs = open_fs(img, 0);
		struct f2_nat_info ni;
		struct f2_node *n = (void *)blk;

		if (f2_nat_lookup(fs, num(what + 6), &ni) || !ni.blkaddr)
			die("no inode ", what + 6);
		at = ni.blkaddr;
		f2_io_read_block(io, at, blk);
		f2_set_le32(n->i.i_inode_checksum, f2_inode_csum(fs->csum_seed, blk));
		f2_fs_close(fs);
	} else {
		die("cannot fix the crc of ", what);
	}
	if (f2_io_write_block(io, at, blk))
		die("cannot write ", img);
	f2_io_close(io);
}

struct cf_job {
	struct f2_fs *fs;
	const struct f2_inode_ref *ir;
	uint64_t *off;		/* byte offset of each entry's hash_code */
	uint32_t *hash;
	unsigned n;
	int strict;
};

static int cf_entry(void *arg, const struct f2_dirent *d)
{
	struct cf_job *j = arg;
	uint64_t at;
	uint32_t addr, h;

	if ((d->name_len == 1 && d->name[0] == '.') ||
	    (d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	if (f2_dentry_hash_casefold(d->name, d->name_len, j->strict, &h) < 0)
		return 0;
	if (d->block == UINT64_MAX) {
		struct f2_inline_dentry_geom g;

		f2_inline_dentry_geom(j->ir->inline_bytes, &g);
		at = (uint64_t)j->ir->blkaddr * F2_BLKSIZE +
		     (uint64_t)(f2_inline_data(j->ir) - (const uint8_t *)&j->ir->node) +
		     g.dentry_off;
	} else {
		struct f2_file *file;

		if (d->block >= 2)
			die("directory past level 0: ", (const char *)d->name);
		if (f2_file_open_ref(j->fs, j->ir, &file) ||
		    f2_file_map(file, d->block, &addr, NULL))
			die("cannot map a directory block", "");
		f2_file_close(file);
		at = (uint64_t)addr * F2_BLKSIZE + offsetof(struct f2_dentry_block, dentry);
	}
	at += (uint64_t)d->slot * sizeof(struct f2_dir_entry) +
	      offsetof(struct f2_dir_entry, hash_code);
	j->off = realloc(j->off, (j->n + 1) * sizeof(*j->off));
	j->hash = realloc(j->hash, (j->n + 1) * sizeof(*j->hash));
	if (!j->off || !j->hash)
		die("out of memory", "");
	j->off[j->n] = at;
	j->hash[j->n++] = h;
	return 0;
}

/* f2field IMG casefold DIR (see the head of this file). */
static void casefold_dir(const char *img, uint32_t dir)
{
	struct f2_fs *fs = open_fs(img, 0);
	struct f2_inode_ref ir;
	struct cf_job j = { fs, &ir, NULL, NULL, 0, 0 };
	uint64_t flags_off;
	size_t size;
	int csum;

	if (f2_inode_read(fs, dir, &ir))
		die("", fs->why);
	j.strict = f2_fs_cf_strict(fs);
	csum = !!(fs->features & F2_FEAT_INODE_CHKSUM);
	flags_off = (uint64_t)ir.blkaddr * F2_BLKSIZE;
	if (!field_at(F2_ST_INODE, "i_flags", &flags_off, &size))
		die("no i_flags field", "");
	f2_dir_iter(fs, &ir, cf_entry, &j);
	put(img, flags_off, size, f2_le32(ir.node.i.i_flags) | F2_CASEFOLD_FL);
	f2_fs_close(fs);
	for (unsigned i = 0; i < j.n; i++)
		put(img, j.off[i], 4, j.hash[i]);
	free(j.off);
	free(j.hash);
	if (csum) {
		char what[32];

		snprintf(what, sizeof(what), "inode.%u", dir);
		fixcrc(img, what);
	}
}

/* Put inodes on the orphan list through the engine (one checkpoint). */
static void orphan_add(const char *img, int n, char **inos)
{
	struct f2_io *io;
	struct f2_fs *fs;
	struct f2_engine *w;

	if (f2_io_open(img, F2_IO_RDWR, &io))
		die("cannot open ", img);
	if (f2_fs_open_io(io, NULL, &fs) || f2_engine_open(fs, NULL, &w)) {
		fprintf(stderr, "f2field: %s: %s\n", img, fs ? fs->why : "cannot open");
		exit(2);
	}
	for (int i = 0; i < n; i++)
		if (f2_engine_orphan_add(w, num(inos[i])))
			die("orphan_add: ", f2_engine_why(w));
	if (f2_engine_checkpoint(w))
		die("checkpoint: ", f2_engine_why(w));
	f2_engine_close(w);
	f2_fs_close(fs);
	f2_io_close(io);
}

int main(int argc, char **argv)
{
	uint64_t off;
	size_t size;

	if (argc >= 4 && !strcmp(argv[2], "get")) {
		struct f2_fs *fs;
		struct f2_io *io;
		uint8_t b[8];

		locate(argv[1], argv[3], &off, &size);
		io = vol_open(argv[1], 0, &fs);
		if (f2_io_read(io, off, b, size))
			die("cannot read ", argv[1]);
		vol_close(io, fs, 0);
		printf("%llu %zu %llu\n", (unsigned long long)off, size,
		       (unsigned long long)get_le(b, size));
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[2], "set")) {
		locate(argv[1], argv[3], &off, &size);
		put(argv[1], off, size, strtoull(argv[4], NULL, 0));
		return 0;
	}
	if (argc >= 6 && !strcmp(argv[2], "setoff")) {
		size = num(argv[4]);
		if (size < 1 || size > 8)
			die("size must be 1..8: ", argv[4]);
		put(argv[1], strtoull(argv[3], NULL, 0), size, strtoull(argv[5], NULL, 0));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "hash")) {
		printf("%u\n", f2_dentry_hash((const uint8_t *)argv[2], strlen(argv[2])));
		return 0;
	}
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "hashcf")) {
		const char *name = argv[2];
		int strict = 0;

		if (argc == 4 && !strcmp(argv[2], "-s")) {
			strict = 1;
			name = argv[3];
		} else if (argc == 4) {
			if (strcmp(argv[3], "strict"))
				die("hashcf: unknown argument ", argv[3]);
			strict = 1;
		}
		if (!strcmp(name, "-"))
			return hashcf_stdin(strict);
		return hashcf(name, strlen(name), strict);
	}
	if (argc == 4 && !strcmp(argv[2], "casefold")) {
		casefold_dir(argv[1], num(argv[3]));
		return 0;
	}
	if (argc == 5 && !strcmp(argv[2], "dentblk")) {
		struct f2_fs *fs = open_fs(argv[1], 0);
		struct f2_inode_ref ir;
		struct dent_find df = { argv[4], strlen(argv[4]), 0, 0, 0 };

		if (f2_inode_read(fs, num(argv[3]), &ir))
			die("", fs->why);
		f2_dir_iter(fs, &ir, dent_match, &df);
		if (!df.found)
			die("no entry ", argv[4]);
		if (df.block == UINT64_MAX)
			printf("inline\n");
		else
			printf("%llu\n", (unsigned long long)df.block);
		f2_fs_close(fs);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[2], "orphan")) {
		orphan_add(argv[1], argc - 3, argv + 3);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[2], "fixcrc")) {
		fixcrc(argv[1], argv[3]);
		return 0;
	}
	fprintf(stderr, "usage: f2field IMG get FIELD | set FIELD VALUE | "
		"setoff OFFSET SIZE VALUE | fixcrc sb|sb1|cp|cpo|inode.INO\n");
	return 2;
}
