/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine/internal.h - internals of the write engine (f2/engine.h), shared by
 * the eng_*.c files: the dirty NAT/SIT tables, current
 * segments, the block cache, and the calls between the files.
 */
#ifndef F2_ENGINE_INTERNAL_H
#define F2_ENGINE_INTERNAL_H
#include <stdint.h>
#include <stddef.h>
#include "f2/engine.h"
#include "f2/fs.h"
#include "f2/map.h"
#include "f2/file.h"

/* ---- tables ----------------------------------------------------------- */
struct eng_nat {
	uint32_t nid, ino, blkaddr;
	uint8_t version;
	uint8_t dirty;		/* changed since the last checkpoint */
	uint8_t in_journal;	/* held by the last checkpoint's journal */
	uint8_t held;		/* kept from allocation by eng_rf_hold_nid */
};

/* NAT entries are allocated in slabs: a rebuild changes one per node. */
#define ENG_NAT_SLAB	1024
struct eng_nat_slab {
	struct eng_nat_slab *next;
	uint32_t used;
	struct eng_nat e[ENG_NAT_SLAB];
};

struct eng_sit {
	uint32_t segno;
	uint16_t vblocks;
	uint8_t type;
	uint8_t dirty, in_journal;
	uint8_t map[F2_SIT_VBLOCK_MAP_SIZE];
	uint8_t ckpt_map[F2_SIT_VBLOCK_MAP_SIZE];	/* valid at the last checkpoint:
						 * never reused before the next */
	uint16_t ckpt_vblocks;
	uint64_t mtime;
};

struct eng_curseg {
	uint32_t segno;
	uint16_t blkoff;	/* next block to write (SSR: the next free slot) */
	uint8_t ssr;		/* filling the free slots of a partly valid segment */
	struct f2_summary_block sum;
};

/* A cached node (kind 'n') or directory data block (kind 'd'). */
struct eng_blk {
	uint64_t key;		/* nid, or ino << 32 | file block */
	uint8_t kind;
	uint8_t dirty;
	uint8_t log;		/* enum f2_curseg to write it to */
	uint32_t ino;		/* owner (data blocks) */
	uint32_t fofs;
	uint8_t data[F2_BLKSIZE];
};

/* Placement of new sections (defrag.f2fs): when on, a log that needs a
 * new section takes the free one nearest from_sec, at or above it (or at
 * or below it with left), never one in [skip_lo, skip_hi); none there is
 * F2_ENOSPC.  Off: the engine's own round-robin choice. */
struct eng_place {
	uint8_t on, left;
	uint32_t from_sec, skip_lo, skip_hi;
	uint32_t lo_sec, hi_sec;	/* only sections in [lo, hi) (hi 0: all) */
};

struct f2_engine {
	struct f2_fs *fs;
	struct f2_engine_opts o;
	char why[F2_WHY_LEN];

	uint8_t *nat_bitmap, *sit_bitmap;	/* our copies of the version bitmaps */
	uint8_t *freemap;			/* bit set: segment free */
	uint32_t free_segs;
	uint8_t sit_to_blocks;			/* next SIT flush: blocks, not the
						 * journal (a repair: the kernel
						 * checks every entry of the SIT
						 * blocks, even those the journal
						 * overrides) */
	uint32_t segs_per_sec, secs_per_zone;
	struct eng_curseg cur[F2_NR_CURSEG];

	struct f2_map nat, sit;			/* nid / segno -> entry */
	struct eng_nat_slab *nat_slab;		/* where the NAT map's entries
						 * live (none is freed alone) */
	struct f2_map nodes, dblks;		/* cached blocks */
	size_t cached;
	struct eng_blk *blk_pool;		/* evicted blocks for reuse, linked
						 * through their first bytes */
	uint32_t next_nid;			/* free-nid search cursor */
	struct f2_map cf_checked;		/* casefolded directories whose
						 * entries all sit where their
						 * hash puts them (engine/dir.c) */

	uint64_t valid_blocks, user_blocks;
	uint32_t valid_nodes, valid_inodes;
	uint32_t rsvd_segs, ovp_segs;		/* GC reserve, overprovision */
	uint64_t cp_ver;			/* the committed checkpoint */
	int cp_pack;				/* pack of the committed checkpoint */
	uint32_t ckpt_flags;
	uint64_t mtime;

	/* nat_bits (full and empty NAT blocks), kept when the committed
	 * checkpoint had valid ones; then every NAT change goes to a block */
	uint8_t *nat_bits;			/* le64 header, full bits, empty bits */
	uint32_t nat_bits_bytes, nat_bits_blocks;
	int nat_bits_on;

	uint32_t *orphans;
	size_t norphans, orphan_cap;
	uint8_t *zero;				/* a zero block */

	/* compressed writes (engine/compress.c): the last settings given,
	 * a coder per algorithm made on first use, a cluster's output */
	struct f2_compress_opts copts;
	struct f2_compressor *coder[4];
	uint8_t *cbuf;

	struct eng_place place;			/* where new sections come from */
	struct eng_ssr *ssr;			/* SSR state (engine/ssr.c), or NULL: LFS */
	uint64_t new_segs, ssr_segs, ssr_blocks;	/* allocation counters */
	struct eng_zones *zones;			/* zoned devices (engine/zone.c), or NULL */
};

int eng_fail(struct f2_engine *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- engine/flush.c: NAT/SIT write-out at a checkpoint -------------------- */
/* What differs between the tables. The engine entries (struct eng_nat,
 * eng_sit) hold a uint32_t key (nid, segno) and uint8_t dirty and
 * in_journal flags, found at these offsets. */
struct eng_flush_ops {
	const char *name;			/* "NAT" or "SIT", for messages */
	uint32_t per_block;			/* entries in one table block */
	size_t entry_size;			/* the on-disk entry */
	size_t key_off, dirty_off, journal_off;
	/* The on-disk entry of engine entry e, at dst (unaligned). */
	void (*encode)(const void *e, void *dst);
	/* Address of copy 0 or 1 of table block b. */
	uint64_t (*addr)(const struct f2_engine *w, uint32_t b, int copy);
	/* Optional: block b filled, before it is written. */
	void (*block_done)(struct f2_engine *w, uint32_t b, const uint8_t *blk);
};
/* Write m's pending entries into j when there are at most journal_max of
 * them, else into the other copy of their blocks (bitmap: the table's
 * version bits, flipped per block written); j is cleared either way. */
int eng_table_flush(struct f2_engine *w, const struct f2_map *m, const struct eng_flush_ops *ops,
		   uint8_t *bitmap, size_t journal_max, struct f2_journal *j);

/* ---- engine/seg.c: segments, SIT, SSA, block allocation ------------------- */
int eng_seg_init(struct f2_engine *w);
int eng_sit_entry(struct f2_engine *w, uint32_t segno, struct eng_sit **out);
/* Allocate the next block of log t, owned by nid at ofs (version ver). */
int eng_alloc_block(struct f2_engine *w, int t, uint32_t nid, uint16_t ofs, uint8_t ver,
		   uint32_t *blkaddr);
/* Mark a block no longer valid (NULL/NEW addresses ignored). */
int eng_invalidate(struct f2_engine *w, uint32_t blkaddr);
/* A file's data slot let go: a block is invalidated; a reserved one
 * (NEW_ADDR), which the checkpoint's valid_block_count counts but the SIT
 * does not, leaves the count. */
int eng_drop_data(struct f2_engine *w, uint32_t addr);
/* Open the next segment of every log whose segment is full. */
int eng_seg_roll_full(struct f2_engine *w);
/* Close log t's current segment now (its summary to the SSA) and open
 * a segment of a new section (chosen by w->place when on). */
int eng_seg_reopen(struct f2_engine *w, int t);
/* After a checkpoint: segments left empty become free. */
void eng_release_prefree(struct f2_engine *w);
/* Write the SIT changes (journal or other copy); fills the journal. */
int eng_sit_flush(struct f2_engine *w, struct f2_journal *j);

/* ---- engine/ssr.c: slack space recycling ---------------------------------- */
/* When log t needs a segment: 1 if it should take a partly valid one
 * (SSR; the mode, and in auto mode the driver's need_SSR rule), else 0. */
int eng_ssr_wanted(struct f2_engine *w, int t);
/* The partly valid segment log t takes (*segno), chosen as the driver's
 * get_ssr_segment; 0 when there is none. */
int eng_ssr_pick(struct f2_engine *w, int t, uint32_t *segno);
/* The first slot at or after off of e that is free now and was free at
 * the last checkpoint, or F2_BLKS_PER_SEG. */
uint16_t eng_ssr_next_free(const struct eng_sit *e, uint32_t off);
/* A checkpoint is on disk: what it holds is what SSR must not reuse. */
void eng_ssr_committed(struct f2_engine *w);
void eng_ssr_free(struct eng_ssr *s);
/* Log t continues in partly valid segment segno (engine/seg.c). */
int eng_seg_change(struct f2_engine *w, int t, uint32_t segno);
/* Free sections now (a section is free when all its segments are). */
uint32_t eng_free_secs(const struct f2_engine *w);

/* ---- engine/zone.c: placement of new sections, zoned sections ------------- */
/* The free section w->place asks for (w->place.on); F2_ENOSPC if none. */
int eng_place_section(struct f2_engine *w, int t, uint32_t *out);
/* Section sec is about to take a log's writes from its first block: on
 * a zoned device its zone (free in the committed checkpoint) is reset
 * unless empty. */
int eng_zone_open(struct f2_engine *w, uint32_t sec);
struct eng_zones;
void eng_zones_free(struct eng_zones *z);
/* Before a block of log t is allocated: on a zoned volume, the first one
 * of the session moves the log to a new section (an empty zone). */
int eng_zone_alloc_check(struct f2_engine *w, int t);
/* eng_seg_reopen(), and on a zoned volume the log counts as moved. */
int eng_zone_reopen(struct f2_engine *w, int t);
/* f2_engine_open() without its refusal of zoned volumes (engine/checkpoint.c), for
 * f2_engine_open_zoned(), which attaches the zones. */
int eng_open(struct f2_fs *fs, const struct f2_engine_opts *o, struct f2_engine **out);

/* ---- engine/nat.c: NAT, nids, node cache ---------------------------------- */
int eng_nat_get(struct f2_engine *w, uint32_t nid, struct eng_nat **out);
/* eng_nat_get() that also takes nid 0 (a checker resetting the reserved entry). */
int eng_nat_get_any(struct f2_engine *w, uint32_t nid, struct eng_nat **out);
void eng_nat_free_all(struct f2_engine *w);
int eng_nid_alloc(struct f2_engine *w, uint32_t ino, uint32_t *nid);
void eng_nid_free(struct f2_engine *w, struct eng_nat *e);
int eng_nat_flush(struct f2_engine *w, struct f2_journal *j);
/* Load nat_bits from the committed pack if they are valid. */
int eng_nat_bits_load(struct f2_engine *w);
/* A block for the cache, its contents undefined (an evicted one reused:
 * a long populate evicts and refills thousands, which fragments malloc's
 * heap); eng_blk_free() gives it back. */
struct eng_blk *eng_blk_new(struct f2_engine *w);
void eng_blk_free(struct f2_engine *w, struct eng_blk *b);
/* Block b into cache m (counted in w->cached); b is freed on failure. */
int eng_cache_put(struct f2_engine *w, struct f2_map *m, struct eng_blk *b);
/* Node nid read from its NAT address into a new, uncached, clean block
 * (key, kind, owner set), its footer not checked; ino, when not 0, must
 * be its owner in the NAT. */
int eng_node_read(struct f2_engine *w, uint32_t nid, uint32_t ino, struct eng_blk **out);
/* Node nid of owner ino, read into the cache (from disk if needed). */
int eng_node_get(struct f2_engine *w, uint32_t nid, uint32_t ino, struct eng_blk **out);
/* A new node in the cache: nid allocated, footer set (ofs = node offset). */
/* A new node block for nid (its NAT entry already taken) in the cache:
 * footer set, contents zero, dirty. */
int eng_node_attach(struct f2_engine *w, uint32_t nid, uint32_t ino, uint32_t ofs, int is_dir,
		   struct eng_blk **out);
/* How a new inode's extra area is laid out.  DRIVER: as Linux creates
 * inodes (extra area F2_EXTRA_ISIZE, an inline xattr area, of
 * F2_INLINE_XATTR_ADDRS words with flexible_inline_xattr).  MKFS: as mkfs
 * writes its root, lost+found and quota inodes, like f2fs-tools' mkfs
 * (extra area only as large as the features need, no inline xattrs). */
enum eng_inode_rule { ENG_INODE_DRIVER, ENG_INODE_MKFS };
/* The fields every new inode takes from a and the rule: mode, owner,
 * times (crtime when the feature is on), generation, flags, i_inline's
 * extra attribute and inline xattr flags, i_extra_isize,
 * i_inline_xattr_size.  Everything else is the caller's. */
void eng_inode_fields(struct f2_inode *i, uint32_t features, enum eng_inode_rule rule,
		      const struct f2_wattr *a);
/* The fields of a new inode b named name in dir, from a (mode, owner, times,
 * flags, device number): links 1 (2 for a directory), i_blocks 1. */
void eng_inode_init(struct f2_engine *w, struct eng_blk *b, uint32_t dir, const char *name,
		   size_t len, const struct f2_wattr *a);
int eng_node_new(struct f2_engine *w, uint32_t ino, uint32_t ofs, int is_dir,
		uint32_t *nid, struct eng_blk **out);
/* Free a node (and forget its cached copy). */
int eng_node_free(struct f2_engine *w, uint32_t nid);
static inline struct f2_node *eng_node(struct eng_blk *b)
{
	return (struct f2_node *)b->data;
}
/* Address words inside a node block (4-byte aligned in the block). */
static inline le32 *eng_word(struct f2_node *n, size_t byte_off)
{
	return (le32 *)(void *)((uint8_t *)n + byte_off);
}
#define ENG_IADDR(n, k)	eng_word((n), offsetof(struct f2_inode, i_addr) + 4 * (size_t)(k))
#define ENG_INID(n, k)	eng_word((n), offsetof(struct f2_inode, i_nid) + 4 * (size_t)(k))
#define ENG_NADDR(n, k)	eng_word((n), 4 * (size_t)(k))
/* Write back every dirty directory block, then every dirty node. */
int eng_writeback(struct f2_engine *w);
int eng_maybe_writeback(struct f2_engine *w);

/* ---- engine/file.c: inode layout, block map, data ------------------------- */
struct eng_ilayout {
	uint32_t extra, xwords, addrs, inline_bytes;
	uint32_t baddrs;	/* addresses used per direct node */
	uint32_t cluster;	/* compressed file: blocks per cluster, else 0 */
};
void eng_inode_layout(const struct f2_node *n, uint32_t features, struct eng_ilayout *l);
/* Write len bytes at off into log t block by block (no size update, no
 * inline data, no compression). */
int eng_write_range(struct f2_engine *w, uint32_t ino, int t, uint64_t off, const uint8_t *src,
		    size_t len);
/* engine/compress.c: the same for a compressed file: full clusters are
 * stored compressed when that saves enough, the rest as eng_write_range. */
int eng_write_compressed(struct f2_engine *w, uint32_t ino, int t, uint64_t off,
			 const uint8_t *src, size_t len);
/* Point file block fofs of ino at a new block of log t; *addr gets it. */
int eng_place_block(struct f2_engine *w, uint32_t ino, uint64_t fofs, int t, uint32_t *addr);
void eng_add_iblocks(struct eng_blk *inode, int64_t d);
/* Address slot of file block fofs: *slot points into a cached node,
 * *owner is that node's blk (nid in footer), *ofs the index in it.
 * With create, missing nodes are made; without, *slot = NULL for holes. */
int eng_map_block(struct f2_engine *w, uint32_t ino, uint64_t fofs, int create,
		 le32 **slot, struct eng_blk **owner, uint32_t *ofs);
/* The first block of file ino in [fofs, end) with an address on disk (not
 * cached blocks), or end: the blocks under a missing node are passed at
 * once, so the cost follows the nodes present, not the range. */
int eng_next_mapped(struct f2_engine *w, uint32_t ino, uint64_t fofs, uint64_t end,
		    uint64_t *next);
/* Point file block fofs of ino at a new block of log t holding buf. */
int eng_write_block_at(struct f2_engine *w, uint32_t ino, uint64_t fofs, int t,
		      const void *buf);
/* Point file block fofs of ino at a new block of its data log (inline
 * data moved to a block first); *addr gets it and the caller writes it
 * (engine/copy.h) before anything reads the block. */
int eng_place_data(struct f2_engine *w, uint32_t ino, uint64_t fofs, uint32_t *addr);
/* Read file block fofs (zero for holes), cached directory blocks first. */
int eng_read_file_block(struct f2_engine *w, uint32_t ino, uint64_t fofs, void *buf, int *hole);
/* Free every data block and node of ino from block fofs on. */
int eng_truncate_blocks(struct f2_engine *w, uint32_t ino, uint64_t from);
int eng_inode_get(struct f2_engine *w, uint32_t ino, struct eng_blk **out);

/* ---- engine/dir.c --------------------------------------------------------- */
/* The cached block fofs of directory dir, read on a miss (zero with
 * *hole set for a hole, cached all the same). */
int eng_dblk_get(struct f2_engine *w, uint32_t dir, uint64_t fofs, struct eng_blk **out,
		 int *hole);
/* The blocks of directory dir below end that hold something, in order:
 * those with an address and those only cached (added, not yet placed);
 * holes are passed over without being read or cached, so a sparse
 * directory costs its blocks and nodes, not its i_size.  A block cached
 * after eng_dwalk_start is seen only if mapped.  eng_dwalk_next: 1 with
 * the block and its index, 0 at the end, or an error; eng_dwalk_end
 * after either. */
struct eng_dwalk {
	uint32_t dir;
	uint64_t fofs, end;
	uint64_t *cached;	/* dir's cached blocks below end, ascending */
	size_t n, i;
};
int eng_dwalk_start(struct f2_engine *w, uint32_t dir, uint64_t end, struct eng_dwalk *d);
int eng_dwalk_next(struct f2_engine *w, struct eng_dwalk *d, struct eng_blk **b, uint64_t *fofs);
void eng_dwalk_end(struct eng_dwalk *d);
int eng_dir_add(struct f2_engine *w, uint32_t dir, const uint8_t *name, size_t len,
	       uint32_t ino, uint8_t type);
/* Find name in dir (casefolded directories: by its fold); *ino gets the
 * entry's ino, found (F2_NAME_LEN + 1 bytes, may be NULL) its stored name;
 * remove takes the entry out.  -ENOENT when absent, -EINVAL for a name a
 * strict casefolded directory refuses. */
int eng_dir_find(struct f2_engine *w, uint32_t dir, const uint8_t *name, size_t len,
		uint32_t *ino, int remove, char *found);
/* Forget what the engine knew of dir's entries (call after changing them
 * other than through eng_dir_add / eng_dir_find). */
void eng_dir_forget(struct f2_engine *w, uint32_t dir);
int eng_dir_init(struct f2_engine *w, struct eng_blk *inode, uint32_t parent);
/* eng_dir_init with the entries in dentry block 0 instead of inline (the
 * driver refuses a root whose i_blocks counts its inode alone). */
int eng_dir_init_block(struct f2_engine *w, struct eng_blk *inode, uint32_t parent);
int eng_dir_is_empty(struct f2_engine *w, uint32_t dir);
uint8_t eng_ftype(uint16_t mode);

#endif /* F2_ENGINE_INTERNAL_H */
