/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/fs.h - the read path of the engine: an opened file system.
 *
 * f2_fs_open() picks the superblock (primary, else backup; of two valid
 * copies that differ, the one the checkpoint and the inodes agree with)
 * and the newest valid checkpoint pack, loads the NAT/SIT version bitmaps, the NAT and SIT
 * journals and the summaries of the current segments, and maps every
 * device of a multi-device volume into one block address space.  Nothing
 * else is loaded eagerly: NAT, SIT and SSA blocks are read on demand, so
 * memory stays small whatever the volume size.  The read path opens the
 * devices read-only and never writes.
 *
 * Every call returns 0 (or a count) or a negative code from f2/errors.h;
 * on failure fs->why holds one line naming the structure that was rejected
 * and why ("nid 57: NAT block address 12345 outside the main area").
 * Callers that verify (fsck) read that reason; others print it.
 *
 * The handle is not thread safe (fs->why, the internal block cache).
 */
#ifndef F2_FS_H
#define F2_FS_H
#include <stdint.h>
#include <stddef.h>
#include "f2/format.h"
#include "f2/sb.h"

struct f2_io;

#define F2_WHY_LEN	256

/* Options for f2_fs_open(); a zeroed struct (or NULL) gives the defaults. */
struct f2_fs_opts {
	/* Devices after the first of a multi-device volume; when ndevs is 0
	 * the paths recorded in the superblock are used. */
	const char *dev_paths[F2_MAX_DEVICES];
	uint32_t ndevs;
	int sb_only;		/* stop after the superblock (no checkpoint) */
	int force_pack;		/* 1 or 2: use that cp pack if valid; 0 = newest */
	int shared;		/* f2_fs_open_rw(): without O_EXCL, on a device the
				 * kernel holds (fsck under a read-only mount) */
	int stream;		/* f2_fs_open_rw(): F2_IO_STREAM (lib/io/unix.c) */
	int last_dev_whole;	/* a multi-device volume's join spans its last
				 * device whole, not only the segments the
				 * superblock records (resize.f2fs grows into it) */
	f2_warn_fn warn;	/* non-fatal findings (opening, skipped entries), may be NULL */
	void *warn_ctx;
};

/* One checkpoint pack as found on disk (both are examined at open). */
struct f2_cp_pack_info {
	int valid;		/* head and tail agree and pass their checks */
	uint64_t version;	/* checkpoint_ver of the head block (if readable) */
	uint32_t start;		/* first block of the pack */
	char why[F2_WHY_LEN];	/* reason when !valid */
};

struct f2_fs_dev {
	char path[F2_MAX_PATH_LEN + 1];
	uint64_t start_blk, end_blk;	/* inclusive range of this device */
};

struct f2_curseg_info {
	uint32_t segno;		/* main-area segment number or F2_NULL_SEGNO */
	uint16_t blkoff;	/* next block to write in it */
	uint8_t alloc_type;	/* F2_LFS or F2_SSR */
	int have_sum;		/* sum holds its summary (from the cp) */
	struct f2_summary_block sum;
};

struct f2_fs {
	struct f2_io *io;		/* all devices as one address space */
	int own_io;
	struct f2_super sb;
	int sb_which;			/* 0 primary, 1 backup */
	char sb_why[2][F2_WHY_LEN];	/* why a superblock copy was rejected */
	int sb_valid[2];
	int sb_merged;			/* neither copy verifies: sb was made
					 * from both (f2_sb_merge) */
	int sb_overruled;		/* both verify, they differ, and the
					 * evidence is against copy
					 * 1 - sb_which: sb_why[] says what */
	uint32_t features;
	uint32_t csum_seed;		/* crc32 of the uuid, for inode checksums */

	/* derived geometry, all validated by f2_sb_verify() */
	uint64_t block_count;
	uint32_t main_blkaddr, main_segs, seg0_blkaddr;
	uint32_t nat_blkaddr, nat_blocks;	/* blocks in one NAT copy */
	uint32_t sit_blkaddr, sit_blocks;	/* blocks in one SIT copy */
	uint32_t ssa_blkaddr;
	uint32_t max_nid;

	uint32_t ndevs;
	struct f2_fs_dev devs[F2_MAX_DEVICES];

	/* checkpoint (NULL when opened sb_only) */
	struct f2_cp_pack_info packs[2];
	int cp_pack;			/* 0 or 1: the pack in use */
	uint8_t *cp_raw;		/* cp block + cp_payload blocks */
	const struct f2_checkpoint *cp;
	uint32_t cp_flags;
	uint64_t cp_ver;
	const uint8_t *nat_bitmap, *sit_bitmap;	/* version bitmaps (msb order) */
	uint32_t nat_bitmap_bytes, sit_bitmap_bytes;
	uint32_t orphan_blocks;
	struct f2_journal nat_journal;	/* from the hot data summary */
	struct f2_journal sit_journal;	/* from the cold data summary */
	uint32_t nat_journal_n, sit_journal_n;	/* counts, bounded */
	struct f2_curseg_info curseg[F2_NR_CURSEG];

	char why[F2_WHY_LEN];		/* reason for the last failure */
	f2_warn_fn warn;		/* from the open options, may be NULL */
	void *warn_ctx;

	/* one-block caches for NAT/SIT iteration (internal) */
	uint64_t nat_cache_addr, sit_cache_addr;
	uint8_t *nat_cache, *sit_cache;
};

/* Casefolded names on this volume use the strict encoding (the kernel
 * refuses names that do not fold). */
static inline int f2_fs_cf_strict(const struct f2_fs *fs)
{
	return !!(f2_le16(fs->sb.s_encoding_flags) & F2_ENC_STRICT_MODE_FL);
}

/* ---- open / close / raw blocks ---------------------------------------- */

/* Open path read-only (plus the other devices of a multi-device volume). */
int f2_fs_open(const char *path, const struct f2_fs_opts *o, struct f2_fs **out);
/* Open on an existing I/O stack; the caller keeps ownership of io. */
int f2_fs_open_io(struct f2_io *io, const struct f2_fs_opts *o, struct f2_fs **out);
void f2_fs_close(struct f2_fs *fs);

/* Record a failure reason in fs->why; returns err. */
int f2_fs_fail(struct f2_fs *fs, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Read one 4 KiB block; F2_ERANGE beyond block_count. */
int f2_fs_read_block(struct f2_fs *fs, uint64_t blkaddr, void *buf);

/* Address classification. */
static inline int f2_fs_in_main(const struct f2_fs *fs, uint64_t blkaddr)
{
	return blkaddr >= fs->main_blkaddr &&
	       blkaddr < fs->main_blkaddr + (uint64_t)fs->main_segs * F2_BLKS_PER_SEG;
}
static inline uint32_t f2_fs_segno(const struct f2_fs *fs, uint64_t blkaddr)
{
	return (uint32_t)((blkaddr - fs->main_blkaddr) >> F2_LOG_BLKS_PER_SEG);
}
static inline uint64_t f2_fs_seg_start(const struct f2_fs *fs, uint32_t segno)
{
	return fs->main_blkaddr + ((uint64_t)segno << F2_LOG_BLKS_PER_SEG);
}

/* ---- checkpoint -------------------------------------------------------- */

/*
 * Examine pack (0 or 1): read head, payload and tail, check crcs, versions,
 * sizes.  On success (0) *head (4096 bytes) holds the head block.  Used by
 * f2_fs_open() and by fsck to report on the pack not in use.
 */
int f2_cp_check_pack(struct f2_fs *fs, int pack, void *head, struct f2_cp_pack_info *info);
/* The newest intact tail block of pack (0 or 1), whatever its head says:
 * a checkpoint block with a good checksum and fields at the offset *off
 * its own cp_pack_total_block_count puts it (the last of its pack).  The
 * block goes to tail (F2_BLKSIZE bytes).  F2_ECORRUPT when there is none. */
int f2_cp_find_tail(struct f2_fs *fs, int pack, void *tail, uint32_t *off);
/* A pack whose head verifies but whose cp_pack_total_block_count (in the
 * head, or in head and tail alike) misses its tail: the first block past
 * the payload that repeats the head in all but that count and the
 * checksum is the committed tail.  On success *fixed (F2_BLKSIZE bytes)
 * is that block with the count that reaches it and a fresh checksum, and
 * *off its offset in the pack; F2_ECORRUPT when there is none. */
int f2_cp_find_twin(struct f2_fs *fs, int pack, void *fixed, uint32_t *off);
/* Call fn for every orphan inode of the chosen pack; stops on a non-zero
 * return from fn (which is returned). */
int f2_cp_orphans(struct f2_fs *fs, int (*fn)(void *ctx, uint32_t ino), void *ctx);

/*
 * Where the pack in use keeps a copy of a current segment's summary: entry
 * (0..511) of log's (enum f2_curseg) summary, F2_SUM_AT_JOURNAL for the
 * journal (the NAT journal is the hot data log's, the SIT journal the cold
 * data log's) or F2_SUM_AT_FOOTER (not in compacted summaries).  *blkaddr
 * and *off get the block and the byte in it; -ENOENT when the pack holds
 * no such copy (node logs without a clean unmount, an entry past the
 * compacted ones).
 */
#define F2_SUM_AT_JOURNAL	(-1)
#define F2_SUM_AT_FOOTER	(-2)
int f2_cp_sum_locate(const struct f2_fs *fs, int log, int entry, uint64_t *blkaddr,
		     uint32_t *off);

/* ---- NAT ----------------------------------------------------------------- */
struct f2_nat_info {
	uint32_t nid, ino, blkaddr;
	uint8_t version;
	int in_journal;		/* came from the checkpoint's NAT journal */
};

/* Block address of NAT block blk_off (nid / 455) in the valid copy. */
uint64_t f2_nat_block_addr(const struct f2_fs *fs, uint32_t blk_off);
/* Block address of NAT block blk_off in the first (second = 0) or second copy. */
uint64_t f2_nat_copy_addr(const struct f2_fs *fs, uint32_t blk_off, int second);
/* The same in a NAT area starting at nat_blkaddr (one not yet in use). */
uint64_t f2_nat_area_addr(uint64_t nat_blkaddr, uint32_t blk_off, int second);
/* Look nid up: journal first, then the NAT copy chosen by the bitmap.
 * F2_ERANGE if nid >= max_nid.  A free nid gives blkaddr 0. */
int f2_nat_lookup(struct f2_fs *fs, uint32_t nid, struct f2_nat_info *ni);
/*
 * Iterate the NAT one block at a time, journal entries taking precedence;
 * fn sees every nid whose entry is not all zero (ino or blkaddr set), in
 * nid order.  A non-zero return from fn stops the walk and is returned.
 * fn may itself look up or iterate the NAT.
 */
int f2_nat_iter(struct f2_fs *fs, int (*fn)(void *ctx, const struct f2_nat_info *ni),
		void *ctx);

/* ---- SIT ------------------------------------------------------------------ */
struct f2_sit_info {
	uint32_t segno;
	uint16_t vblocks;	/* valid blocks */
	uint8_t type;		/* enum f2_curseg */
	uint8_t valid_map[F2_SIT_VBLOCK_MAP_SIZE];	/* msb bit order */
	uint64_t mtime;
	int in_journal;
};

uint64_t f2_sit_block_addr(const struct f2_fs *fs, uint32_t blk_off);
uint64_t f2_sit_copy_addr(const struct f2_fs *fs, uint32_t blk_off, int second);
int f2_sit_get(struct f2_fs *fs, uint32_t segno, struct f2_sit_info *si);
/* Segment segno's entry in the SIT block in use, even when the journal
 * overrides it (in_journal 0). */
int f2_sit_block_get(struct f2_fs *fs, uint32_t segno, struct f2_sit_info *si);
/* Every main-area segment in order (journal first); fn as for NAT. */
int f2_sit_iter(struct f2_fs *fs, int (*fn)(void *ctx, const struct f2_sit_info *si),
		void *ctx);

/* ---- SSA ------------------------------------------------------------------ */
/*
 * Summary block of segno: the checkpoint's copy for a current segment
 * that has one (*from_cp = 1; data logs always, node logs after a clean
 * unmount), else the SSA block as stored (entry_type unchecked).
 */
int f2_ssa_read(struct f2_fs *fs, uint32_t segno, struct f2_summary_block *sum,
		int *from_cp);
/* -1 or the curseg index (enum f2_curseg) using segno. */
int f2_curseg_of(const struct f2_fs *fs, uint32_t segno);

/* ---- nodes ------------------------------------------------------------------ */
/*
 * Read nid's node through the NAT and verify its footer: footer nid == nid,
 * footer ino == the NAT's ino, block address inside the main area.  With
 * want_ino != 0 the owner must be want_ino as well.  *ni (may be NULL)
 * gets the NAT entry.  nid 0 and the node/meta inode numbers are
 * F2_ECORRUPT, a free nid -ENOENT, an address outside main F2_ERANGE.
 * The footer's node offset is not checked here (the caller knows what it
 * expects: f2_node_ofs()).
 */
int f2_node_read(struct f2_fs *fs, uint32_t nid, uint32_t want_ino,
		 struct f2_node *node, struct f2_nat_info *ni);
/* Footer checks of a node block read from elsewhere (fsck). */
int f2_node_verify(struct f2_fs *fs, const struct f2_node *node, uint32_t nid,
		   uint32_t ino);
static inline uint32_t f2_node_ofs(const struct f2_node *n)
{
	return f2_le32(n->footer.flag) >> F2_FOOTER_OFFSET_SHIFT;
}

/* ---- inodes ----------------------------------------------------------------- */
/* a compressed file's cluster: 2^2 .. 2^8 blocks (i_log_cluster_size) */
#define F2_MIN_CLUSTER_LOG	2
#define F2_MAX_CLUSTER_LOG	8
#define F2_COMPR_FL		0x00000004u	/* i_flags: compressed file */
#define F2_NOCOMP_FL		0x00000400u
#define F2_ENCRYPT_FL		0x00000800u
#define F2_VERITY_FL		0x00100000u
#define F2_CASEFOLD_FL		0x40000000u

enum f2_compress_algo {
	F2_COMPRESS_LZO = 0,
	F2_COMPRESS_LZ4 = 1,
	F2_COMPRESS_ZSTD = 2,
	F2_COMPRESS_LZORLE = 3,
};

/* An inode in memory: its block and the numbers derived (and bounded). */
struct f2_inode_ref {
	uint32_t ino;
	struct f2_node node;		/* the raw inode block */
	uint32_t blkaddr;		/* where it was read from */
	uint16_t mode;
	uint64_t size;
	uint32_t extra_words;		/* i_extra_isize / 4 (0 without extra attr) */
	uint32_t inline_xattr_words;	/* size of the inline xattr area */
	uint32_t addrs;			/* data addresses in the inode */
	uint32_t inline_bytes;		/* size of the inline data area */
	uint32_t cluster_blocks;	/* compressed: blocks per cluster, else 0 */
	uint8_t compress_algo;
	int encrypted;			/* F2_ADVISE_ENCRYPT or F2_ENCRYPT_FL */
	int csum_ok;			/* -1 no inode_checksum, 0 bad, 1 good */
};

/*
 * Read and check inode ino: footer (nid == ino == owner), offset 0,
 * i_extra_isize and i_inline_xattr_size in range, inline flags
 * consistent with the mode.  A checksum mismatch is reported through
 * csum_ok, not as a failure (the kernel also only warns).
 */
int f2_inode_read(struct f2_fs *fs, uint32_t ino, struct f2_inode_ref *ir);
/* Parse an inode block already read (fsck): fills the derived fields. */
/* The compression fields of an inode flagged F2_COMPR_FL whose extra
 * area is extra_words words: F2_COMPR_OK, or what Linux refuses. */
enum { F2_COMPR_OK, F2_COMPR_NO_FIELDS, F2_COMPR_BAD_LOG, F2_COMPR_BAD_ALGO };
int f2_inode_compress_check(const struct f2_inode *i, uint32_t extra_words);
int f2_inode_parse(struct f2_fs *fs, uint32_t ino, const struct f2_node *node,
		   struct f2_inode_ref *ir);

/* Data address i of the inode itself (i < ir->addrs). */
static inline uint32_t f2_inode_addr(const struct f2_inode_ref *ir, uint32_t i)
{
	return f2_le32(ir->node.i.i_addr[ir->extra_words + i]);
}
/* The inline data area (valid when F2_INLINE_DATA or F2_INLINE_DENTRY). */
static inline const uint8_t *f2_inline_data(const struct f2_inode_ref *ir)
{
	return (const uint8_t *)&ir->node.i.i_addr[ir->extra_words + 1];
}
/* The inline xattr area, ir->inline_xattr_words * 4 bytes. */
static inline const uint8_t *f2_inline_xattr(const struct f2_inode_ref *ir)
{
	return (const uint8_t *)&ir->node.i.i_addr[F2_ADDRS_PER_INODE -
						   ir->inline_xattr_words];
}

/*
 * Open path read-write with its checkpoint, for the writers (gc, defrag,
 * fsck's repairs): a single device through f2_io_open() (F2_IO_RECORD /
 * F2_IO_FAULT apply), every device of
 * a multi-device volume read-write (paths from its superblock, or
 * o->dev_paths) joined into one address space (F2_IO_RECORD / F2_IO_FAULT
 * apply to the join: one log of the joined space).  Every device is opened
 * exclusively unless o->shared.  *io must be closed after f2_fs_close(*fs).
 * 0, or a negative code with the reason in why.
 */
int f2_fs_open_rw(const char *path, const struct f2_fs_opts *o, struct f2_io **io,
		  struct f2_fs **fs, char *why, size_t len);

#endif /* F2_FS_H */
