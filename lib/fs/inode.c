// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inode.c - reading an inode and deriving its layout: extra attribute
 * size, inline xattr area, number of data addresses, inline data size,
 * compression cluster; every field used as a size or index is bounded.
 */
#include <string.h>
#include <sys/stat.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/node.h"


static int valid_mode(uint16_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK: case S_IFCHR:
	case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		return 1;
	}
	return 0;
}

int f2_inode_compress_check(const struct f2_inode *i, uint32_t extra_words)
{
	if (extra_words * 4 < offsetof(struct f2_inode, i_extra_end) -
			      offsetof(struct f2_inode, i_extra_isize))
		return F2_COMPR_NO_FIELDS;
	if (i->i_log_cluster_size < F2_MIN_CLUSTER_LOG || i->i_log_cluster_size > F2_MAX_CLUSTER_LOG)
		return F2_COMPR_BAD_LOG;
	return i->i_compress_algorithm > F2_COMPRESS_LZORLE ? F2_COMPR_BAD_ALGO : F2_COMPR_OK;
}

int f2_inode_parse(struct f2_fs *fs, uint32_t ino, const struct f2_node *node,
		   struct f2_inode_ref *ir)
{
	const struct f2_inode *i = &node->i;
	uint32_t extra = 0, xwords = 0, avail;

	if (&ir->node != node)
		memcpy(&ir->node, node, sizeof(*node));
	ir->ino = ino;
	ir->mode = f2_le16(i->i_mode);
	ir->size = f2_le64(i->i_size);
	ir->csum_ok = -1;
	ir->cluster_blocks = 0;
	ir->compress_algo = 0;
	if (f2_node_ofs(node) != 0)
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: node offset %u, an inode has 0",
				  ino, f2_node_ofs(node));
	if (!valid_mode(ir->mode))
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: file type 0%o unknown", ino,
				  ir->mode & S_IFMT);
	if (i->i_inline & F2_EXTRA_ATTR) {
		extra = f2_le16(i->i_extra_isize);
		if (!(fs->features & F2_FEAT_EXTRA_ATTR) || extra % 4 || extra > F2_EXTRA_ISIZE ||
		    extra < 4)
			return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: i_extra_isize %u invalid", ino,
					  extra);
		extra /= 4;
	}
	if (fs->features & F2_FEAT_FLEX_INLINE_XATTR) {
		/* the kernel reads every inode there with its extra area */
		if (!extra)
			return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: no extra attributes on a "
					  "flexible_inline_xattr volume", ino);
		if ((i->i_inline & F2_INLINE_XATTR) &&
		    f2_le16(i->i_inline_xattr_size) > F2_MAX_INLINE_XATTR_WORDS)
			return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: i_inline_xattr_size %u above %u",
					  ino, f2_le16(i->i_inline_xattr_size),
					  F2_MAX_INLINE_XATTR_WORDS);
		if (extra)
			xwords = f2_le16(i->i_inline_xattr_size);
		else if (i->i_inline & (F2_INLINE_XATTR | F2_INLINE_DENTRY))
			xwords = F2_INLINE_XATTR_ADDRS;
	} else if (i->i_inline & (F2_INLINE_XATTR | F2_INLINE_DENTRY)) {
		xwords = F2_INLINE_XATTR_ADDRS;
	}
	if ((i->i_inline & F2_INLINE_XATTR) && !xwords)
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: inline xattr flag with a 0-size area",
				  ino);
	/* leave room for the reserved word and one dentry's worth of data */
	if (extra + xwords + 1 + 8 > F2_ADDRS_PER_INODE)
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: i_inline_xattr_size %u too large",
				  ino, xwords);
	ir->extra_words = extra;
	ir->inline_xattr_words = xwords;
	avail = F2_ADDRS_PER_INODE - extra - xwords;
	ir->addrs = avail;
	ir->inline_bytes = 4 * (avail - 1);
	ir->encrypted = (i->i_advise & F2_ADVISE_ENCRYPT) ||
			(f2_le32(i->i_flags) & F2_ENCRYPT_FL);
	if ((f2_le32(i->i_flags) & F2_COMPR_FL) && S_ISREG(ir->mode)) {
		uint32_t log = i->i_log_cluster_size;
		int c = f2_inode_compress_check(i, extra);

		if (c == F2_COMPR_NO_FIELDS || !(fs->features & F2_FEAT_COMPRESSION))
			return f2_fs_fail(fs, F2_ECORRUPT,
					  "ino %u: compressed without the compression fields", ino);
		if (c == F2_COMPR_BAD_LOG)
			return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: i_log_cluster_size %u invalid",
					  ino, log);
		if (c == F2_COMPR_BAD_ALGO)
			return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: compression algorithm %u unknown",
					  ino, i->i_compress_algorithm);
		ir->cluster_blocks = 1u << log;
		ir->compress_algo = i->i_compress_algorithm;
		ir->addrs = avail & ~(ir->cluster_blocks - 1);
	}
	if ((i->i_inline & F2_INLINE_DATA) && (i->i_inline & F2_INLINE_DENTRY))
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: both inline data and inline dentry", ino);
	if ((i->i_inline & F2_INLINE_DENTRY) && !S_ISDIR(ir->mode))
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: inline dentries in a non-directory", ino);
	if ((i->i_inline & F2_INLINE_DATA) && !S_ISREG(ir->mode) && !S_ISLNK(ir->mode))
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: inline data in mode 0%o", ino, ir->mode);
	if ((i->i_inline & F2_INLINE_DATA) && ir->size > ir->inline_bytes)
		return f2_fs_fail(fs, F2_ECORRUPT, "ino %u: inline file of size %llu > %u", ino,
				  (unsigned long long)ir->size, ir->inline_bytes);
	if (ir->size > f2_node_max_blocks(F2_ADDRS_PER_INODE, F2_ADDRS_PER_BLOCK) * F2_BLKSIZE)
		return f2_fs_fail(fs, F2_ERANGE, "ino %u: size %llu beyond the largest file",
				  ino, (unsigned long long)ir->size);
	if ((fs->features & F2_FEAT_INODE_CHKSUM) && extra &&
	    extra * 4 >= offsetof(struct f2_inode, i_crtime) - offsetof(struct f2_inode, i_extra_isize))
		ir->csum_ok = f2_inode_csum(fs->csum_seed, node) == f2_le32(i->i_inode_checksum);
	return 0;
}

int f2_inode_read(struct f2_fs *fs, uint32_t ino, struct f2_inode_ref *ir)
{
	struct f2_nat_info ni;
	int err = f2_node_read(fs, ino, ino, &ir->node, &ni);

	if (err)
		return err;
	ir->blkaddr = ni.blkaddr;
	return f2_inode_parse(fs, ino, &ir->node, ir);
}
