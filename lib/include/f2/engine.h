/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/engine.h - the write engine: changing an opened file system
 * (f2/fs.h) log-structured, committed only by a checkpoint.
 *
 * struct f2_engine wraps a struct f2_fs opened on a read-write I/O stack
 * (f2_io_open(path, F2_IO_RDWR, &io); f2_fs_open_io(io, ...)).  It keeps
 * the write-side state: the six current segments and a free-segment
 * bitmap (one bit per segment, the only memory that grows with the
 * volume), dirty NAT and SIT entries, a cache of node blocks and directory
 * blocks written back on demand, and the orphan list.
 *
 * Every new node or data block goes to free space (the current segment of
 * its log, or a free segment from a free section); NAT and SIT changes go
 * to the checkpoint journals or to the other NAT/SIT copy with the version
 * bitmap flipped.  f2_engine_checkpoint() writes the other checkpoint pack,
 * body first, then after a flush its head and tail: until then the
 * previous checkpoint describes the volume exactly as it was, so a crash
 * at any write leaves the old state or the new one.
 *
 * Inodes are created as the Linux 6.1 driver creates them (extra attribute
 * area, inline xattrs, inline data for small files and symlinks, inline
 * dentries for small directories, converted to the multi-level hash table
 * when full).  Casefolded directories (F2_CASEFOLD_FL, casefold feature)
 * hash and match names by their fold (f2/casefold.h) as the kernel does:
 * a name folding like an existing entry is -EEXIST, one a strict volume
 * refuses is -EINVAL, a lookup the hash misses scans the directory; a new
 * directory inherits the flag from its parent (other files do not, as
 * f2fs_mask_flags).  Encrypted directories are refused.
 *
 * Every call returns 0 (or a count) or a negative code from f2/errors.h;
 * f2_engine_why() then names the structure.  Not thread safe.
 */
#ifndef F2_ENGINE_H
#define F2_ENGINE_H
#include <stdint.h>
#include <stddef.h>
#include "f2/fs.h"

struct f2_engine;

struct f2_engine_opts {
	size_t cache_blocks;	/* node + dentry blocks kept before write-back
				 * (0: 16384, 64 MiB) */
	uint64_t mtime;		/* SIT segment mtime; 0: the cp's elapsed_time */
	int orphans_given;	/* start with an empty orphan list, not the pack's
				 * (a checker adds the ones it verified) */
	int repairing;		/* a checker that rewrites the SIT: a segment
				 * counting more than 512 valid blocks is
				 * taken as in use instead of refused */
};

/* Attributes of a new inode. */
struct f2_wattr {
	uint16_t mode;		/* file type and permissions (S_IF*) */
	uint32_t uid, gid;
	uint64_t atime, mtime, ctime, crtime;	/* seconds */
	uint32_t atime_ns, mtime_ns, ctime_ns, crtime_ns;
	uint64_t rdev;		/* device numbers: major << 32 | minor */
	uint32_t flags;		/* i_flags */
	uint32_t generation;
};

/* Open the engine on fs (which must have a checkpoint and an io that
 * accepts writes).  fs stays owned by the caller and must outlive w. */
int f2_engine_open(struct f2_fs *fs, const struct f2_engine_opts *o, struct f2_engine **out);
/* Free w; uncommitted changes are dropped (the disk keeps the last cp). */
void f2_engine_close(struct f2_engine *w);
/* The reason for the last failure. */
const char *f2_engine_why(const struct f2_engine *w);
struct f2_fs *f2_engine_fs(struct f2_engine *w);

/* Write back every cached block, then commit a checkpoint (umount flag). */
int f2_engine_checkpoint(struct f2_engine *w);
/* Flags of the next checkpoints: the engine always sets UMOUNT and
 * computes COMPACT_SUM, ORPHAN_PRESENT and NAT_BITS; it carries over
 * LARGE_NAT_BITMAP, the CRC_RECOVERY flags and the "needs checking"
 * flags FSCK, ERROR and QUOTA_NEED_FSCK, which a repair clears here. */
void f2_engine_cp_flags(struct f2_engine *w, uint32_t set, uint32_t clear);
/* Write back cached blocks without committing (bounds memory). */
int f2_engine_writeback(struct f2_engine *w);

/* ---- namespace ---------------------------------------------------------- */
/* Create name in directory dir with attributes a; *ino gets the new inode.
 * Directories get "." and ".."; -EEXIST if name is there. */
int f2_engine_create(struct f2_engine *w, uint32_t dir, const char *name, size_t len,
		  const struct f2_wattr *a, uint32_t *ino);
/* A regular file no directory names (a quota file: the superblock does),
 * data in blocks; *ino gets it.  The caller makes something reference it
 * before the next checkpoint matters. */
int f2_engine_create_unnamed(struct f2_engine *w, uint32_t parent, const struct f2_wattr *a,
			     uint32_t *ino);
/* Add a hard link name -> ino (not a directory) in dir. */
int f2_engine_link(struct f2_engine *w, uint32_t dir, const char *name, size_t len, uint32_t ino);
/* Remove name from dir; the inode is deleted when its last link goes
 * (a directory must be empty: -ENOTEMPTY). */
int f2_engine_unlink(struct f2_engine *w, uint32_t dir, const char *name, size_t len);
/* Look name up in dir (the engine's view, uncommitted changes included). */
int f2_engine_lookup(struct f2_engine *w, uint32_t dir, const char *name, size_t len,
		  uint32_t *ino);
/* Make directory dir casefolded (F2_CASEFOLD_FL; the volume needs the
 * casefold feature).  The kernel wants it empty; the engine also takes
 * entries that casefolding leaves as they are (names that are their own
 * fold, with that hash: lost+found), else -ENOTEMPTY.  F2_CASEFOLD_FL in
 * f2_wattr.flags does the same for a new directory. */
int f2_engine_casefold_dir(struct f2_engine *w, uint32_t dir);
/* Set permissions (mode & 07777), owner and times of ino from a. */
int f2_engine_setattr(struct f2_engine *w, uint32_t ino, const struct f2_wattr *a);
/* Symlink: create + the target as its data. */
int f2_engine_symlink(struct f2_engine *w, uint32_t dir, const char *name, size_t len,
		   const struct f2_wattr *a, const char *target, uint32_t *ino);

/* ---- file contents ------------------------------------------------------- */
/* Write len bytes at off (size grows; unwritten ranges stay holes). */
int f2_engine_write(struct f2_engine *w, uint32_t ino, uint64_t off, const void *buf, size_t len);
/* Set i_size (truncating frees blocks past it; growing leaves a hole). */
int f2_engine_truncate(struct f2_engine *w, uint32_t ino, uint64_t size);
/* Set an xattr (index enum f2_xattr_index, name without its prefix);
 * replaces an existing one.  F2_ERANGE when the areas are full. */
int f2_engine_setxattr(struct f2_engine *w, uint32_t ino, uint8_t index, const char *name,
		    size_t nlen, const void *value, size_t vlen);
/* Map a full xattr name ("user.x", "security.selinux") to index + suffix;
 * returns 0 or F2_EUNSUPP for names the format cannot hold. */
int f2_xattr_split(const char *full, uint8_t *index, const char **suffix);

/* ---- compressed files ------------------------------------------------------
 * Laid out as Linux writes them: a cluster of 2^log_cluster blocks that
 * compresses well enough is stored as COMPRESS_ADDR in its first slot,
 * the compressed bytes (a 24-byte header: length, checksum, 4 reserved
 * words; then the coder's output) in the next slots, and NEW_ADDR
 * reservations in the rest, counted in i_blocks and the valid blocks
 * (i_compr_blocks adds cluster size less data blocks per cluster).
 * Clusters that are not full or do not save enough are stored plain. */
struct f2_compress_opts {
	uint8_t algo;		/* enum f2_compress_algo with an encoder
				 * (f2_compress_supported) */
	uint8_t log_cluster;	/* F2_MIN_CLUSTER_LOG .. F2_MAX_CLUSTER_LOG */
	uint8_t chksum;		/* checksum each cluster (i_compress_flag bit 0) */
	uint8_t release;	/* no reservations: the state the kernel's
				 * F2FS_IOC_RELEASE_COMPRESS_BLOCKS leaves
				 * (F2_COMPRESS_RELEASED; Linux then refuses
				 * writes to the file) */
	int level;		/* coder level (not stored): zstd's (0: 1),
				 * lz4 > 0: the lz4hc coder */
	uint32_t min_saved;	/* blocks a cluster must save (0: 1, the least) */
};
/* Make the empty regular file ino compressed with c; writes to it then
 * follow the layout above (a write covering a whole cluster compresses
 * it; a partial write into a compressed cluster is F2_EUNSUPP).  The
 * coder level and min_saved of the last call apply to every compressed
 * file w writes.  F2_EUNSUPP without the compression and extra_attr
 * features or an encoder for c->algo; F2_EBADOPT for a bad cluster size. */
int f2_engine_set_compress(struct f2_engine *w, uint32_t ino, const struct f2_compress_opts *c);

/* ---- orphans ---------------------------------------------------------- */
int f2_engine_orphan_add(struct f2_engine *w, uint32_t ino);
int f2_engine_orphan_del(struct f2_engine *w, uint32_t ino);
/* Delete an inode and everything it owns (its links are not looked at). */
int f2_engine_delete_inode(struct f2_engine *w, uint32_t ino);

/* ---- quota ----------------------------------------------------------------- */
/* With the quota feature: rewrite the quota files from every inode the
 * NAT names (charged as the kernel charges them; limits, grace times and
 * flags kept from files that parse) and clear CP_QUOTA_NEED_FSCK for the
 * next checkpoint.  Reads go through w's f2_fs: call it before w writes
 * anything, on a volume opened after the writer's checkpoint. */
int f2_engine_quota_recount(struct f2_engine *w);

/* ---- allocation: LFS or slack space recycling ------------------------------
 * A log whose segment is full takes a new one.  LFS (the default): a free
 * segment.  SSR: a partly valid segment, chosen as the Linux 6.1 driver's
 * get_ssr_segment chooses (fewest blocks valid at the last checkpoint
 * among the segments of the log's type, then of the other types of its
 * class, coldest first for warm and cold logs; ties: the lower segment),
 * then filled slot by slot.  A slot is used only if it is free now and
 * was free at the last checkpoint, so a crash before the next checkpoint
 * finds every block the last one references intact.  Never a segment of
 * a section holding a current segment or marked with
 * f2_engine_alloc_avoid(); with none left, a free segment.  AUTO: SSR
 * when the driver's need_SSR holds (free sections <= dirty node sections
 * + 2 x dirty dentry sections + 2 x reserved sections), else LFS.  Set the
 * mode right after opening; a log the checkpoint left in SSR mode then
 * goes on filling its segment (LFS: it takes a free one). */
enum f2_alloc_mode {
	F2_ALLOC_LFS = 0,
	F2_ALLOC_SSR = 1,
	F2_ALLOC_AUTO = 2,
};
/* F2_EUNSUPP for SSR on a zoned or read-only volume (the driver writes
 * those log-structured only); AUTO there is LFS. */
int f2_engine_set_alloc(struct f2_engine *w, enum f2_alloc_mode mode);
/* Section secno never receives SSR writes (a victim being cleaned). */
int f2_engine_alloc_avoid(struct f2_engine *w, uint32_t secno);

/* ---- counters ------------------------------------------------------------ */
struct f2_engine_stats {
	uint64_t valid_blocks, user_blocks;
	uint32_t valid_nodes, valid_inodes, free_segs;
	uint32_t segs_in_use_end;	/* main segments up to the last one not free */
	uint64_t cp_ver;
	uint64_t new_segs;		/* free segments the logs took */
	uint64_t ssr_segs;		/* partly valid segments the logs took (SSR) */
	uint64_t ssr_blocks;		/* blocks written into them */
	uint32_t free_secs;		/* sections whose segments are all free */
};
void f2_engine_stats(const struct f2_engine *w, struct f2_engine_stats *st);

/* ---- zoned volumes --------------------------------------------------------- */
/*
 * Open the write engine on fs, zones attached (path: fs's first device).  On
 * a zoned volume (mkfs -m) the zoned devices are opened for zone resets
 * and checked (zones the size of a section, capacity the zone size: a
 * smaller capacity is F2_EUNSUPP); then every log starts its writes in a
 * new section whose zone is reset unless empty, and f2_gc_checkpoint()
 * resets the zones of the sections the checkpoint left free.  Other
 * volumes: f2_engine_open().  0, or a negative code with why filled.
 */
int f2_engine_open_zoned(struct f2_fs *fs, const char *path, struct f2_engine **out,
			 char *why, size_t len);
/* Reset the zones of every free section not empty (zoned volumes; 0
 * elsewhere); *nreset (may be NULL) counts the zones reset.  Call only
 * with the checkpoint that freed them on disk. */
int f2_engine_zone_reset_free(struct f2_engine *w, uint64_t *nreset);
/* Zones w has reset so far (when opening sections and after checkpoints). */
uint64_t f2_engine_zones_reset(const struct f2_engine *w);

#endif /* F2_ENGINE_H */
