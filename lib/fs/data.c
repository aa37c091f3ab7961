// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * data.c - file contents: mapping a file block through the inode's
 * direct, indirect and double-indirect nodes (every node checked for
 * owner and node offset), holes, inline data, compressed clusters,
 * symlink targets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/errors.h"
#include "f2/file.h"

#define NIDS	F2_NIDS_PER_BLOCK

static int file_alloc(struct f2_fs *fs, struct f2_file **out)
{
	struct f2_file *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->fs = fs;
	f->cluster_idx = UINT64_MAX;
	*out = f;
	return 0;
}

int f2_file_open_ref(struct f2_fs *fs, const struct f2_inode_ref *ir, struct f2_file **out)
{
	int err = file_alloc(fs, out);

	if (err)
		return err;
	(*out)->ir = *ir;
	return 0;
}

int f2_file_open(struct f2_fs *fs, uint32_t ino, struct f2_file **out)
{
	int err = file_alloc(fs, out);

	if (err)
		return err;
	err = f2_inode_read(fs, ino, &(*out)->ir);
	if (err) {
		f2_file_close(*out);
		*out = NULL;
	}
	return err;
}

void f2_file_close(struct f2_file *f)
{
	if (!f)
		return;
	free(f->cluster);
	free(f->cbuf);
	free(f);
}

uint32_t f2_file_addrs_per_block(const struct f2_file *f)
{
	if (f->ir.cluster_blocks)
		return F2_ADDRS_PER_BLOCK & ~(f->ir.cluster_blocks - 1);
	return F2_ADDRS_PER_BLOCK;
}

/* Path to fofs: the i_nid slot, the index in each node level and the node
 * offset each node must carry.  Returns the depth (0 = in the inode). */
struct npath {
	int depth;
	int slot;			/* i_nid index */
	uint32_t idx[3];		/* index inside each level's node */
	uint32_t noff[3];		/* expected node offsets */
	uint64_t span[3];		/* blocks covered by one child at each level */
};

static int get_path(const struct f2_file *f, uint64_t b, struct npath *p)
{
	uint64_t direct = f->ir.addrs, per = f2_file_addrs_per_block(f);
	uint64_t ind = per * NIDS, dind = ind * NIDS;

	memset(p, 0, sizeof(*p));
	if (b < direct) {
		p->idx[0] = (uint32_t)b;
		return p->depth = 0;
	}
	b -= direct;
	if (b < 2 * per) {
		p->slot = (int)(b / per);
		p->noff[0] = 1 + (uint32_t)p->slot;
		p->idx[0] = (uint32_t)(b % per);
		p->span[0] = per;
		return p->depth = 1;
	}
	b -= 2 * per;
	if (b < 2 * ind) {
		uint32_t which = (uint32_t)(b / ind);

		b %= ind;
		p->slot = F2_NODE_IND1_BLOCK + (int)which;
		p->noff[0] = which ? 4 + NIDS : 3;
		p->idx[0] = (uint32_t)(b / per);
		p->span[0] = ind;
		p->noff[1] = p->noff[0] + 1 + p->idx[0];
		p->idx[1] = (uint32_t)(b % per);
		p->span[1] = per;
		return p->depth = 2;
	}
	b -= 2 * ind;
	if (b < dind) {
		p->slot = F2_NODE_DIND_BLOCK;
		p->noff[0] = 5 + 2 * NIDS;
		p->idx[0] = (uint32_t)(b / ind);
		p->span[0] = dind;
		p->noff[1] = 6 + 2 * NIDS + p->idx[0] * (NIDS + 1);
		p->idx[1] = (uint32_t)((b / per) % NIDS);
		p->span[1] = ind;
		p->noff[2] = 7 + 2 * NIDS + p->idx[0] * (NIDS + 1) + p->idx[1];
		p->idx[2] = (uint32_t)(b % per);
		p->span[2] = per;
		return p->depth = 3;
	}
	return -1;
}

/* Node at level lvl of the walk (0 = top), from the cache or the disk. */
static int load_node(struct f2_file *f, int lvl, uint32_t nid, uint32_t noff,
		     const struct f2_node **out)
{
	struct f2_fs *fs = f->fs;
	int err;

	if (f->cnid[lvl] != nid) {
		f->cnid[lvl] = 0;
		err = f2_node_read(fs, nid, f->ir.ino, &f->cnode[lvl], NULL);
		if (err)
			return f2_fs_fail(fs, err, "ino %u: %s", f->ir.ino, fs->why);
		f->cnid[lvl] = nid;
	}
	if (nid == f->ir.ino)
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: the inode points to itself", nid);
	if (f2_node_ofs(&f->cnode[lvl]) != noff)
		return f2_fs_fail(fs, F2_ECORRUPT,
				  "ino %u: nid %u has node offset %u, expected %u "
				  "(a node in the wrong place or a loop)", f->ir.ino, nid,
				  f2_node_ofs(&f->cnode[lvl]), noff);
	*out = &f->cnode[lvl];
	return 0;
}

static int check_addr(struct f2_file *f, uint64_t fofs, uint32_t a)
{
	if (a == F2_NULL_ADDR || a == F2_NEW_ADDR || a == F2_COMPRESS_ADDR ||
	    f2_fs_in_main(f->fs, a))
		return 0;
	return f2_fs_fail(f->fs, F2_ERANGE, "ino %u: block %llu at address %u outside the main area",
			  f->ir.ino, (unsigned long long)fofs, a);
}

int f2_file_map(struct f2_file *f, uint64_t fofs, uint32_t *addr, uint64_t *skip)
{
	struct npath p;
	const struct f2_node *n = NULL;
	uint32_t nid;
	int err, lvl;

	*addr = 0;
	if (skip)
		*skip = 1;
	if (f->ir.node.i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY))
		return 0;
	if (get_path(f, fofs, &p) < 0)
		return f2_fs_fail(f->fs, F2_ERANGE, "ino %u: block %llu beyond the node tree",
				  f->ir.ino, (unsigned long long)fofs);
	if (p.depth == 0) {
		*addr = f2_inode_addr(&f->ir, p.idx[0]);
		return check_addr(f, fofs, *addr);
	}
	nid = f2_le32(f->ir.node.i.i_nid[p.slot]);
	for (lvl = 0; lvl < p.depth; lvl++) {
		if (!nid) {
			/* blocks from fofs to the end of the missing node's range */
			uint64_t in = 0;

			for (int k = lvl; k < p.depth; k++)
				in += (uint64_t)p.idx[k] * (k + 1 < p.depth ? p.span[k + 1] : 1);
			if (skip)
				*skip = p.span[lvl] - in;
			return 0;
		}
		err = load_node(f, lvl + (3 - p.depth), nid, p.noff[lvl], &n);
		if (err)
			return err;
		if (lvl + 1 < p.depth)
			nid = f2_le32(n->in.nid[p.idx[lvl]]);
		else
			*addr = f2_le32(n->dn.addr[p.idx[lvl]]);
	}
	return check_addr(f, fofs, *addr);
}

uint64_t f2_file_next_data(struct f2_file *f, uint64_t fofs)
{
	uint64_t blocks = (f->ir.size + F2_BLKSIZE - 1) / F2_BLKSIZE;

	if (f->ir.node.i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY))
		return fofs < blocks ? fofs : blocks;
	while (fofs < blocks) {
		uint32_t a;
		uint64_t skip;

		if (f2_file_map(f, fofs, &a, &skip))
			return fofs;	/* let the reader report it */
		if (a != F2_NULL_ADDR)
			return fofs;
		fofs += skip;
	}
	return blocks;
}

int f2_compress_read_cluster(struct f2_file *f, uint64_t cidx);	/* compress.c */

int f2_file_read_block(struct f2_file *f, uint64_t fofs, void *buf, int *hole)
{
	const struct f2_inode_ref *ir = &f->ir;
	uint32_t a;
	int err;

	if (hole)
		*hole = 0;
	if (ir->node.i.i_inline & F2_INLINE_DATA) {
		memset(buf, 0, F2_BLKSIZE);
		if (fofs == 0)
			memcpy(buf, f2_inline_data(ir), ir->size < ir->inline_bytes ?
			       (size_t)ir->size : ir->inline_bytes);
		else if (hole)
			*hole = 1;
		return 0;
	}
	if (ir->encrypted && S_ISREG(ir->mode))
		return f2_fs_fail(f->fs, F2_EENCRYPTED, "ino %u: contents are encrypted", ir->ino);
	if (ir->cluster_blocks) {
		uint64_t cidx = fofs / ir->cluster_blocks;
		uint32_t head;

		err = f2_file_map(f, cidx * ir->cluster_blocks, &head, NULL);
		if (err)
			return err;
		if (head == F2_COMPRESS_ADDR) {
			err = f2_compress_read_cluster(f, cidx);
			if (err)
				return err;
			memcpy(buf, f->cluster + (fofs % ir->cluster_blocks) * F2_BLKSIZE,
			       F2_BLKSIZE);
			return 0;
		}
	}
	err = f2_file_map(f, fofs, &a, NULL);
	if (err)
		return err;
	if (a == F2_NULL_ADDR || a == F2_NEW_ADDR || a == F2_COMPRESS_ADDR) {
		memset(buf, 0, F2_BLKSIZE);
		if (hole)
			*hole = 1;
		return 0;
	}
	return f2_fs_read_block(f->fs, a, buf);
}

long f2_file_pread(struct f2_file *f, uint64_t off, void *buf, size_t len)
{
	uint8_t blk[F2_BLKSIZE];
	uint8_t *out = buf;
	size_t done = 0;

	if (off >= f->ir.size)
		return 0;
	if (len > f->ir.size - off)
		len = (size_t)(f->ir.size - off);
	while (done < len) {
		uint64_t pos = off + done;
		size_t in = pos % F2_BLKSIZE, n = F2_BLKSIZE - in;
		int err = f2_file_read_block(f, pos / F2_BLKSIZE, blk, NULL);

		if (err)
			return err;
		if (n > len - done)
			n = len - done;
		memcpy(out + done, blk + in, n);
		done += n;
	}
	return (long)done;
}

int f2_symlink_read(struct f2_fs *fs, const struct f2_inode_ref *ir, char *buf, size_t size)
{
	struct f2_file *f;
	long n;
	int err;

	if (!S_ISLNK(ir->mode))
		return f2_fs_fail(fs, -EINVAL, "ino %u is not a symlink", ir->ino);
	if (ir->encrypted)
		return f2_fs_fail(fs, F2_EENCRYPTED, "ino %u: symlink target is encrypted", ir->ino);
	if (ir->size == 0 || ir->size >= size || ir->size >= F2_BLKSIZE)
		return f2_fs_fail(fs, F2_ERANGE, "ino %u: symlink size %llu invalid", ir->ino,
				  (unsigned long long)ir->size);
	err = f2_file_open_ref(fs, ir, &f);
	if (err)
		return err;
	n = f2_file_pread(f, 0, buf, (size_t)ir->size);
	f2_file_close(f);
	if (n < 0)
		return (int)n;
	buf[n] = 0;
	if ((size_t)n != ir->size || strlen(buf) != (size_t)n)
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: symlink target has a NUL byte or is short",
				  ir->ino);
	return 0;
}

int64_t f2_file_node_start(const struct f2_file *f, uint32_t node_ofs)
{
	const uint64_t ind_end = 2ull * NIDS + 4;	/* last offset under IND2 */
	uint64_t idx;	/* index of the direct node among the file's direct nodes */

	if (node_ofs == 0)
		return 0;
	if (node_ofs <= 2) {
		idx = node_ofs - 1;
	} else if (node_ofs <= ind_end) {
		/* IND1 at 3, its children 4..; IND2 at 4 + NIDS, its children next */
		if (node_ofs == 3 || node_ofs == 4 + NIDS)
			return -1;
		idx = node_ofs - 2 - (node_ofs - 4) / (NIDS + 1);
	} else {
		uint64_t rel = node_ofs - ind_end - 1;	/* 0 = the DIND node */

		if (rel == 0 || (rel - 1) % (NIDS + 1) == 0)
			return -1;			/* an indirect node */
		idx = node_ofs - 5 - (node_ofs - ind_end - 3) / (NIDS + 1);
	}
	return (int64_t)(idx * f2_file_addrs_per_block(f) + f->ir.addrs);
}
