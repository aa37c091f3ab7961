// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sb.c - a superblock for a volume that lost both copies (f2/rescue.h).
 *
 * The checkpoint packs survive at segment 0, the first zone boundary past
 * the two superblock blocks (geometry.c), so a pack head at block b of a
 * volume made at the start of its disk says the zone is b/512 segments
 * (pack 1) or b/512 - 1 (pack 2); on a partition whose offset moved
 * segment 0 below block 4096, any larger zone (up to 512 MiB) may be.  mkfs's layout (f2_geometry_compute())
 * for the device size and each way of splitting that zone into sections
 * must then give the pack's own numbers: its place, its SIT and NAT
 * bitmap sizes, its payload, and a main area whose size less the
 * overprovision is user_block_count; when the device is larger than the
 * volume, the volume size that does.  The sections are the split whose
 * GC reserve is the pack's at mkfs's best ratio, else at some ratio (-o),
 * else the smallest.
 * The candidate is then opened (the superblock held in memory by an
 * overlay): the pack must load and the root inode read as a directory.
 *
 * Features come from the inodes the NAT names: extra attribute areas,
 * inline xattr sizes, creation times, the inode flags of compression,
 * encryption, verity and casefold (then the one encoding, utf8), quota
 * files at the nids mkfs gives them, lost+found in the root.  The uuid is
 * lost, but inode checksums are seeded with a crc of it: the seed is
 * solved from one inode's checksum (crc32 is affine in its seed),
 * checked on others, and a new uuid made whose crc is that seed (the
 * rest of it from a crc of the checkpoint: the same volume gets the same).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/fs.h"
#include "f2/geometry.h"
#include "f2/io.h"
#include "f2/quota.h"
#include "f2/rescue.h"
#include "f2/sb.h"

#define MAX_ZONE_SEGS	1024u	/* a zone at most 2 GiB (geometry.c) */
#define MAX_SHIFT_ZONE	256u	/* zones looked for behind a partition offset */
#define DENSE_BLOCKS	4096u	/* every block below this may be segment 0 */
#define CSUM_SAMPLES	8u

/* A checkpoint head: its crc, at an offset the format allows. */
static int cp_head_ok(const uint8_t *blk)
{
	const struct f2_checkpoint *cp = (const void *)blk;
	uint32_t off = f2_le32(cp->checksum_offset);

	if (off < offsetof(struct f2_checkpoint, sit_nat_version_bitmap) ||
	    off > F2_BLKSIZE - sizeof(uint32_t) || !f2_cp_crc_ok(blk, off))
		return 0;
	return f2_le32(cp->cp_pack_start_sum) >= 1 &&
	       f2_le32(cp->cp_pack_total_block_count) > f2_le32(cp->cp_pack_start_sum);
}

/* The pack's numbers are what geometry g gives its volume. */
static int geom_fits(const struct f2_geom *g, const struct f2_checkpoint *cp, uint32_t cp_blk)
{
	uint32_t ovp = f2_le32(cp->overprov_segment_count), sum = f2_le32(cp->cp_pack_start_sum);

	if (g->cp_blkaddr != cp_blk || f2_le32(cp->sit_ver_bitmap_bytesize) != g->sit_bitmap_bytes ||
	    f2_le32(cp->nat_ver_bitmap_bytesize) != g->nat_bitmap_bytes ||
	    sum < 1 + g->cp_payload ||
	    (sum != 1 + g->cp_payload && !(f2_le32(cp->ckpt_flags) & F2_CP_ORPHAN_PRESENT)) ||
	    ovp >= g->usable_segments ||
	    f2_le64(cp->user_block_count) != (uint64_t)(g->usable_segments - ovp) * F2_BLKS_PER_SEG)
		return 0;
	for (int i = 0; i < 3; i++)
		if (f2_le32(cp->cur_node_segno[i]) >= g->segment_count_main ||
		    f2_le32(cp->cur_data_segno[i]) >= g->segment_count_main)
			return 0;
	return 1;
}

/* mkfs's geometry for a volume of blocks, zone split s x z, made on a
 * partition start 512-byte sectors into its disk. */
static int layout(uint64_t blocks, uint64_t start, uint32_t s, uint32_t z, int lnb,
		  struct f2_geom *g)
{
	struct f2_geom_params p;

	memset(&p, 0, sizeof(p));
	p.start_sector = start;
	p.sector_size = F2_SECTOR_SIZE;
	p.ndevs = 1;
	p.devs[0].total_sectors = blocks * (F2_BLKSIZE / F2_SECTOR_SIZE);
	p.segs_per_sec = s;
	p.secs_per_zone = z;
	p.large_nat_bitmap = lnb;
	return f2_geometry_compute(&p, g, NULL);
}

/* The geometry with zone split s x z that fits the pack: the device's
 * size, else (a volume smaller than its device) the size whose main area
 * the pack counts.  *shrunk: the volume is smaller than the device. */
static int fit(uint64_t dev_blocks, uint64_t start, uint32_t s, uint32_t z, int lnb,
	       const struct f2_checkpoint *cp, uint32_t cp_blk, struct f2_geom *g, int *shrunk)
{
	uint64_t blocks = dev_blocks;
	uint64_t want = f2_le64(cp->user_block_count) / F2_BLKS_PER_SEG +
			f2_le32(cp->overprov_segment_count);	/* usable segments */

	*shrunk = 0;
	for (int tries = 0; tries < 8; tries++) {
		uint64_t have;

		if (layout(blocks, start, s, z, lnb, g))
			return 0;
		if (geom_fits(g, cp, cp_blk))
			return 1;
		have = g->usable_segments;
		if (have <= want)
			return 0;	/* never more than the device */
		blocks -= (have - want) * F2_BLKS_PER_SEG;
		*shrunk = 1;
	}
	return 0;
}

/* Some overprovision ratio r gives, with s usable segments a section,
 * the pack's reserve as mkfs computes it (f2_geometry_reserve()):
 * reserved = floor((2 * (100 / r + 1) + 6) * s), overprov - reserved =
 * floor((main - reserved) * r / 100), main the usable segments.  The two
 * ranges of r must meet. */
static int reserve_fits(uint32_t main, uint32_t s, uint32_t rsvd, uint32_t ovp)
{
	double xlo = ((double)rsvd / s - 8) / 2, xhi = ((double)(rsvd + 1) / s - 8) / 2;
	double lo, hi;

	if (ovp < rsvd || main <= rsvd || xhi <= 0)
		return 0;
	/* 100 / r in [xlo, xhi) */
	lo = 100 / xhi;
	hi = xlo > 0 ? 100 / xlo : 1e9;
	if (lo < 100.0 * (ovp - rsvd) / (main - rsvd))
		lo = 100.0 * (ovp - rsvd) / (main - rsvd);
	if (hi > 100.0 * (ovp - rsvd + 1) / (main - rsvd))
		hi = 100.0 * (ovp - rsvd + 1) / (main - rsvd);
	return lo < hi + 1e-9;
}

/* Segment 0 at cp_blk: the zone split and geometry that fit the pack;
 * 3 when mkfs's best ratio gives the pack's reserve, 2 some ratio does,
 * 1 the layout alone fits, 0 none.  Segment 0 is the first zone boundary
 * past the superblocks: at block zone * 512 of a volume at the start of
 * its disk, else a partition offset put it there (then any zone larger
 * than cp_blk, and the offset that gives it). */
static int find_geom(uint64_t dev_blocks, const struct f2_checkpoint *cp, uint32_t cp_blk,
		     struct f2_geom *out, int *shrunk)
{
	uint32_t rsvd = f2_le32(cp->rsvd_segment_count), ovp = f2_le32(cp->overprov_segment_count);
	uint32_t zmin = cp_blk / F2_BLKS_PER_SEG, zmax = zmin;
	int best = 0;

	if (cp_blk < 2)
		return 0;
	if (cp_blk % F2_BLKS_PER_SEG) {
		zmin++;
		zmax = MAX_SHIFT_ZONE;
	}
	for (uint32_t zone = zmin; zone <= zmax && zone <= MAX_ZONE_SEGS; zone++) {
		uint64_t start = ((uint64_t)zone * F2_BLKS_PER_SEG - cp_blk) *
				 (F2_BLKSIZE / F2_SECTOR_SIZE);

		for (uint32_t s = 1; s <= zone; s++) {
			if (zone % s)
				continue;
			for (int lnb = 0; lnb < 2; lnb++) {
				struct f2_geom g;
				struct f2_reserve r;
				int sh, score = 1;

				if (!fit(dev_blocks, start, s, zone / s, lnb, cp, cp_blk, &g, &sh))
					continue;
				if (!f2_geometry_reserve(g.segment_count_main, g.usable_segments,
							 g.section_count, 0, &r, NULL) &&
				    r.reserved == rsvd && r.overprov == ovp)
					score = 3;
				else if (reserve_fits(g.usable_segments, (uint32_t)((g.usable_segments +
						      g.section_count - 1) / g.section_count), rsvd, ovp))
					score = 2;
				if (score > best) {
					best = score;
					*out = g;
					*shrunk = sh;
				}
			}
		}
	}
	return best;
}

/* ---- the uuid an inode checksum implies --------------------------------- */

typedef uint32_t (*affine_fn)(const void *arg, uint32_t x);

/* x with f(x) == want, f affine over GF(2)^32: 0, or -1 when singular. */
static int solve(affine_fn f, const void *arg, uint32_t want, uint32_t *x)
{
	uint32_t c = f(arg, 0), row[32] = { 0 }, t;
	uint8_t rhs[32];

	/* row b: the input bits output bit b sums; rhs[b]: its value */
	for (uint32_t i = 0; i < 32; i++) {
		uint32_t col = f(arg, 1u << i) ^ c;

		for (uint32_t b = 0; b < 32; b++)
			if (col >> b & 1)
				row[b] |= 1u << i;
	}
	for (uint32_t b = 0; b < 32; b++)
		rhs[b] = ((want ^ c) >> b) & 1;
	for (uint32_t i = 0; i < 32; i++) {
		uint32_t p = i;
		uint8_t r;

		while (p < 32 && !(row[p] >> i & 1))
			p++;
		if (p == 32)
			return -1;
		t = row[p], row[p] = row[i], row[i] = t;
		r = rhs[p], rhs[p] = rhs[i], rhs[i] = r;
		for (uint32_t q = 0; q < 32; q++)
			if (q != i && (row[q] >> i & 1)) {
				row[q] ^= row[i];
				rhs[q] ^= rhs[i];
			}
	}
	*x = 0;	/* row i is bit i alone now */
	for (uint32_t i = 0; i < 32; i++)
		*x |= (uint32_t)rhs[i] << i;
	return 0;
}

static uint32_t csum_fn(const void *node, uint32_t seed)
{
	return f2_inode_csum(seed, node);
}

static uint32_t tail_fn(const void *arg, uint32_t x)
{
	uint8_t b[4] = { (uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24) };

	return f2_crc32(*(const uint32_t *)arg, b, sizeof(b));
}

/* A uuid (version 4 in form) from the checkpoint the volume opened
 * with: a second rebuild of the same volume makes the same one. */
static void uuid_from_cp(const struct f2_checkpoint *cp, uint8_t uuid[16])
{
	for (uint32_t i = 0; i < 4; i++) {
		uint32_t w = f2_crc32(i + 1, cp, sizeof(*cp));

		for (int k = 0; k < 4; k++)
			uuid[4 * i + k] = (uint8_t)(w >> (8 * k));
	}
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

/* uuid with its last four bytes solved for a crc (the checksum seed)
 * of seed.  0, or -1. */
static int uuid_for_seed(uint32_t seed, uint8_t uuid[16])
{
	uint32_t head, tail;

	head = f2_crc32(~0u, uuid, 12);
	if (solve(tail_fn, &head, seed, &tail))
		return -1;
	for (int i = 0; i < 4; i++)
		uuid[12 + i] = (uint8_t)(tail >> (8 * i));
	return f2_crc32(~0u, uuid, 16) == seed ? 0 : -1;
}

/* ---- features from the inodes --------------------------------------------- */

struct feat_scan {
	struct f2_fs *fs;
	struct f2_node *node;
	uint32_t features;
	uint32_t qf_ino[3];
	uint8_t uuid[16];		/* uuid_from_cp() */
	uint32_t inodes;
	/* inode checksums: the seed the first implies, and the votes */
	int have_seed;
	uint32_t seed, csum_yes, csum_no;
};

static void look_quota(struct feat_scan *fsn, uint32_t nid, const struct f2_inode *i,
		       uint32_t extra_words)
{
	uint8_t blk[F2_BLKSIZE];
	uint32_t addr = f2_le32(i->i_addr[extra_words]), magic;

	if (nid > F2_ROOT_INO + 3 || (f2_le16(i->i_mode) & 0170000) != 0100000 ||
	    !f2_fs_in_main(fsn->fs, addr) || f2_fs_read_block(fsn->fs, addr, blk))
		return;
	magic = f2_le32(((const struct f2_qt_header *)blk)->magic);
	for (int t = 0; t < 3; t++)
		if (magic == f2_quota_magic(t) && !fsn->qf_ino[t])
			fsn->qf_ino[t] = nid;
}

static void look_csum(struct feat_scan *fsn, const struct f2_node *n)
{
	uint32_t stored = f2_le32(n->i.i_inode_checksum), seed;

	if (!stored || fsn->csum_yes + fsn->csum_no >= CSUM_SAMPLES)
		return;
	if (!fsn->have_seed) {
		if (solve(csum_fn, n, stored, &seed))
			return;
		fsn->seed = seed;
		fsn->have_seed = 1;
		return;
	}
	if (f2_inode_csum(fsn->seed, n) == stored)
		fsn->csum_yes++;
	else
		fsn->csum_no++;
}

static int look_inode(void *arg, const struct f2_nat_info *ni)
{
	struct feat_scan *fsn = arg;
	const struct f2_node *n = fsn->node;
	const struct f2_inode *i = &n->i;
	uint32_t flags, isize = 0;

	if (ni->nid != ni->ino || ni->nid < F2_ROOT_INO || !f2_fs_in_main(fsn->fs, ni->blkaddr) ||
	    f2_fs_read_block(fsn->fs, ni->blkaddr, fsn->node) ||
	    f2_le32(n->footer.nid) != ni->nid || f2_le32(n->footer.ino) != ni->nid ||
	    f2_node_ofs(n) != 0)
		return 0;
	fsn->inodes++;
	flags = f2_le32(i->i_flags);
	if (i->i_inline & F2_EXTRA_ATTR) {
		isize = f2_le16(i->i_extra_isize);
		if (isize < 4 || isize > F2_EXTRA_ISIZE || isize % 4)
			return 0;	/* not one the kernel reads: no evidence */
		fsn->features |= F2_FEAT_EXTRA_ATTR;
		if (f2_le16(i->i_inline_xattr_size))
			fsn->features |= F2_FEAT_FLEX_INLINE_XATTR;
		if (isize >= 12 && f2_le32(i->i_projid))
			fsn->features |= F2_FEAT_PRJQUOTA;
		if (isize >= 12)
			look_csum(fsn, n);
		if (isize >= 24 && (f2_le64(i->i_crtime) || f2_le32(i->i_crtime_nsec)))
			fsn->features |= F2_FEAT_INODE_CRTIME;
	}
	if (flags & F2_COMPR_FL)
		fsn->features |= F2_FEAT_COMPRESSION;
	if ((flags & F2_ENCRYPT_FL) || (i->i_advise & F2_ADVISE_ENCRYPT))
		fsn->features |= F2_FEAT_ENCRYPT;
	if ((flags & F2_VERITY_FL) || (i->i_advise & F2_ADVISE_VERITY))
		fsn->features |= F2_FEAT_VERITY;
	if ((flags & F2_CASEFOLD_FL) && (f2_le16(i->i_mode) & 0170000) == 0040000)
		fsn->features |= F2_FEAT_CASEFOLD;
	look_quota(fsn, ni->nid, i, isize / 4);
	return 0;
}

/* ---- putting it together ---------------------------------------------------- */

/* Open io with sb held in memory over blocks 0 and 1: *ov and *fs, the
 * caller closes both (fs first). */
static int open_with(struct f2_io *io, const struct f2_super *sb, struct f2_io **ov,
		     struct f2_fs **fs)
{
	uint8_t blk[F2_BLKSIZE];
	int err = f2_io_open_overlay(io, ov);

	*fs = NULL;
	if (err)
		return err;
	f2_io_overlay_capture(*ov, 1);
	for (uint64_t b = 0; b < 2 && !err; b++) {
		err = f2_io_read_block(io, b, blk);
		memcpy(blk + F2_SUPER_OFFSET, sb, sizeof(*sb));
		if (!err)
			err = f2_io_write(*ov, b * F2_BLKSIZE, blk, F2_BLKSIZE);
	}
	f2_io_overlay_capture(*ov, 0);
	if (!err)
		err = f2_fs_open_io(*ov, NULL, fs);
	return err;
}

static int sit_add(void *arg, const struct f2_sit_info *si)
{
	*(uint64_t *)arg += si->vblocks;
	return 0;
}

static void close_with(struct f2_io *ov, struct f2_fs *fs)
{
	f2_fs_close(fs);
	if (ov)
		f2_io_close(ov);
}

static void build(const struct f2_geom *g, const struct feat_scan *fsn, struct f2_super *sb)
{
	struct f2_sb_opts o;

	memset(&o, 0, sizeof(o));
	o.features = fsn ? fsn->features : 0;
	o.version = "fsck.f2fs rescue";
	o.encoding = F2_ENC_UTF8_12_1;
	f2_sb_build(g, &o, sb, NULL, NULL);
	if (fsn) {
		for (int t = 0; t < 3; t++)
			f2_set_le32(sb->qf_ino[t], fsn->qf_ino[t]);
		memcpy(sb->uuid, fsn->uuid, sizeof(sb->uuid));
		if (fsn->have_seed && fsn->csum_yes >= fsn->csum_no &&
		    !uuid_for_seed(fsn->seed, sb->uuid))
			f2_set_le32(sb->feature, f2_le32(sb->feature) | F2_FEAT_INODE_CHKSUM);
		else
			memcpy(sb->uuid, fsn->uuid, sizeof(sb->uuid));
	}
	f2_sb_set_crc(sb);
}

/* Geometry g opens with its checkpoint and a root directory: then the
 * features and the superblock in out. */
static int verify(struct f2_io *io, const struct f2_geom *g, struct f2_rescue_sb *out,
		  char *why, size_t len)
{
	struct f2_inode_ref *ir = malloc(sizeof(*ir));
	struct feat_scan fsn;
	struct f2_io *ov = NULL;
	struct f2_fs *fs = NULL;
	struct f2_dirent de;
	int err;

	memset(&fsn, 0, sizeof(fsn));
	fsn.node = malloc(sizeof(*fsn.node));
	if (!ir || !fsn.node) {
		err = -ENOMEM;
		goto out;
	}
	build(g, NULL, &out->sb);
	err = open_with(io, &out->sb, &ov, &fs);
	if (err) {
		snprintf(why, len, "%s", fs && fs->why[0] ? fs->why : f2_strerror(err));
		goto out;
	}
	fsn.fs = fs;
	uuid_from_cp(fs->cp, fsn.uuid);
	err = f2_nat_iter(fs, look_inode, &fsn);
	close_with(ov, fs);
	fs = NULL;
	ov = NULL;
	if (err) {
		snprintf(why, len, "reading the NAT: %s", f2_strerror(err));
		goto out;
	}
	if (fsn.qf_ino[0] || fsn.qf_ino[1] || fsn.qf_ino[2])
		fsn.features |= F2_FEAT_QUOTA_INO;
	if (fsn.qf_ino[2])
		fsn.features |= F2_FEAT_PRJQUOTA;
	build(g, &fsn, &out->sb);
	/* with its features: the root must read, and tells lost+found */
	err = open_with(io, &out->sb, &ov, &fs);
	if (!err && (err = f2_inode_read(fs, F2_ROOT_INO, ir)))
		snprintf(why, len, "the root inode: %.200s", fs->why);
	else if (!err && (ir->mode & 0170000) != 0040000 && (err = F2_ECORRUPT))
		snprintf(why, len, "the root inode is not a directory");
	else if (err)
		snprintf(why, len, "%s", fs && fs->why[0] ? fs->why : f2_strerror(err));
	if (!err && !f2_dir_lookup(fs, ir, (const uint8_t *)"lost+found", 10, &de)) {
		fsn.features |= F2_FEAT_LOST_FOUND;
		f2_set_le32(out->sb.feature, f2_le32(out->sb.feature) | F2_FEAT_LOST_FOUND);
		f2_sb_set_crc(&out->sb);
	}
	if (!err) {
		uint64_t sum = 0;

		/* a layout off by a segment can still read a root: the SIT
		 * then does not add up to the pack's count */
		out->sit_agrees = !f2_sit_iter(fs, sit_add, &sum) &&
				  sum == f2_le64(fs->cp->valid_block_count);
		out->pack = fs->cp_pack + 1;
		out->inodes = fsn.inodes;
		out->csum_seed_solved = !!(f2_le32(out->sb.feature) & F2_FEAT_INODE_CHKSUM);
	}
out:
	close_with(ov, fs);
	free(fsn.node);
	free(ir);
	return err;
}

/* The candidates of one pack head at block b (pack 1 there, or pack 2
 * one segment past pack 1), best fit first; *best keeps the first that
 * verifies with a SIT that adds up, else the first that verifies. */
static void try_head(struct f2_io *io, uint64_t dev_blocks, const uint8_t *blk, uint64_t b,
		     struct f2_rescue_sb *best, struct f2_rescue_sb *cand, char *vwhy, size_t vlen)
{
	struct f2_geom g[2];
	int score[2], shrunk[2] = { 0, 0 };

	for (uint32_t pack = 0; pack < 2; pack++)
		score[pack] = b >= 2 + pack * F2_BLKS_PER_SEG ?
			find_geom(dev_blocks, (const void *)blk,
				  (uint32_t)(b - pack * F2_BLKS_PER_SEG), &g[pack], &shrunk[pack]) : 0;
	for (int i = 0; i < 2; i++) {
		int pack = (score[1] > score[0]) ^ i;

		if (!score[pack] || (best->pack && best->sit_agrees) ||
		    verify(io, &g[pack], cand, vwhy, vlen))
			continue;
		if (shrunk[pack])
			snprintf(cand->source, sizeof(cand->source), "checkpoint pack %d and its main "
				 "area (a volume of %llu blocks on a device of %llu)", pack + 1,
				 (unsigned long long)g[pack].block_count,
				 (unsigned long long)dev_blocks);
		else
			snprintf(cand->source, sizeof(cand->source), "checkpoint pack %d and the "
				 "device size (%llu blocks)", pack + 1, (unsigned long long)dev_blocks);
		if (g[pack].segment0_blkaddr % F2_BLKS_PER_SEG) {
			size_t n = strlen(cand->source);

			snprintf(cand->source + n, sizeof(cand->source) - n, ", segment 0 at block "
				 "%u (a partition offset)", g[pack].segment0_blkaddr);
		}
		cand->segs_per_sec = g[pack].segs_per_sec;
		cand->secs_per_zone = g[pack].secs_per_zone;
		if (!best->pack || (cand->sit_agrees && !best->sit_agrees))
			*best = *cand;
	}
}

int f2_rescue_sb(struct f2_io *io, struct f2_rescue_sb *out, char *why, size_t len)
{
	uint64_t dev_blocks = io->size / F2_BLKSIZE;
	uint8_t *blk = malloc(F2_BLKSIZE);
	struct f2_rescue_sb *cand = malloc(sizeof(*cand));
	char vwhy[F2_WHY_LEN] = "";
	int heads = 0;

	memset(out, 0, sizeof(*out));
	if (!blk || !cand) {
		free(blk);
		free(cand);
		return -ENOMEM;
	}
	/* pack 1 at segment 0 (any block below DENSE_BLOCKS, or a zone of z
	 * segments in: block z * 512), pack 2 one segment further */
	for (uint64_t b = 2; b <= (uint64_t)(MAX_ZONE_SEGS + 1) * F2_BLKS_PER_SEG &&
	     !(out->pack && out->sit_agrees); b += b < DENSE_BLOCKS ? 1 : F2_BLKS_PER_SEG) {
		if (b >= dev_blocks)
			break;
		if (f2_io_read_block(io, b, blk) || !cp_head_ok(blk))
			continue;
		heads++;
		try_head(io, dev_blocks, blk, b, out, cand, vwhy, sizeof(vwhy));
	}
	free(blk);
	free(cand);
	if (out->pack)
		return 0;
	if (heads)
		snprintf(why, len, "%d checkpoint pack heads found, no layout fits them%s%s", heads,
			 vwhy[0] ? ": " : "", vwhy);
	else
		snprintf(why, len, "no checkpoint pack at a zone boundary");
	return heads ? F2_ECORRUPT : F2_ENOCP;
}
