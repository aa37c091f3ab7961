// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * format.c - write an empty file system: root directory, optional quota
 * files and lost+found, NAT entries, SIT state in the checkpoint journal,
 * both checkpoint packs (through the checkpoint writer, f2/cp_pack.h) and the
 * superblocks.
 *
 * Only metadata that must read back as zero is cleared, with zero-range
 * (punching holes in image files), so a sparse image stays sparse.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/cp_pack.h"
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/hash.h"
#include "f2/io.h"
#include "f2/mkfs.h"
#include "f2/quota.h"
#include "../engine/internal.h"

#define QUOTA_BLOCKS	2	/* data blocks of each initial quota file */
#define LPF_NAME	"lost+found"

struct fmt {
	struct f2_io *io;
	const struct f2_mkfs_opts *o;
	const struct f2_geom *g;
	struct f2_super *sb;
	uint32_t features, lpf_ino, next_nid, csum_seed;
	uint32_t nquota;		/* quota inodes */
	uint32_t qino[3];
	uint32_t node_seg0, data_seg0;	/* first block of hot node / data log */
	uint32_t inodes, dblocks;	/* blocks used in each */
	uint8_t *blk;
};

/* Fill the common part of a new inode in f->blk (the extra area by the
 * engine's mkfs rule: eng_inode_fields()). */
static struct f2_node *new_inode(struct fmt *f, uint32_t ino, uint16_t mode, uint32_t flags,
				 uint32_t links, uint64_t size, uint64_t blocks)
{
	struct f2_node *n = (struct f2_node *)f->blk;
	uint64_t t = f->o->timestamp;
	const struct f2_wattr a = {
		.mode = mode, .uid = f->o->root_uid, .gid = f->o->root_gid, .flags = flags,
		.atime = t, .mtime = t, .ctime = t, .crtime = t,
	};

	memset(f->blk, 0, F2_BLKSIZE);
	f2_set_le32(n->footer.nid, ino);
	f2_set_le32(n->footer.ino, ino);
	f2_set_le64(n->footer.cp_ver, f->o->cp_ver);
	f2_set_le32(n->footer.next_blkaddr, f->node_seg0 + f->inodes + 1);
	eng_inode_fields(&n->i, f->features, ENG_INODE_MKFS, &a);
	f2_set_le32(n->i.i_links, links);
	f2_set_le64(n->i.i_size, size);
	f2_set_le64(n->i.i_blocks, blocks);
	return n;
}

static uint32_t addr_base(const struct f2_node *n)
{
	return (n->i.i_inline & F2_EXTRA_ATTR) ? f2_le16(n->i.i_extra_isize) / 4 : 0;
}

static int write_inode(struct fmt *f, struct f2_node *n)
{
	if (f->features & F2_FEAT_INODE_CHKSUM)
		f2_set_le32(n->i.i_inode_checksum, f2_inode_csum(f->csum_seed, n));
	return f2_io_write_block(f->io, f->node_seg0 + f->inodes++, n);
}

static int write_data(struct fmt *f, const void *buf, uint32_t *addr)
{
	*addr = f->data_seg0 + f->dblocks++;
	return f2_io_write_block(f->io, *addr, buf);
}

static void add_dentry(struct f2_dentry_block *d, int slot, const char *name,
		       uint32_t ino)
{
	size_t len = strlen(name);

	f2_set_le32(d->dentry[slot].hash_code, f2_dentry_hash((const uint8_t *)name, len));
	f2_set_le32(d->dentry[slot].ino, ino);
	f2_set_le16(d->dentry[slot].name_len, (uint16_t)len);
	d->dentry[slot].file_type = F2_FT_DIR;
	for (size_t i = 0; i < (len + F2_SLOT_LEN - 1) / F2_SLOT_LEN; i++) {
		size_t n = len - i * F2_SLOT_LEN < F2_SLOT_LEN ? len - i * F2_SLOT_LEN : F2_SLOT_LEN;

		memcpy(d->filename[slot + i], name + i * F2_SLOT_LEN, n);
		f2_set_bit_lsb(d->dentry_bitmap, (uint32_t)(slot + i));
	}
}

/* The initial quota file of type in buf (QUOTA_BLOCKS blocks): one entry,
 * id's usage (the root directory and lost+found); *size its bytes. */
static int quota_file(uint8_t *buf, int type, uint32_t id, uint64_t inodes, uint64_t *size)
{
	const struct f2_quota_hdr h = { .bgrace = F2_QT_GRACE, .igrace = F2_QT_GRACE };
	const struct f2_quota_dq dq = { .id = id, .inodes = inodes, .space = inodes * F2_BLKSIZE };
	uint8_t *file;
	uint32_t nblk;
	int err = f2_quota_build(type, &h, &dq, 1, &file, &nblk);

	if (err)
		return err;
	*size = (uint64_t)nblk * F2_QT_BLKSIZE;
	if (*size > QUOTA_BLOCKS * F2_BLKSIZE) {
		free(file);
		return -EINVAL;
	}
	memset(buf, 0, QUOTA_BLOCKS * F2_BLKSIZE);
	memcpy(buf, file, (size_t)*size);
	free(file);
	return 0;
}

static int write_tree(struct fmt *f, uint32_t *root_data)
{
	uint8_t qbuf[2 * F2_BLKSIZE];
	struct f2_dentry_block *d = (struct f2_dentry_block *)qbuf;
	uint32_t addr;
	struct f2_node *n;
	int err;

	/* root inode first: block 0 of both logs */
	n = new_inode(f, F2_ROOT_INO, 040755, 0, f->lpf_ino ? 3 : 2, F2_BLKSIZE, 2);
	f2_set_le32(n->i.i_current_depth, 1);
	*root_data = f->data_seg0;
	f->dblocks = 1;
	f2_set_le32(n->i.i_addr[addr_base(n)], *root_data);
	err = write_inode(f, n);
	if (err)
		return err;

	for (int q = 0; q < 3; q++) {
		uint32_t ids[3] = { f->o->root_uid, f->o->root_gid, 0 };
		uint64_t size;

		if (!f->qino[q])
			continue;
		if ((err = quota_file(qbuf, q, ids[q], f->lpf_ino ? 2 : 1, &size)))
			return err;
		n = new_inode(f, f->qino[q], 0100600, 0x10 /* immutable */, 1, size,
			      1 + QUOTA_BLOCKS);
		for (int b = 0; b < QUOTA_BLOCKS; b++) {
			if ((err = write_data(f, qbuf + b * F2_BLKSIZE, &addr)))
				return err;
			f2_set_le32(n->i.i_addr[addr_base(n) + b], addr);
		}
		if ((err = write_inode(f, n)))
			return err;
	}

	if (f->lpf_ino) {
		memset(d, 0, F2_BLKSIZE);
		add_dentry(d, 0, ".", f->lpf_ino);
		add_dentry(d, 1, "..", F2_ROOT_INO);
		if ((err = write_data(f, d, &addr)))
			return err;
		n = new_inode(f, f->lpf_ino, 040700, 0, 2, F2_BLKSIZE, 2);
		f2_set_le32(n->i.i_pino, F2_ROOT_INO);
		f2_set_le32(n->i.i_namelen, (uint32_t)strlen(LPF_NAME));
		memcpy(n->i.i_name, LPF_NAME, strlen(LPF_NAME));
		f2_set_le32(n->i.i_current_depth, 1);
		f2_set_le32(n->i.i_addr[addr_base(n)], addr);
		if ((err = write_inode(f, n)))
			return err;
	}

	memset(d, 0, F2_BLKSIZE);
	add_dentry(d, 0, ".", F2_ROOT_INO);
	add_dentry(d, 1, "..", F2_ROOT_INO);
	if (f->lpf_ino)
		add_dentry(d, 2, LPF_NAME, f->lpf_ino);
	return f2_io_write_block(f->io, *root_data, d);
}

/* Inode numbers of the tree in node-log order: root, quotas, lost+found. */
static uint32_t tree_inos(const struct fmt *f, uint32_t *inos)
{
	uint32_t n = 0;

	inos[n++] = F2_ROOT_INO;
	for (int q = 0; q < 3; q++)
		if (f->qino[q])
			inos[n++] = f->qino[q];
	if (f->lpf_ino)
		inos[n++] = f->lpf_ino;
	return n;
}

static int write_nat(struct fmt *f)
{
	struct f2_nat_block *nb = (struct f2_nat_block *)f->blk;
	uint32_t inos[5], n = tree_inos(f, inos);

	memset(f->blk, 0, F2_BLKSIZE);
	for (uint32_t i = 0; i < n; i++) {
		f2_set_le32(nb->entries[inos[i]].ino, inos[i]);
		f2_set_le32(nb->entries[inos[i]].block_addr, f->node_seg0 + i);
	}
	f2_set_le32(nb->entries[F2_NODE_INO].ino, F2_NODE_INO);
	f2_set_le32(nb->entries[F2_NODE_INO].block_addr, 1);
	f2_set_le32(nb->entries[F2_META_INO].ino, F2_META_INO);
	f2_set_le32(nb->entries[F2_META_INO].block_addr, 1);
	return f2_io_write_block(f->io, f->g->nat_blkaddr, nb);
}

/* The journals of the first checkpoint: a NAT entry for each inode of
 * the tree, and the SIT entries of the six current segments. */
static void build_journals(const struct fmt *f, struct f2_journal *nj, struct f2_journal *sj)
{
	uint32_t inos[5], n = tree_inos(f, inos);
	static const int six[6] = { F2_CURSEG_HOT_NODE, F2_CURSEG_WARM_NODE,
		F2_CURSEG_COLD_NODE, F2_CURSEG_HOT_DATA, F2_CURSEG_WARM_DATA,
		F2_CURSEG_COLD_DATA };
	/* a read-only volume's two logs (the others share their segments) */
	static const int two[2] = { F2_CURSEG_HOT_NODE, F2_CURSEG_HOT_DATA };
	int ro = !!(f->o->geom.features & F2_FEAT_RO), nsits = ro ? 2 : 6;
	const int *order = ro ? two : six;

	memset(nj, 0, sizeof(*nj));
	f2_set_le16(nj->n_nats, n);
	for (uint32_t i = 0; i < n; i++) {
		f2_set_le32(nj->nat.entries[i].nid, inos[i]);
		f2_set_le32(nj->nat.entries[i].ne.ino, inos[i]);
		f2_set_le32(nj->nat.entries[i].ne.block_addr, f->node_seg0 + i);
	}
	memset(sj, 0, sizeof(*sj));
	f2_set_le16(sj->n_sits, (uint16_t)nsits);
	for (int i = 0; i < nsits; i++) {
		struct f2_sit_entry *e = &sj->sit.entries[i].se;
		uint32_t used = order[i] == F2_CURSEG_HOT_NODE ? f->inodes :
				order[i] == F2_CURSEG_HOT_DATA ? f->dblocks : 0;

		f2_set_le32(sj->sit.entries[i].segno, f->g->cur_seg[order[i]]);
		f2_set_le16(e->vblocks, (uint16_t)(order[i] << F2_SIT_VBLOCKS_SHIFT | used));
		for (uint32_t b = 0; b < used; b++)
			f2_set_bit_msb(e->valid_map, b);
	}
}

/* Summaries of the hot logs (the others are empty): the owners of the
 * data blocks (root, quota files, lost+found) and of the inodes. */
static void build_sums(const struct fmt *f, struct f2_summary_block *data,
		       struct f2_summary_block *node)
{
	struct f2_summary *se = data->entries;
	uint32_t inos[5], n = tree_inos(f, inos), k = 0;

	f2_set_le32(se[k++].nid, F2_ROOT_INO);
	for (int q = 0; q < 3; q++)
		for (int b = 0; f->qino[q] && b < QUOTA_BLOCKS; b++, k++) {
			f2_set_le32(se[k].nid, f->qino[q]);
			f2_set_le16(se[k].ofs_in_node, (uint16_t)b);
		}
	if (f->lpf_ino)
		f2_set_le32(se[k].nid, f->lpf_ino);
	for (uint32_t i = 0; i < n; i++)
		f2_set_le32(node->entries[i].nid, inos[i]);
}

/* The checkpoint head: counters and current segments of the new volume
 * (the pack layout, the summary and nat_bits flags and the crc are the
 * checkpoint writer's). */
static void build_cp(const struct fmt *f, struct f2_checkpoint *cp, uint64_t ver,
		     uint32_t flags)
{
	const struct f2_geom *g = f->g;

	f2_set_le64(cp->checkpoint_ver, ver);
	f2_set_le64(cp->user_block_count, g->user_block_count);
	f2_set_le64(cp->valid_block_count, f->inodes + f->dblocks);
	f2_set_le32(cp->rsvd_segment_count, g->reserved_segments);
	f2_set_le32(cp->overprov_segment_count, g->overprov_segments);
	/* the logs' segments are in use: six, or two of the main area on a
	 * read-only volume (see f2_geometry_compute on what it counts) */
	f2_set_le32(cp->free_segment_count, (f->o->geom.features & F2_FEAT_RO) ?
		    g->segment_count_main - 2 : g->usable_segments - F2_NR_CURSEG);
	for (int i = 0; i < 8; i++) {
		f2_set_le32(cp->cur_node_segno[i], i < 3 ? g->cur_seg[F2_CURSEG_HOT_NODE + i] :
			    F2_NULL_SEGNO);
		f2_set_le32(cp->cur_data_segno[i], i < 3 ? g->cur_seg[F2_CURSEG_HOT_DATA + i] :
			    F2_NULL_SEGNO);
	}
	f2_set_le16(cp->cur_node_blkoff[0], f->inodes);
	f2_set_le16(cp->cur_data_blkoff[0], f->dblocks);
	f2_set_le32(cp->ckpt_flags, flags);
	f2_set_le32(cp->valid_node_count, f->inodes);
	f2_set_le32(cp->valid_inode_count, f->inodes);
	f2_set_le32(cp->next_free_nid, f->next_nid);
	f2_set_le32(cp->sit_ver_bitmap_bytesize, g->sit_bitmap_bytes);
	f2_set_le32(cp->nat_ver_bitmap_bytesize, g->nat_bitmap_bytes);
	f2_set_le32(cp->checksum_offset, (flags & F2_CP_LARGE_NAT_BITMAP) ?
			F2_CP_MIN_CHKSUM_OFFSET : F2_CP_CHKSUM_OFFSET);
}

/* Both checkpoint packs through the checkpoint writer (f2/cp_pack.h), pack 0
 * with version cp_ver and pack 1 with version 0; nat_bits when they fit:
 * no NAT block full, every one empty but the first. */
static int write_cps(struct fmt *f, uint32_t flags)
{
	const struct f2_geom *g = f->g;
	uint32_t bytes = g->segment_count_nat << 5;
	uint32_t nat_bits_blocks = (2 * bytes + F2_NAT_BITS_CRC_SIZE + F2_BLKSIZE - 1) / F2_BLKSIZE;
	struct f2_summary_block *sums = calloc(F2_NR_CURSEG, sizeof(*sums));
	uint8_t *head = calloc(1 + g->cp_payload, F2_BLKSIZE);
	uint8_t *bits = calloc(nat_bits_blocks, F2_BLKSIZE);
	struct f2_journal nj, sj;
	struct f2_cp_image ci = {
		.head = head, .payload = g->cp_payload, .nat_journal = &nj, .sit_journal = &sj,
		.nat_bits = bits, .nat_bits_blocks = nat_bits_blocks, .node_sums = 1, .compact = 1,
	};
	int err = -ENOMEM;

	if (!sums || !head || !bits)
		goto out;
	err = 0;
	build_journals(f, &nj, &sj);
	build_sums(f, &sums[F2_CURSEG_HOT_DATA], &sums[F2_CURSEG_HOT_NODE]);
	for (int t = 0; t < F2_NR_CURSEG; t++)
		ci.sum[t] = &sums[t];
	ci.blkoff[F2_CURSEG_HOT_DATA] = (uint16_t)f->dblocks;
	ci.blkoff[F2_CURSEG_HOT_NODE] = (uint16_t)f->inodes;
	memset(bits + F2_NAT_BITS_CRC_SIZE + bytes, 0xff, bytes);
	f2_clear_bit_lsb(bits + F2_NAT_BITS_CRC_SIZE + bytes, 0);
	for (int pack = 0; pack < 2 && !err; pack++) {
		memset(head, 0, F2_BLKSIZE);
		build_cp(f, (struct f2_checkpoint *)head, pack ? 0 : f->o->cp_ver, flags);
		ci.start = g->cp_blkaddr + (uint64_t)pack * F2_BLKS_PER_SEG;
		err = f2_cp_write(f->io, &ci);
	}
out:
	free(sums);
	free(head);
	free(bits);
	return err;
}

int f2_mkfs_write(struct f2_io *io, const struct f2_mkfs_opts *o,
		  const struct f2_geom *g, struct f2_super *sb,
		  f2_warn_fn warn, void *ctx)
{
	struct fmt f = { .io = io, .o = o, .g = g, .sb = sb };
	uint8_t zero[F2_BLKSIZE] = { 0 };
	uint32_t flags = F2_CP_UMOUNT, root_data;
	uint64_t main_end = g->main_blkaddr +
			    (uint64_t)g->segment_count_main * F2_BLKS_PER_SEG;
	int err;

	f2_sb_build(g, &o->sb, sb, warn, ctx);
	f.next_nid = f2_sb_assign_inos(sb, &f.lpf_ino);
	f.features = o->sb.features;
	for (int q = 0; q < 3; q++)
		f.qino[q] = f2_le32(sb->qf_ino[q]);
	f.csum_seed = f2_crc32(~0u, sb->uuid, 16);
	f.node_seg0 = g->main_blkaddr + g->cur_seg[F2_CURSEG_HOT_NODE] * F2_BLKS_PER_SEG;
	f.data_seg0 = g->main_blkaddr + g->cur_seg[F2_CURSEG_HOT_DATA] * F2_BLKS_PER_SEG;
	f.blk = malloc(F2_BLKSIZE);
	if (!f.blk)
		return -12;

	/* 1. no superblock until the end; old metadata gone */
	if ((err = f2_io_write_block(io, 0, zero)) || (err = f2_io_write_block(io, 1, zero)))
		goto out;
	if (o->discard && main_end > g->main_blkaddr &&
	    !f2_io_discard(io, (uint64_t)g->main_blkaddr * F2_BLKSIZE,
			   (main_end - g->main_blkaddr) * F2_BLKSIZE))
		flags |= F2_CP_TRIMMED;
	if ((err = f2_io_zero(io, (uint64_t)g->cp_blkaddr * F2_BLKSIZE,
			      (uint64_t)(g->ssa_blkaddr - g->cp_blkaddr) * F2_BLKSIZE)))
		goto out;
	/* a stale fsync chain must not be rolled forward: clear its head
	 * (zoned volumes need not: their zones were reset, and a write there
	 * would move the zone's write pointer past the log's start) */
	if (!o->geom.zoned && !(o->geom.features & F2_FEAT_RO) &&
	    (err = f2_io_write_block(io, g->main_blkaddr + (uint64_t)
				     g->cur_seg[F2_CURSEG_WARM_NODE] * F2_BLKS_PER_SEG, zero)))
		goto out;

	/* 2. the tree, NAT, checkpoints */
	if ((err = write_tree(&f, &root_data)) || (err = write_nat(&f)))
		goto out;
	if (o->geom.large_nat_bitmap)
		flags |= F2_CP_LARGE_NAT_BITMAP;
	if ((err = write_cps(&f, flags)))
		goto out;

	/* 3. commit: superblocks last, after everything else is stable */
	if ((err = f2_io_flush(io)) || (err = f2_sb_write_copies(io, sb, F2_SB_BOTH)))
		goto out;
out:
	free(f.blk);
	return err;
}
