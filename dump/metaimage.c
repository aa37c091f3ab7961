// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metaimage.c - dump.f2fs --metadata-image OUT: the volume's metadata in
 * a sparse file of the device's size, for bug reports (what e2image is
 * for ext4).  Kept, at their own addresses: superblock blocks 0 and 1,
 * the whole checkpoint, SIT, NAT and SSA areas (both copies), every node
 * block a NAT entry points to inside the main area (inodes, direct and
 * indirect nodes, xattr nodes; reachable or not), the nodes of the
 * roll-forward chain, and the data blocks addressed by the nodes of
 * directories (dentry blocks), symlinks (targets) and the quota files
 * (sb qf_ino[]).  Regular files' data blocks are never written, and the
 * inline data of a regular file (not a quota file) is zeroed in its
 * inode.  Everything else is a hole; so are all-zero blocks.
 *
 * Data blocks are found from the nodes themselves (a node of a directory
 * holds dentry block addresses at the file offsets its node offset
 * gives), not by walking each tree from its inode: so blocks past i_size
 * and those under an unreachable node are kept too, as fsck reads every
 * block a directory's nodes address.  A node counts for an inode when
 * the NAT and the node's footer both name that inode.
 *
 * With scrambling (scramble.c) every entry name, inline or in a dentry
 * block, and each inode's i_name get new names; names in encrypted
 * directories are ciphertext and stay.  An inode block changed here gets
 * a new checksum when its old one was right, and keeps a wrong one.
 *
 * The volume is read through the library, read-only; the image is
 * written through the unix I/O backend.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "f2/casefold.h"
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/hash.h"
#include "f2/io.h"
#include "f2/map.h"
#include "f2/node.h"
#include "f2/recovery.h"
#include "dump.h"
#include "metaimage.h"

#define CHUNK_BLOCKS	256	/* area copies read 1 MiB at a time */

enum kind { K_NONE, K_DIR, K_SYMLINK, K_QUOTA };

/* What is known of an inode block (value of mi.inodes, keyed by ino). */
struct mi_inode {
	uint32_t ino, blkaddr, pino;
	uint32_t namehash;		/* f2_tea_hash of i_name */
	uint32_t newname;		/* 1 + offset in mi.names; 0 none yet */
	uint16_t mode, namelen;		/* namelen 0 when i_namelen > 255 */
	uint16_t extra_words, addrs;	/* when parsed */
	uint8_t parsed, inline_flags, dir_level, kind;
	int8_t csum_ok;			/* f2_inode_ref.csum_ok */
	uint8_t encrypted, casefold;
};

/* A node block to keep: from the NAT, or from the roll-forward chain. */
struct mi_node {
	uint32_t blkaddr, nid, ino, ofs;
	uint8_t footer_ok, chain;
};

/* A data block of a kept inode, at file block fofs. */
struct mi_data {
	uint32_t ino, addr;
	uint64_t fofs;
};

struct mi_counts {
	uint64_t sb, cp, sit, nat, ssa, node, dir, symlink, quota;
	uint64_t written;		/* blocks not all zero, so written */
	uint64_t nat_outside;		/* NAT addresses outside the main area */
	uint64_t data_outside;		/* data addresses outside the main area */
	uint64_t inline_zeroed;		/* regular files' inline data zeroed */
	uint64_t inames;		/* i_name replaced */
	uint64_t unreadable;		/* blocks that could not be read */
};

struct mi {
	struct dump_ctx *d;
	struct f2_fs *fs;
	struct f2_io *out;
	int scramble;
	uint8_t *blk, *chunk;
	struct f2_inode_ref *ir;	/* scratch */
	struct f2_map inodes;
	struct mi_inode *chain_inodes;	/* inode blocks of the chain */
	size_t nchain_inodes, cap_chain;
	struct mi_node *nodes;
	size_t nnodes, cap_nodes;
	struct mi_data *data;
	size_t ndata, cap_data;
	uint8_t *names;			/* new i_names, back to back */
	size_t names_len, names_cap;
	uint32_t cur_dir;		/* directory being scrambled */
	uint32_t qf[F2_MAX_QUOTAS];
	struct mi_counts n;
	struct scr_stats st;
};

/* Grow *v (of *cap elements of size sz) to hold need: 0 or -ENOMEM. */
static int grow(void **v, size_t *cap, size_t need, size_t sz)
{
	size_t c = *cap ? *cap : 256;
	void *p;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	p = realloc(*v, c * sz);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

static int all_zero(const uint8_t *b)
{
	static const uint8_t zero[F2_BLKSIZE];

	return !memcmp(b, zero, F2_BLKSIZE);
}

/* Write block blkaddr of the image; again: it was written before. */
static int write_block(struct mi *mi, uint64_t blkaddr, const void *b, int again)
{
	int err;

	if (all_zero(b))
		return 0;	/* a hole already */
	err = f2_io_write_block(mi->out, blkaddr, b);
	if (err)
		dump_error(mi->d, "%s: block %" PRIu64 ": %s", mi->out->name, blkaddr,
			   f2_strerror(err));
	else if (!again)
		mi->n.written++;
	return err;
}

static int put_block(struct mi *mi, uint64_t blkaddr, const void *b)
{
	return write_block(mi, blkaddr, b, 0);
}

/* Read block blkaddr of the volume: 0, or 1 after a warning (skipped). */
static int get_block(struct mi *mi, uint64_t blkaddr, void *b, const char *what)
{
	if (!f2_fs_read_block(mi->fs, blkaddr, b))
		return 0;
	mi->n.unreadable++;
	dump_warn(mi->d, "%s at block %" PRIu64 " not kept: %s", what, blkaddr, mi->fs->why);
	return 1;
}

/* ---- whole areas ---------------------------------------------------------- */

static int copy_range(struct mi *mi, uint64_t start, uint64_t end, uint64_t *count)
{
	for (uint64_t b = start; b < end;) {
		uint64_t n = end - b < CHUNK_BLOCKS ? end - b : CHUNK_BLOCKS;
		int err = f2_io_read(mi->fs->io, b * F2_BLKSIZE, mi->chunk, n * F2_BLKSIZE);

		if (err) {
			/* one block at a time, so one bad block costs itself */
			for (uint64_t i = 0; i < n; i++)
				if (!get_block(mi, b + i, mi->blk, "metadata block") &&
				    (err = put_block(mi, b + i, mi->blk)))
					return err;
		} else {
			for (uint64_t i = 0; i < n; i++)
				if ((err = put_block(mi, b + i, mi->chunk + i * F2_BLKSIZE)))
					return err;
		}
		*count += n;
		b += n;
	}
	return 0;
}

static int copy_areas(struct mi *mi)
{
	const struct f2_super *sb = &mi->fs->sb;
	uint64_t a[5] = { f2_le32(sb->cp_blkaddr), f2_le32(sb->sit_blkaddr),
			  f2_le32(sb->nat_blkaddr), f2_le32(sb->ssa_blkaddr),
			  f2_le32(sb->main_blkaddr) };
	uint64_t *count[4] = { &mi->n.cp, &mi->n.sit, &mi->n.nat, &mi->n.ssa };
	int err;

	/* the superblock check made them contiguous; bound them anyway */
	for (int i = 0; i < 4; i++)
		if (a[i] < 2 || a[i] > a[i + 1] || a[i + 1] > mi->fs->block_count) {
			dump_error(mi->d, "metadata areas out of order or past the volume "
				   "(block %" PRIu64 ")", a[i + 1]);
			return F2_ECORRUPT;
		}
	err = copy_range(mi, 0, 2, &mi->n.sb);
	for (int i = 0; i < 4 && !err; i++)
		err = copy_range(mi, a[i], a[i + 1], count[i]);
	return err;
}

/* ---- node blocks -------------------------------------------------------- */

static int add_node(struct mi *mi, uint32_t blkaddr, uint32_t nid, uint32_t ino, int chain)
{
	struct mi_node *n;

	if (grow((void **)&mi->nodes, &mi->cap_nodes, mi->nnodes + 1, sizeof(*n)))
		return -ENOMEM;
	n = &mi->nodes[mi->nnodes++];
	memset(n, 0, sizeof(*n));
	n->blkaddr = blkaddr;
	n->nid = nid;
	n->ino = ino;
	n->chain = (uint8_t)chain;
	return 0;
}

static int nat_entry(void *ctx, const struct f2_nat_info *ni)
{
	struct mi *mi = ctx;

	if (ni->nid <= F2_META_INO || ni->blkaddr == F2_NULL_ADDR)
		return 0;
	if (!f2_fs_in_main(mi->fs, ni->blkaddr)) {
		mi->n.nat_outside++;
		return 0;
	}
	return add_node(mi, ni->blkaddr, ni->nid, ni->ino, 0);
}

/* The nodes written after the checkpoint that the kernel would roll
 * forward (fsck reads them too). */
static int chain_nodes(struct mi *mi)
{
	struct f2_rf *rf;
	int err = f2_rf_scan(mi->fs, &rf);

	if (err) {
		dump_warn(mi->d, "roll-forward chain not kept: %s", mi->fs->why);
		return err == -ENOMEM ? err : 0;
	}
	for (size_t i = 0; i < rf->nchain && !err; i++)
		if (f2_fs_in_main(mi->fs, rf->chain[i].addr))
			err = add_node(mi, rf->chain[i].addr, rf->chain[i].nid, rf->chain[i].ino, 1);
	f2_rf_free(rf);
	return err;
}

static int by_blkaddr(const void *a, const void *b)
{
	const struct mi_node *x = a, *y = b;

	if (x->blkaddr != y->blkaddr)
		return x->blkaddr < y->blkaddr ? -1 : 1;
	return x->nid < y->nid ? -1 : x->nid > y->nid;
}

static int is_quota_ino(const struct mi *mi, uint32_t ino)
{
	for (int i = 0; i < F2_MAX_QUOTAS; i++)
		if (mi->qf[i] && mi->qf[i] == ino)
			return 1;
	return 0;
}

/* After the inode block changed: its checksum, when it was right. */
static void fix_csum(const struct mi *mi, struct f2_node *node, int csum_ok)
{
	if (csum_ok == 1)
		f2_set_le32(node->i.i_inode_checksum, f2_inode_csum(mi->fs->csum_seed, node));
}

/* Fill r from inode block node of ino; may zero a regular file's inline
 * data in node. */
static void inode_info(struct mi *mi, struct f2_node *node, uint32_t ino, uint32_t blkaddr,
		       struct mi_inode *r)
{
	const struct f2_inode *in = &node->i;
	struct f2_inode_ref *ir = mi->ir;
	uint32_t namelen = f2_le32(in->i_namelen);

	r->ino = ino;
	r->blkaddr = blkaddr;
	r->pino = f2_le32(in->i_pino);
	r->mode = f2_le16(in->i_mode);
	r->namelen = (uint16_t)(namelen <= F2_NAME_LEN ? namelen : 0);
	r->namehash = f2_tea_hash(in->i_name, r->namelen);
	r->encrypted = (in->i_advise & (F2_ADVISE_ENCRYPT | F2_ADVISE_ENC_NAME)) ||
		       (f2_le32(in->i_flags) & F2_ENCRYPT_FL);
	r->casefold = !!(f2_le32(in->i_flags) & F2_CASEFOLD_FL);
	r->csum_ok = -1;
	if (f2_inode_parse(mi->fs, ino, node, ir))
		return;		/* kept as it is; no data blocks followed */
	r->parsed = 1;
	r->extra_words = (uint16_t)ir->extra_words;
	r->addrs = (uint16_t)ir->addrs;
	r->inline_flags = in->i_inline;
	r->dir_level = in->i_dir_level;
	r->csum_ok = (int8_t)ir->csum_ok;
	if (S_ISDIR(r->mode))
		r->kind = K_DIR;
	else if (is_quota_ino(mi, ino) && !(in->i_inline & F2_INLINE_DATA))
		r->kind = K_QUOTA;
	else if (S_ISLNK(r->mode) && !(in->i_inline & F2_INLINE_DATA))
		r->kind = K_SYMLINK;
	if (S_ISREG(r->mode) && (in->i_inline & F2_INLINE_DATA) && !is_quota_ino(mi, ino)) {
		uint8_t *area = (uint8_t *)&node->i.i_addr[ir->extra_words + 1];
		size_t i = 0;

		while (i < ir->inline_bytes && !area[i])
			i++;
		if (i < ir->inline_bytes) {
			memset(area, 0, ir->inline_bytes);
			fix_csum(mi, node, r->csum_ok);
			mi->n.inline_zeroed++;
		}
	}
}

/* The NAT entry n (or chain node) whose block is in node. */
static int node_entry(struct mi *mi, struct mi_node *n, struct f2_node *node)
{
	struct mi_inode *r;
	int created;

	n->footer_ok = f2_le32(node->footer.nid) == n->nid && f2_le32(node->footer.ino) == n->ino;
	n->ofs = f2_node_ofs(node);
	if (!n->footer_ok || n->nid != n->ino || n->ofs != 0)
		return 0;
	if (n->chain) {
		if (grow((void **)&mi->chain_inodes, &mi->cap_chain, mi->nchain_inodes + 1,
			 sizeof(*r)))
			return -ENOMEM;
		r = &mi->chain_inodes[mi->nchain_inodes++];
		memset(r, 0, sizeof(*r));
		inode_info(mi, node, n->ino, n->blkaddr, r);
		return 0;
	}
	r = f2_map_insert(&mi->inodes, n->ino, &created);
	if (!r)
		return -ENOMEM;
	if (created)	/* a second NAT entry for the same block: once */
		inode_info(mi, node, n->ino, n->blkaddr, r);
	return 0;
}

static int copy_nodes(struct mi *mi)
{
	struct f2_node *node = (struct f2_node *)mi->blk;
	int err;

	qsort(mi->nodes, mi->nnodes, sizeof(*mi->nodes), by_blkaddr);
	for (size_t i = 0; i < mi->nnodes;) {
		size_t j = i;

		if (get_block(mi, mi->nodes[i].blkaddr, node, "node")) {
			while (i < mi->nnodes && mi->nodes[i].blkaddr == mi->nodes[j].blkaddr)
				i++;
			continue;
		}
		for (; i < mi->nnodes && mi->nodes[i].blkaddr == mi->nodes[j].blkaddr; i++)
			if ((err = node_entry(mi, &mi->nodes[i], node)))
				return err;
		if ((err = put_block(mi, mi->nodes[j].blkaddr, node)))
			return err;
		mi->n.node++;
	}
	return 0;
}

/* ---- data blocks of directories, symlinks and quota files ---------------- */

static int add_data(struct mi *mi, uint32_t ino, uint64_t fofs, uint32_t addr)
{
	if (addr == F2_NULL_ADDR || addr == F2_NEW_ADDR || addr == F2_COMPRESS_ADDR)
		return 0;
	if (!f2_fs_in_main(mi->fs, addr)) {
		mi->n.data_outside++;
		return 0;
	}
	if (grow((void **)&mi->data, &mi->cap_data, mi->ndata + 1, sizeof(*mi->data)))
		return -ENOMEM;
	mi->data[mi->ndata++] = (struct mi_data){ ino, addr, fofs };
	return 0;
}

/* The data addresses of node n, when its inode's data is kept. */
static int node_data(struct mi *mi, const struct mi_node *n)
{
	const struct mi_inode *r = f2_map_find(&mi->inodes, n->ino);
	struct f2_node *node = (struct f2_node *)mi->blk;
	uint32_t first = 0, count;
	const le32 *addr;
	int64_t start = 0;
	int err = 0;

	if (n->chain || !n->footer_ok || !r || !r->parsed || r->kind == K_NONE ||
	    (r->inline_flags & (F2_INLINE_DATA | F2_INLINE_DENTRY)))
		return 0;
	if (n->ofs == 0) {
		if (n->nid != n->ino)
			return 0;
		first = r->extra_words;
		count = r->addrs;
	} else {
		if (!f2_node_is_dnode(n->ofs) || n->ofs == F2_NODE_OFS_XATTR)
			return 0;
		start = f2_node_start_bidx(n->ofs, r->addrs, F2_ADDRS_PER_BLOCK);
		if (start < 0)
			return 0;
		count = F2_ADDRS_PER_BLOCK;
	}
	if (get_block(mi, n->blkaddr, node, "node"))
		return 0;
	/* 4-byte aligned in the block buffer */
	addr = (const void *)(mi->blk + (n->ofs == 0 ? offsetof(struct f2_inode, i_addr) + 4 * first
						     : offsetof(struct f2_direct_node, addr)));
	for (uint32_t k = 0; k < count && !err; k++)
		err = add_data(mi, n->ino, (uint64_t)start + k, f2_le32(addr[k]));
	return err;
}

static int by_ino_fofs(const void *a, const void *b)
{
	const struct mi_data *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->fofs != y->fofs)
		return x->fofs < y->fofs ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static uint64_t *kind_count(struct mi *mi, int kind)
{
	return kind == K_DIR ? &mi->n.dir : kind == K_SYMLINK ? &mi->n.symlink : &mi->n.quota;
}

static int copy_data(struct mi *mi, const struct mi_data *v, size_t n, int kind)
{
	int err;

	for (size_t i = 0; i < n; i++) {
		if (get_block(mi, v[i].addr, mi->blk, "data block"))
			continue;
		if ((err = put_block(mi, v[i].addr, mi->blk)))
			return err;
		(*kind_count(mi, kind))++;
	}
	return 0;
}

/* A directory's renamed entry: the new name becomes the inode's i_name
 * when the old one was its i_name in its parent. */
static void renamed(void *ctx, uint32_t ino, const uint8_t *old, const uint8_t *new, uint32_t len)
{
	struct mi *mi = ctx;
	struct mi_inode *r = f2_map_find(&mi->inodes, ino);

	if (!r || r->newname || r->pino != mi->cur_dir || r->namelen != len ||
	    r->namehash != f2_tea_hash(old, len))
		return;
	if (grow((void **)&mi->names, &mi->names_cap, mi->names_len + len, 1))
		return;		/* it gets a made-up name instead */
	memcpy(mi->names + mi->names_len, new, len);
	r->newname = (uint32_t)mi->names_len + 1;
	mi->names_len += len;
}

static void dir_rules(const struct mi *mi, const struct mi_inode *r, struct scr_rules *rules)
{
	const struct f2_fs *fs = mi->fs;

	rules->lower = r->casefold;
	rules->cf = r->casefold && (fs->features & F2_FEAT_CASEFOLD) &&
		    f2_encoding_name(f2_le16(fs->sb.s_encoding));
	rules->strict = f2_fs_cf_strict(fs);
}

static void block_area(uint8_t *b, struct scr_area *a)
{
	struct f2_dentry_block *db = (struct f2_dentry_block *)b;

	a->bitmap = db->dentry_bitmap;
	a->de = db->dentry;
	a->names = db->filename;
	a->max = F2_NR_DENTRY_IN_BLOCK;
}

/* The dentry blocks v[0..n) of directory r, renamed. */
static int scramble_dir(struct mi *mi, const struct mi_inode *r, const struct mi_data *v,
			size_t n)
{
	struct scr_rules rules;
	struct scr_dir sd;
	struct scr_area a;
	int err = 0;

	dir_rules(mi, r, &rules);
	scr_dir_init(&sd, r->ino, &rules, &mi->st, renamed, mi);
	mi->cur_dir = r->ino;
	for (size_t i = 0; i < n && !err; i++) {
		if (f2_fs_read_block(mi->fs, v[i].addr, mi->blk))
			continue;	/* reported by the second pass */
		block_area(mi->blk, &a);
		err = scr_note(&sd, &a);
	}
	for (size_t i = 0; i < n && !err; i++) {
		uint64_t nb = 1;

		if (get_block(mi, v[i].addr, mi->blk, "dentry block"))
			continue;
		if (f2_dir_block_place(v[i].fofs, r->dir_level, NULL, NULL, &nb))
			nb = 1;
		block_area(mi->blk, &a);
		err = scr_rename(&sd, &a, nb);
		if (!err)
			err = put_block(mi, v[i].addr, mi->blk);
		mi->n.dir++;
	}
	scr_dir_free(&sd);
	return err;
}

static int copy_file_data(struct mi *mi)
{
	int err = 0;

	for (size_t i = 0; i < mi->nnodes && !err; i++)
		if (i == 0 || mi->nodes[i].blkaddr != mi->nodes[i - 1].blkaddr ||
		    mi->nodes[i].nid != mi->nodes[i - 1].nid)
			err = node_data(mi, &mi->nodes[i]);
	if (err)
		return err;
	qsort(mi->data, mi->ndata, sizeof(*mi->data), by_ino_fofs);
	for (size_t i = 0, j; i < mi->ndata && !err; i = j) {
		const struct mi_inode *r = f2_map_find(&mi->inodes, mi->data[i].ino);

		for (j = i; j < mi->ndata && mi->data[j].ino == mi->data[i].ino; j++)
			;
		if (!r)		/* node_data() only adds blocks of known inodes */
			continue;
		if (r->kind == K_DIR && mi->scramble && !r->encrypted)
			err = scramble_dir(mi, r, &mi->data[i], j - i);
		else
			err = copy_data(mi, &mi->data[i], j - i, r->kind);
	}
	return err;
}

/* ---- inode blocks changed after they were copied -------------------------- */

static int read_back(struct mi *mi, uint32_t blkaddr)
{
	int err = f2_io_read_block(mi->out, blkaddr, mi->blk);

	if (err)
		dump_error(mi->d, "%s: reading back block %u: %s", mi->out->name, blkaddr,
			   f2_strerror(err));
	return err;
}

/* Inline dentries of directory r, renamed. */
static int scramble_inline(struct mi *mi, const struct mi_inode *r)
{
	struct f2_node *node = (struct f2_node *)mi->blk;
	struct f2_inline_dentry_geom g;
	struct scr_rules rules;
	struct scr_dir sd;
	struct scr_area a;
	uint8_t *area;
	int err = read_back(mi, r->blkaddr);

	if (err)
		return err;
	area = (uint8_t *)&node->i.i_addr[r->extra_words + 1];
	f2_inline_dentry_geom(4u * (r->addrs - 1u), &g);
	a.bitmap = area;
	a.de = (struct f2_dir_entry *)(area + g.dentry_off);
	a.names = (uint8_t (*)[F2_SLOT_LEN])(area + g.name_off);
	a.max = g.nr;
	dir_rules(mi, r, &rules);
	scr_dir_init(&sd, r->ino, &rules, &mi->st, renamed, mi);
	mi->cur_dir = r->ino;
	err = scr_note(&sd, &a);
	if (!err)
		err = scr_rename(&sd, &a, 1);
	scr_dir_free(&sd);
	if (err)
		return err;
	fix_csum(mi, node, r->csum_ok);
	return write_block(mi, r->blkaddr, node, 1);
}

/* The i_name of inode block r (the NAT's, or a chain copy): the name its
 * entry in its parent got, else one made up from the inode number. */
static int rename_inode(struct mi *mi, const struct mi_inode *r)
{
	struct f2_node *node = (struct f2_node *)mi->blk;
	const struct mi_inode *nat = f2_map_find(&mi->inodes, r->ino);
	const struct mi_inode *parent = f2_map_find(&mi->inodes, r->pino);
	uint8_t made[F2_NAME_LEN];
	const uint8_t *name = made;
	int err;

	if (!r->namelen || r->encrypted || (parent && parent->encrypted))
		return 0;
	if (nat && nat->newname && nat->namelen == r->namelen && nat->namehash == r->namehash)
		name = mi->names + nat->newname - 1;
	else
		scr_make_name(r->ino, r->namelen, parent && parent->casefold, made);
	if ((err = read_back(mi, r->blkaddr)))
		return err;
	memcpy(node->i.i_name, name, r->namelen);
	memset(node->i.i_name + r->namelen, 0, F2_NAME_LEN - r->namelen);
	fix_csum(mi, node, r->csum_ok);
	mi->n.inames++;
	return write_block(mi, r->blkaddr, node, 1);
}

static int scramble_inodes(struct mi *mi)
{
	struct mi_inode *r;
	size_t pos = 0;
	int err = 0;

	while (!err && (r = f2_map_next(&mi->inodes, &pos, NULL)))
		if (r->kind == K_DIR && r->parsed && (r->inline_flags & F2_INLINE_DENTRY) &&
		    !r->encrypted)
			err = scramble_inline(mi, r);
	pos = 0;
	while (!err && (r = f2_map_next(&mi->inodes, &pos, NULL)))
		err = rename_inode(mi, r);
	for (size_t i = 0; i < mi->nchain_inodes && !err; i++)
		err = rename_inode(mi, &mi->chain_inodes[i]);
	return err;
}

/* ---- the output file ------------------------------------------------------ */

/* Create (or with force replace) path as a sparse file of size bytes,
 * refusing the device itself and anything but a regular file. */
static int create_out(struct mi *mi, const char *path, const char *device, int force,
		      uint64_t size)
{
	struct stat ds, os;
	int fd, err;

	if (stat(device, &ds)) {
		dump_error(mi->d, "%s: %s", device, strerror(errno));
		return -errno;
	}
	if (!stat(path, &os)) {
		if ((os.st_dev == ds.st_dev && os.st_ino == ds.st_ino) ||
		    (S_ISBLK(os.st_mode) && S_ISBLK(ds.st_mode) && os.st_rdev == ds.st_rdev)) {
			dump_error(mi->d, "%s is the device being imaged", path);
			return -EINVAL;
		}
		if (!force) {
			dump_error(mi->d, "%s exists (--force replaces it)", path);
			return -EEXIST;
		}
		if (!S_ISREG(os.st_mode)) {
			dump_error(mi->d, "%s is not a regular file", path);
			return -EINVAL;
		}
	}
	fd = open(path, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL), 0600);
	if (fd < 0) {
		dump_error(mi->d, "%s: %s", path, strerror(errno));
		return -errno;
	}
	err = ftruncate(fd, (off_t)size) ? -errno : 0;
	if (close(fd) && !err)
		err = -errno;
	if (!err)
		err = f2_io_open_unix(path, F2_IO_RDWR, &mi->out);
	if (err) {
		dump_error(mi->d, "%s: %s", path, f2_strerror(err));
		unlink(path);
	}
	return err;
}

static void summary(struct mi *mi, const char *path)
{
	const struct mi_counts *c = &mi->n;
	struct out *o = mi->d->o;
	uint64_t total = c->sb + c->cp + c->sit + c->nat + c->ssa + c->node + c->dir +
			 c->symlink + c->quota;

	out_text(o, "%s: %" PRIu64 " blocks kept (superblock %" PRIu64 ", checkpoint %" PRIu64
		 ", SIT %" PRIu64 ", NAT %" PRIu64 ", SSA %" PRIu64 ", node %" PRIu64
		 ", directory %" PRIu64 ", symlink %" PRIu64 ", quota %" PRIu64 "), %" PRIu64
		 " written, the rest holes; %" PRIu64 " inline files emptied",
		 path, total, c->sb, c->cp, c->sit, c->nat, c->ssa, c->node, c->dir, c->symlink,
		 c->quota, c->written, c->inline_zeroed);
	if (mi->scramble)
		out_text(o, "; names: %" PRIu64 " scrambled, %" PRIu64 " kept, %" PRIu64
			 " i_name replaced", mi->st.renamed, mi->st.kept, c->inames);
	out_text(o, "\n");
	if (!o->json)
		return;
	out_obj_begin(o, "metadata_image", NULL);
	out_str(o, "output", path, strlen(path));
	out_u64(o, "blocks", total);
	out_u64(o, "superblock", c->sb);
	out_u64(o, "checkpoint", c->cp);
	out_u64(o, "sit", c->sit);
	out_u64(o, "nat", c->nat);
	out_u64(o, "ssa", c->ssa);
	out_u64(o, "node", c->node);
	out_u64(o, "directory", c->dir);
	out_u64(o, "symlink", c->symlink);
	out_u64(o, "quota", c->quota);
	out_u64(o, "written", c->written);
	out_u64(o, "inline_files_emptied", c->inline_zeroed);
	out_u64(o, "nat_outside_main", c->nat_outside);
	out_u64(o, "data_outside_main", c->data_outside);
	out_u64(o, "unreadable", c->unreadable);
	if (mi->scramble) {
		out_u64(o, "names_scrambled", mi->st.renamed);
		out_u64(o, "names_kept", mi->st.kept);
		out_u64(o, "inode_names_replaced", c->inames);
	}
	out_obj_end(o);
}

static int run(struct mi *mi)
{
	int err = copy_areas(mi);

	if (err || !mi->fs->cp)
		return err;
	for (int i = 0; i < F2_MAX_QUOTAS; i++) {
		uint32_t q = f2_le32(mi->fs->sb.qf_ino[i]);

		mi->qf[i] = q > F2_META_INO && q < mi->fs->max_nid ? q : 0;
	}
	err = f2_nat_iter(mi->fs, nat_entry, mi);
	if (err) {
		if (err == -ENOMEM)
			return err;
		/* the entries before the failure are kept */
		dump_warn(mi->d, "NAT walk stopped: %s", mi->fs->why);
	}
	if ((err = chain_nodes(mi)) || (err = copy_nodes(mi)) || (err = copy_file_data(mi)))
		return err;
	return mi->scramble ? scramble_inodes(mi) : 0;
}

int dump_metaimage(struct dump_ctx *d, const struct metaimage_opts *mo)
{
	struct mi mi = { 0 };
	int err;

	mi.d = d;
	mi.fs = d->fs;
	mi.scramble = mo->scramble;
	if (d->fs->ndevs > 1) {
		dump_error(d, "%s: a volume of %u devices; --metadata-image takes single-device "
			   "volumes only", mo->device, d->fs->ndevs);
		return -EINVAL;
	}
	if (d->fs->io->size / F2_BLKSIZE < d->fs->block_count) {
		dump_error(d, "%s: the device is smaller than the volume", mo->device);
		return -EINVAL;
	}
	if (!d->fs->cp)
		dump_warn(d, "%s: no valid checkpoint: only the superblock, checkpoint, SIT, NAT "
			  "and SSA areas are kept", mo->device);
	mi.blk = malloc(F2_BLKSIZE);
	mi.chunk = malloc((size_t)CHUNK_BLOCKS * F2_BLKSIZE);
	mi.ir = malloc(sizeof(*mi.ir));
	f2_map_init(&mi.inodes, sizeof(struct mi_inode), F2_MAP_KEY32);
	err = !mi.blk || !mi.chunk || !mi.ir ? -ENOMEM : 0;
	if (!err)
		err = create_out(&mi, mo->output, mo->device, mo->force, d->fs->io->size);
	if (!err) {
		err = run(&mi);
		if (err == -ENOMEM)
			dump_error(d, "out of memory");
		if (!err)
			err = f2_io_flush(mi.out);
		f2_io_close(mi.out);
		if (err) {
			dump_error(d, "%s: not complete, removed", mo->output);
			unlink(mo->output);
		} else {
			summary(&mi, mo->output);
		}
	}
	f2_map_free(&mi.inodes);
	free(mi.chain_inodes);
	free(mi.nodes);
	free(mi.data);
	free(mi.names);
	free(mi.ir);
	free(mi.chunk);
	free(mi.blk);
	return err;
}
