/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/rescue.h - rebuilding lost metadata from the main area (fsck.f2fs's
 * last resort when a whole checkpoint area or NAT blocks are gone).
 *
 * f2_rescue_scan() reads every main-area block (but the holes of a sparse
 * image and the segments the caller rules out) and keeps the ones that
 * are node blocks: a footer that names a nid and an owner in range, an
 * inode whose mode, sizes and extra area parse (and whose checksum holds
 * with inode_checksum), a node offset an inode's tree can have.  For
 * every nid the newest version wins (highest checkpoint version, low 32
 * bits: the high ones hold a crc under CP_CRC_RECOVERY; within one
 * version the block the caller's hint names, else the later block of the
 * log).  Then only nodes whose tree hangs together are kept: an inode,
 * or a node its owner's inode reaches through i_nid, i_xattr_nid and
 * indirect nodes, each at the node offset its place implies, all of the
 * same owner.  The data blocks the kept nodes address (inside main) are
 * counted and mapped.  Nothing is written.
 *
 * f2_rescue_rebuild() writes what was lost through the write engine,
 * the checkpoint last (f2/repair.h, f2/cp_pack.h): NAT entries of the
 * kept nodes (and free ones for the rest), the SIT from the blocks in
 * use, the current segments, counters; with F2_RESCUE_CP a volume with no
 * checkpoint is opened on a pack built in memory (f2_io_open_overlay),
 * never written, so until the engine's checkpoint commits, the disk still
 * holds the damaged volume.  Directory entries, link counts, summaries
 * and lost+found are the checker's next pass over the rebuilt volume.
 */
#ifndef F2_RESCUE_H
#define F2_RESCUE_H
#include <stddef.h>
#include <stdint.h>
#include "f2/format.h"
#include "f2/fs.h"

struct f2_io;
struct f2_rescue;

struct f2_rescue_opts {
	/* Nodes whose checkpoint version (low 32 bits) is above this are
	 * ignored (written after a surviving checkpoint); 0: no bound. */
	uint64_t max_ver;
	/* With a surviving, trusted SIT: 1 when blkaddr is valid in it.
	 * hint_required: a node block it refuses is never kept (a stale
	 * version); else it only breaks ties within one version. */
	int (*hint)(void *arg, uint32_t nid, uint32_t blkaddr);
	void *hint_arg;
	int hint_required;
	/* With it, the kept inodes are walked from the root through their
	 * directories' entries; an inode none names is left out (with its
	 * nodes) when stale(arg, ino, blkaddr) says its block is no longer
	 * the inode's (a file deleted before the loss), else kept for the
	 * checker to reconnect. */
	int (*stale)(void *arg, uint32_t ino, uint32_t blkaddr);
	void *stale_arg;
	/* May be NULL: 0 when main segment segno cannot hold a node block
	 * the scan should see (a trusted SIT: no valid node there). */
	int (*segment)(void *arg, uint32_t segno);
	void *segment_arg;
	/* progress, may be NULL: segments done of total */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
};

struct f2_rescue_stats {
	uint64_t blocks_read;		/* main-area blocks scanned */
	uint64_t node_blocks;		/* recognised node blocks, every version */
	uint32_t nids;			/* nids with a newest version */
	uint32_t nodes, inodes;		/* kept: their trees hang together */
	uint32_t files, dirs, others;	/* kept inodes by type */
	uint32_t dropped;		/* newest versions not kept */
	uint32_t unnamed;		/* kept inodes no directory names (with stale) */
	uint32_t stale_inodes;		/* inodes no directory names, left out as stale */
	uint64_t data_blocks;		/* distinct main blocks the kept nodes address */
	uint64_t reserved_blocks;	/* NEW_ADDR slots (counted valid by the kernel) */
	uint64_t max_ver;		/* highest checkpoint version seen */
	uint32_t nid_end;		/* one past the highest kept nid */
};

int f2_rescue_scan(struct f2_fs *fs, const struct f2_rescue_opts *o, struct f2_rescue **out);
void f2_rescue_stats(const struct f2_rescue *r, struct f2_rescue_stats *st);
/* The kept node of nid: 1 with *ino and *blkaddr set, else 0. */
int f2_rescue_node(const struct f2_rescue *r, uint32_t nid, uint32_t *ino, uint32_t *blkaddr);
void f2_rescue_free(struct f2_rescue *r);

#define F2_RESCUE_CP	0x1	/* no checkpoint: build one (implies NAT and SIT) */
#define F2_RESCUE_NAT	0x2	/* every NAT entry from the scan */
#define F2_RESCUE_NAT_FREE 0x4	/* only entries the NAT has free (lost blocks) */
#define F2_RESCUE_SIT	0x8	/* every SIT entry from the scan */

/*
 * Rebuild through io (the writable device the scan's fs describes; with
 * F2_RESCUE_CP fs needs only its superblock).  *changed (may be NULL)
 * counts the NAT entries set.  0, or a negative code with why filled.
 */
int f2_rescue_rebuild(struct f2_rescue *r, struct f2_io *io, unsigned what, uint32_t *changed,
		      char *why, size_t len);
/*
 * Both superblock copies lost (lib/rescue/sb.c): a superblock made from
 * the checkpoint packs that survive at a zone boundary, mkfs's layout for
 * the device size (or the smaller volume the pack's main area implies)
 * and features read from the inodes; verified by opening the volume with
 * it (held in memory: nothing is written).  The label, extension lists,
 * the strict casefold flag, sb_checksum and multi-device, zoned and
 * read-only layouts are not recovered (defaults); the uuid is a new one,
 * the same for the same checkpoint, that keeps the inodes' checksums
 * (their seed solved).  0 with *out, or
 * a negative code with why filled (F2_ENOCP: no pack found).
 */
struct f2_rescue_sb {
	struct f2_super sb;		/* crc set when sb_checksum is on */
	char source[160];		/* "checkpoint pack 1 and the device size (...)" */
	int pack;			/* the pack the volume opened with: 1 or 2 */
	int sit_agrees;			/* the SIT adds up to the pack's valid blocks */
	uint32_t segs_per_sec, secs_per_zone;
	uint32_t inodes;		/* inodes read for the features */
	int csum_seed_solved;		/* inode_checksum: the uuid matches its seed */
};
int f2_rescue_sb(struct f2_io *io, struct f2_rescue_sb *out, char *why, size_t len);
#endif
