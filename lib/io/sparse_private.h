/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparse_private.h - the Android sparse image format and the two halves of
 * the sparse backend that know it (not installed):
 *   sparse_index.c   parses and checks a sparse file into an index of
 *                    extents, and reads byte ranges through that index
 *   sparse_encode.c  writes an image as a sparse file, deterministically
 * lib/io/sparse.c builds the f2_io backend on them.
 *
 * The format, all numbers little-endian:
 *   file header (file_hdr_sz bytes, at least 28):
 *     0 magic 0xed26ff3a   4 major_version (1)   6 minor_version (0)
 *     8 file_hdr_sz u16   10 chunk_hdr_sz u16   12 blk_sz u32
 *    16 total_blks u32    20 total_chunks u32   24 image_checksum u32
 *   then total_chunks chunks, each a header (chunk_hdr_sz bytes, at least
 *   12):  0 chunk_type u16   2 reserved u16   4 chunk_sz u32 (blocks)
 *         8 total_sz u32 (bytes, header included)
 *   followed by its payload: RAW chunk_sz * blk_sz bytes, FILL a 4-byte
 *   pattern, DONT_CARE nothing, CRC32 a 4-byte checksum.
 */
#ifndef F2_SPARSE_PRIVATE_H
#define F2_SPARSE_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "io_private.h"

#define SP_MAGIC	0xed26ff3au
#define SP_MAJOR	1
#define SP_FILE_HDR	28	/* the file header we write; readers skip more */
#define SP_CHUNK_HDR	12	/* the chunk header we write */
#define SP_BLK		4096u	/* the block size we write (and write through) */

enum sp_type {
	SP_RAW = 0xcac1,
	SP_FILL = 0xcac2,
	SP_DONT_CARE = 0xcac3,
	SP_CRC32 = 0xcac4,
};

/* A run of blocks of one chunk; CRC32 chunks have none. */
struct sp_extent {
	uint64_t first;		/* first block */
	uint64_t off;		/* SP_RAW: file offset of the first block's data */
	uint32_t count;		/* blocks, never 0 */
	uint16_t type;		/* SP_RAW, SP_FILL or SP_DONT_CARE */
	uint8_t fill[4];	/* SP_FILL: the pattern, as stored */
};

/* A parsed image: extents in block order, covering [0, nblocks) exactly. */
struct sp_index {
	uint32_t blk_sz;
	uint32_t nblocks;	/* total_blks */
	uint32_t n;		/* extents */
	struct sp_extent *ext;
};

/* True if the file at fd starts with the sparse magic (-errno on error). */
int sp_has_magic(int fd);
/*
 * Parse the sparse file at fd into idx (freed by sp_index_free).  Every
 * number is checked before use: a bad header, a chunk whose sizes disagree
 * or overflow, a chunk past the end of the file, or a chunk table that
 * does not cover total_blks exactly is F2_ESPARSE.  CRC32 chunks and
 * image_checksum are ignored (their sizes are checked).  Bytes after the
 * last chunk are ignored.
 */
int sp_index_parse(int fd, struct sp_index *idx);
/* The index of one DONT_CARE extent over nblocks blocks of blk_sz. */
int sp_index_empty(uint32_t blk_sz, uint32_t nblocks, struct sp_index *idx);
void sp_index_free(struct sp_index *idx);
/* The extent holding block blk (which must be < idx->nblocks). */
const struct sp_extent *sp_index_find(const struct sp_index *idx, uint64_t blk);
/* Read [off, off + len) of the image (inside nblocks * blk_sz) from fd. */
int sp_index_read(const struct sp_index *idx, int fd, uint64_t off, void *buf, size_t len);

/* What the encoder is told about a run of blocks. */
struct sp_run {
	uint16_t type;		/* SP_DONT_CARE, SP_FILL, or SP_RAW: read and look */
	uint8_t fill[4];	/* SP_FILL */
	uint64_t count;		/* blocks, at least 1 */
};
/* Where the encoder's blocks (SP_BLK bytes each) come from. */
struct sp_source {
	void *ctx;
	/* The run starting at blk, at most max blocks long. */
	int (*run)(void *ctx, uint64_t blk, uint64_t max, struct sp_run *r);
	/* Read n blocks from blk. */
	int (*read)(void *ctx, uint64_t blk, uint32_t n, void *buf);
};
/*
 * Write an image of nblocks blocks of SP_BLK bytes to the empty file fd as
 * a sparse file.  The output depends only on the contents: each block that
 * is all zeroes is DONT_CARE, one 32-bit word repeated is FILL, anything
 * else RAW; neighbours of the same kind (FILL: the same word) share a
 * chunk; no CRC32 chunk, image_checksum 0.
 */
int sp_encode(int fd, uint32_t nblocks, const struct sp_source *src);

/* pread/pwrite of the whole range (io_private.h's f2_fd_xfer) */
static inline int sp_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	return f2_fd_xfer(fd, off, buf, NULL, len);
}

static inline int sp_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	return f2_fd_xfer(fd, off, NULL, buf, len);
}

#endif /* F2_SPARSE_PRIVATE_H */
