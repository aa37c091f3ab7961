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
#include "f2/io.h"
#include "f2/node.h"

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
	struct f2_node_path p;
	const struct f2_node *n = NULL;
	uint32_t nid;
	int err, k;

	*addr = 0;
	if (skip)
		*skip = 1;
	if (f->ir.node.i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY))
		return 0;
	if (f2_node_path(fofs, f->ir.addrs, f2_file_addrs_per_block(f), &p) < 0)
		return f2_fs_fail(f->fs, F2_ERANGE, "ino %u: block %llu beyond the node tree",
				  f->ir.ino, (unsigned long long)fofs);
	if (p.depth == 0) {
		*addr = f2_inode_addr(&f->ir, p.ofs[0]);
		return check_addr(f, fofs, *addr);
	}
	nid = f2_le32(f->ir.node.i.i_nid[p.ofs[0]]);
	for (k = 1; k <= p.depth; k++) {
		if (!nid) {
			/* blocks from fofs to the end of the missing node's range */
			if (skip)
				*skip = p.end[k] - fofs;
			return 0;
		}
		/* cache slot: 2 for the direct node, 1 above it, 0 above that */
		err = load_node(f, k + 2 - p.depth, nid, p.nofs[k], &n);
		if (err)
			return err;
		if (k < p.depth)
			nid = f2_le32(n->in.nid[p.ofs[k]]);
		else
			*addr = f2_le32(n->dn.addr[p.ofs[k]]);
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

/*
 * Whole blocks of a plain file from fofs on, as many as lie one after the
 * other on disk (at most max), read with one I/O into out.  Returns how
 * many, or 0 when fofs is not such a block or anything fails: the caller
 * then reads block by block, which reports the fault by name.
 */
static size_t read_extent(struct f2_file *f, uint64_t fofs, uint8_t *out, size_t max)
{
	const struct f2_inode_ref *ir = &f->ir;
	uint32_t first, a;
	size_t n = 1;

	if ((ir->node.i.i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY)) || ir->cluster_blocks ||
	    ir->encrypted)
		return 0;
	if (f2_file_map(f, fofs, &first, NULL) || first == F2_NULL_ADDR ||
	    first == F2_NEW_ADDR || first == F2_COMPRESS_ADDR)
		return 0;
	while (n < max && !f2_file_map(f, fofs + n, &a, NULL) && a == first + n)
		n++;
	if (f2_io_read(f->fs->io, (uint64_t)first * F2_BLKSIZE, out, n * F2_BLKSIZE))
		return 0;
	return n;
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
		int err;

		if (!in && len - done >= F2_BLKSIZE) {
			size_t got = read_extent(f, pos / F2_BLKSIZE, out + done,
						 (len - done) / F2_BLKSIZE);

			if (got) {
				done += got * F2_BLKSIZE;
				continue;
			}
		}
		err = f2_file_read_block(f, pos / F2_BLKSIZE, blk, NULL);

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
	return f2_node_start_bidx(node_ofs, f->ir.addrs, f2_file_addrs_per_block(f));
}
