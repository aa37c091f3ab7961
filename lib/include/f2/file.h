/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/file.h - reading files, directories, symlinks and xattrs of an
 * opened file system (f2/fs.h).
 *
 * f2_file walks an inode's node tree (direct, indirect, double and triple
 * indirect) with a small cache of one node per level, checking that every
 * node belongs to the inode and sits at the node offset its position
 * implies, so a node pointing to itself or to another file's node is an
 * error naming the nid, never a loop.  Holes read as zeroes; inline data
 * and compressed clusters (lz4, zstd, lzo, lzo-rle) are handled; encrypted
 * contents give F2_EENCRYPTED.
 */
#ifndef F2_FILE_H
#define F2_FILE_H
#include <stdint.h>
#include <stddef.h>
#include "f2/fs.h"

struct f2_file {
	struct f2_fs *fs;
	struct f2_inode_ref ir;
	/* node cache: 2 = direct node, 1 = indirect, 0 = double indirect */
	uint32_t cnid[3];
	struct f2_node cnode[3];
	/* last decompressed cluster */
	uint8_t *cluster;
	uint64_t cluster_idx;		/* UINT64_MAX when empty */
	uint8_t *cbuf;			/* compressed input */
};

/* Open ino (reads and checks the inode); close frees the caches. */
int f2_file_open(struct f2_fs *fs, uint32_t ino, struct f2_file **out);
/* Same from an inode already read. */
int f2_file_open_ref(struct f2_fs *fs, const struct f2_inode_ref *ir, struct f2_file **out);
void f2_file_close(struct f2_file *f);

/* Blocks addressed per direct node (1018, less for cluster alignment). */
uint32_t f2_file_addrs_per_block(const struct f2_file *f);
/* First file block addressed by the direct node with footer offset
 * node_ofs (0: the inode itself), or -1 for an indirect node's offset. */
int64_t f2_file_node_start(const struct f2_file *f, uint32_t node_ofs);
/*
 * Map file block fofs to a raw address (0 hole, F2_NEW_ADDR reserved,
 * F2_COMPRESS_ADDR cluster head, else a main-area block, checked).
 * When the hole is a missing node, *skip (if not NULL) gets the number of
 * blocks from fofs that the missing node would have covered (>= 1).
 */
int f2_file_map(struct f2_file *f, uint64_t fofs, uint32_t *addr, uint64_t *skip);
/*
 * Read file block fofs into buf (4096 bytes; zeroes past EOF or in holes);
 * *hole (may be NULL) is set when the block is a hole.  Decompresses
 * clusters as needed.
 */
int f2_file_read_block(struct f2_file *f, uint64_t fofs, void *buf, int *hole);
/* Read len bytes at off; returns the count read (short at EOF) or < 0. */
long f2_file_pread(struct f2_file *f, uint64_t off, void *buf, size_t len);
/*
 * Next file block >= fofs that may hold data, skipping whole missing
 * nodes; returns the size in blocks when there is none.
 */
uint64_t f2_file_next_data(struct f2_file *f, uint64_t fofs);

/* Decompress one cluster (compress.c): algo enum f2_compress_algo. */
int f2_decompress(int algo, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		  size_t *out_used);
/* Which algorithms this build can decompress (bitmask of 1 << algo). */
unsigned f2_decompress_supported(void);

/* ---- compressors (compress_enc.c) ---------------------------------------- */
struct f2_compressor;
/* Which algorithms this build can compress (bitmask of 1 << algo): lz4,
 * zstd, and lzo and lzo-rle (plain LZO1X output), when configure found
 * their libraries. */
unsigned f2_compress_supported(void);
/* A compressor for algo (enum f2_compress_algo) and inputs of up to
 * max_in bytes.  level: zstd's (0: 1, the kernel's default); for lz4 a
 * level > 0 picks the lz4hc coder (plain lz4 output); ignored by lzo.
 * F2_EUNSUPP when the build lacks algo. */
int f2_compressor_new(int algo, int level, size_t max_in, struct f2_compressor **out);
void f2_compressor_free(struct f2_compressor *c);
/* Compress in into out (cap bytes): 0 with *out_len set, 1 when the
 * result does not fit in cap, or a negative code. */
int f2_compressor_run(struct f2_compressor *c, const uint8_t *in, size_t in_len, uint8_t *out,
		      size_t cap, size_t *out_len);

/* ---- directories ------------------------------------------------------ */
struct f2_dirent {
	uint32_t ino;
	uint32_t hash;
	uint8_t type;			/* enum f2_ftype */
	uint16_t name_len;		/* 1 .. 255 */
	uint8_t name[F2_NAME_LEN + 1];	/* NUL terminated (may contain '/') */
	uint64_t block;			/* directory block (UINT64_MAX inline) */
	uint32_t slot;
};

/*
 * Every entry of directory ir (inline or in blocks), "." and ".." included
 * as stored.  Malformed entries (zero or oversize names, slots past the
 * block, ino beyond the NAT) are skipped and counted, and so are dentry
 * blocks that cannot be mapped or read (up to 16, each reported through
 * fs->warn); the walk then ends with the error and fs->why describing the
 * last bad entry or the first bad block (fn saw every good entry).  A
 * non-zero return from fn stops the walk and is returned.
 */
int f2_dir_iter(struct f2_fs *fs, const struct f2_inode_ref *dir,
		int (*fn)(void *ctx, const struct f2_dirent *d), void *ctx);
/* Find name in dir by its hash bucket, then by a scan of every entry
 * (inline and encrypted directories: the scan only).  In a casefolded
 * directory the bucket is the fold's and names match by their fold
 * (f2_casefold_name_eq), so "README" finds "readme"; a name the strict
 * encoding refuses finds nothing.  -ENOENT when absent. */
int f2_dir_lookup(struct f2_fs *fs, const struct f2_inode_ref *dir,
		  const uint8_t *name, size_t len, struct f2_dirent *out);
/*
 * Resolve an absolute path ("/", "/a/b") from the root without following
 * symlinks; -ENOTDIR when a component is not a directory.  *ir gets the
 * inode of the last component.
 */
int f2_path_lookup(struct f2_fs *fs, const char *path, struct f2_inode_ref *ir);

/*
 * Where block bidx of a directory with i_dir_level dir_level sits in the
 * kernel's multi-level hash table: level l holds nbuckets(l) =
 * 2^(l + dir_level) buckets (2^30 from l + dir_level = 31 on) of 2 blocks
 * (4 from level 31 on), levels one after another from block 0.  A name
 * with hash h belongs in bucket h % nbuckets of each level.  Fills
 * *level, *bucket and *nbuckets (any may be NULL); -1 when bidx is past
 * the last level (63).  fsck's dentry checks use it; the write engine keeps
 * its own copy of this rule.
 */
int f2_dir_block_place(uint64_t bidx, uint32_t dir_level, uint32_t *level, uint64_t *bucket,
		       uint64_t *nbuckets);

/* Inline dentry geometry for an inline area of bytes bytes. */
struct f2_inline_dentry_geom {
	uint32_t nr, bitmap_size, reserved;
	uint32_t dentry_off, name_off;	/* byte offsets in the area */
};
void f2_inline_dentry_geom(uint32_t bytes, struct f2_inline_dentry_geom *g);

/* ---- symlinks ----------------------------------------------------------- */
/* Link target into buf (NUL terminated); F2_ERANGE if it does not fit or
 * the size is absurd, F2_EENCRYPTED for encrypted links. */
int f2_symlink_read(struct f2_fs *fs, const struct f2_inode_ref *ir, char *buf, size_t size);

/* ---- xattrs ------------------------------------------------------------- */
struct f2_xattr {
	uint8_t index;			/* enum f2_xattr_index */
	uint8_t name_len;
	uint16_t value_len;
	const char *name;		/* not NUL terminated */
	const uint8_t *value;
};
/* Prefix of an index ("user.", "trusted.", ...) or NULL if not exported. */
const char *f2_xattr_prefix(uint8_t index);
/*
 * Every xattr of ir: the inline area first, then the xattr node.  Entries
 * crossing the end of the area are F2_ECORRUPT (fn saw those before).
 */
int f2_xattr_iter(struct f2_fs *fs, const struct f2_inode_ref *ir,
		  int (*fn)(void *ctx, const struct f2_xattr *x), void *ctx);

/*
 * Convert a POSIX ACL as f2fs stores it (xattr index 2 or 3, empty name)
 * into the format of the system.posix_acl_* xattrs of setxattr(2).
 * Returns the length written to out, F2_ECORRUPT or F2_ERANGE.
 */
long f2_acl_to_posix(const uint8_t *in, size_t len, uint8_t *out, size_t cap);

#endif /* F2_FILE_H */
