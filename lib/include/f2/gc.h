/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/gc.h - cleaning (garbage collection) knowledge of the engine: which
 * sections to clean, in which order, at what cost, and who owns each
 * valid block of a victim.  Everything here only reads (f2/fs.h); moving
 * blocks belongs to the write engine.
 *
 * A section is segs_per_sec segments.  f2_gc_map_build() reads the SIT
 * once and keeps one small record per section (O(sections) memory: 24
 * bytes each, 12 MiB for a 1 TiB volume of 2 MiB sections).  The costs
 * follow the Linux 6.1 driver's victim selection:
 *   greedy        cost = valid blocks of the section (on-demand cleaning)
 *   cost-benefit  u   = (valid / segs_per_sec) * 100 / 512 (percent),
 *                 age = 100 - 100 * (mtime - min) / (max - min), 0 if
 *                       max == min, where mtime is the average SIT mtime of
 *                       the section's segments, min the smallest such
 *                       average over the volume and max the larger of the
 *                       largest and the checkpoint's elapsed time,
 *                 cost = UINT32_MAX - 100 * (100 - u) * age / (100 + u)
 *                 (background cleaning: old, empty sections first).
 * The lower cost wins; ties go to the lower section number.  Candidates
 * are sections that are neither free, nor full, nor hold a current
 * segment (the driver never cleans those either).
 */
#ifndef F2_GC_H
#define F2_GC_H
#include <stddef.h>
#include <stdint.h>
#include "f2/fs.h"

enum f2_gc_policy {
	F2_GC_GREEDY = 0,
	F2_GC_COST_BENEFIT = 1,
};

enum f2_gc_sec_state {
	F2_GC_SEC_FREE = 0,	/* no valid block, no current segment */
	F2_GC_SEC_DIRTY = 1,	/* partly valid: a candidate */
	F2_GC_SEC_FULL = 2,	/* every block valid: nothing to gain */
	F2_GC_SEC_CURRENT = 3,	/* holds a current segment: never a victim */
};

/* One section, from the SIT. */
struct f2_gc_sec {
	uint64_t mtime;		/* average SIT mtime of its segments */
	uint32_t valid;		/* valid blocks */
	uint32_t valid_node;	/* of which in node segments */
	uint8_t state;		/* enum f2_gc_sec_state */
	uint8_t pad[7];
};

/* A log as the checkpoint left it. */
struct f2_gc_log {
	uint32_t segno;
	uint16_t blkoff;
	uint8_t ssr;		/* filling a partly valid segment (F2_SSR) */
	uint16_t ssr_room;	/* its free slots at or after blkoff */
};

struct f2_gc_map {
	uint32_t nsecs, segs_per_sec, blocks_per_sec;
	uint64_t min_mtime, max_mtime;	/* cost-benefit age bounds */
	uint32_t count[4];		/* sections in each enum f2_gc_sec_state */
	uint64_t valid_blocks;		/* over the main area */
	struct f2_gc_sec *secs;		/* nsecs records */
	/* for the prediction of where moved blocks go (gc/predict.c) */
	uint32_t nsegs, free_segs;	/* main segments; free ones (no valid
					 * block, not current) */
	uint32_t rsvd_secs;		/* the checkpoint's reserved sections */
	uint8_t lfs_only;		/* zoned or read-only: never SSR */
	uint16_t *seg_valid;		/* per segment: valid blocks */
	uint8_t *seg_type;		/* per segment: SIT type */
	struct f2_gc_log log[F2_NR_CURSEG];
};

/* Read the SIT of fs (opened with a checkpoint) into m. */
int f2_gc_map_build(struct f2_fs *fs, struct f2_gc_map *m);
void f2_gc_map_free(struct f2_gc_map *m);

/* Cost of section secno under policy (lower = cleaned first). */
uint32_t f2_gc_cost(const struct f2_gc_map *m, uint32_t secno, enum f2_gc_policy policy);
/* Utilisation of a section in percent, rounded down (0..100). */
static inline uint32_t f2_gc_util(const struct f2_gc_map *m, uint32_t secno)
{
	return (uint32_t)((uint64_t)m->secs[secno].valid * 100 / m->blocks_per_sec);
}

/* ---- planning ------------------------------------------------------------ */
/* Sections cleaned between a run's checkpoints by default: each
 * checkpoint waits for the device twice, and a run also commits when the
 * free sections run short (so a shorter interval buys only less work
 * lost to a crash, never consistency); this bounds the engine's dirty
 * state instead (512 MiB of moves with 2 MiB sections). */
#define F2_GC_CP_EVERY 256
/* On zoned volumes: with 256, a run's checkpoint flush failed with an
 * I/O error on a ZNS namespace in QEMU (tests/gc/zoned.bats; the moved
 * blocks reach the zones through the page cache, the cause not yet
 * pinned down); 32 has always passed there. */
#define F2_GC_CP_EVERY_ZONED 32
/* What to clean for: any combination; with none set, every candidate. */
struct f2_gc_target {
	enum f2_gc_policy policy;
	int alloc;		/* enum f2_alloc_mode (f2/engine.h) of the run */
	uint32_t cp_every;	/* sections between the run's checkpoints (0:
				 * F2_GC_CP_EVERY) */
	uint32_t free_secs;	/* stop when this many sections are free (0: unset) */
	int util_set;		/* stop when the used sections are util_pct full on average */
	uint32_t util_pct;
	uint32_t max_secs;	/* clean at most this many sections (0: no limit) */
};

struct f2_gc_victim {
	uint32_t secno;
	uint32_t valid;		/* blocks to move */
	uint32_t cost;		/* under the plan's policy */
};

/* Utilisation histogram of the sections that hold no current segment:
 * bucket 0 = free (0%), 1..10 = (0,10] .. (90,100) percent (a partly valid
 * section is never in bucket 11), 11 = full. */
#define F2_GC_HIST 12

struct f2_gc_plan {
	uint32_t nvictims;
	struct f2_gc_victim *v;		/* in cleaning order: the victims, then
					 * the other candidates (ncand in all) */
	uint32_t ncand;
	uint64_t blocks_moved;		/* valid blocks of the victims */
	uint64_t node_blocks_moved;	/* of which node blocks */
	uint32_t free_before;		/* free sections now */
	uint32_t free_after;		/* predicted: victims freed, minus the
					 * sections the moved blocks fill */
	uint32_t secs_filled;		/* free sections the logs take */
	uint32_t ssr_segs;		/* partly valid segments that take moved
					 * blocks (SSR) */
	uint64_t ssr_blocks;		/* blocks written into them */
	int reached;			/* the target is met after the plan */
	uint32_t hist_before[F2_GC_HIST], hist_after[F2_GC_HIST];
};

/*
 * Choose the victims for t: the fewest candidates, in cost order, after
 * which the predicted state meets the target (max_secs allows).  The
 * prediction (f2_gc_predict) follows the run: data blocks go to the cold
 * data log, node blocks to the node log of their segment's type, each log
 * filling what is left of its segment, then taking a free section (LFS)
 * or a partly valid segment that is no victim (SSR, chosen as the engine
 * chooses), with the run's checkpoints in between, which free the victims
 * cleaned so far and roll every full log.  p is filled (free with
 * f2_gc_plan_free); returns 0 or a negative code (-ENOMEM).
 */
int f2_gc_plan(const struct f2_gc_map *m, const struct f2_gc_target *t, struct f2_gc_plan *p);
void f2_gc_plan_free(struct f2_gc_plan *p);
/*
 * Predict cleaning v[0..n) under t's allocation mode and checkpoint
 * interval: fills p's free_after, secs_filled, ssr_segs, ssr_blocks,
 * blocks_moved, node_blocks_moved and hist_after (v and nvictims are not
 * touched); *done (may be NULL) gets the victims cleaned before free
 * space ran out, as the run stops.  The owner nodes that moving data
 * rewrites are not counted.  0 or -ENOMEM.
 */
int f2_gc_predict(const struct f2_gc_map *m, const struct f2_gc_target *t,
		  const struct f2_gc_victim *v, uint32_t n, struct f2_gc_plan *p, uint32_t *done);
/* Bucket of a utilisation (valid of blocks_per_sec) in the histogram. */
unsigned f2_gc_hist_bucket(uint32_t valid, uint32_t blocks_per_sec);

/* ---- owners of valid blocks ------------------------------------------------ */
enum f2_gc_owner {
	F2_GC_ALIVE = 0,	/* the owner points at this block: move it */
	F2_GC_STALE = 1,	/* the owner has moved on (SIT not yet updated) */
	F2_GC_BAD = 2,		/* the owner cannot be read or is inconsistent */
};

/* A valid block of a victim and what its owner says about it. */
struct f2_gc_block {
	uint64_t blkaddr;
	uint32_t segno;
	uint16_t off;		/* block in the segment */
	uint8_t is_node;	/* node segment (SSA footer) */
	uint8_t owner;		/* enum f2_gc_owner */
	uint32_t nid;		/* SSA: owner node (data) or the node itself */
	uint16_t ofs_in_node;	/* SSA: address slot in the owner (data) */
	uint8_t version;	/* SSA: NAT version of the owner (data) */
	uint32_t ino;		/* owner inode (0 if unknown) */
	char why[F2_WHY_LEN + 48];		/* reason when not F2_GC_ALIVE */
};

/* The last owner node read, kept between calls (zero it before first use). */
struct f2_gc_cache {
	uint32_t nid;		/* 0: empty */
	int err;		/* the read failed: why holds the reason */
	struct f2_nat_info ni;
	uint32_t base, naddrs;	/* address slots: first index and count */
	struct f2_node node;
	char why[F2_WHY_LEN + 48];
};

/*
 * Check the owner of the valid block at blkaddr (e: its summary entry,
 * is_node: the summary footer says node segment).  Data: the owner node's
 * NAT version equals the summary's and its address slot ofs_in_node holds
 * blkaddr.  Node: the NAT entry of nid holds blkaddr and the block's
 * footer names nid.  cache (may be NULL) keeps the last owner node, so
 * runs of blocks of one owner read it once.  Fills b; returns 0 whatever
 * the verdict, or a negative code for an I/O error.
 */
int f2_gc_owner_check(struct f2_fs *fs, uint64_t blkaddr, const struct f2_summary *e,
		      int is_node, struct f2_gc_cache *cache, struct f2_gc_block *b);

/*
 * Call fn for every valid block of section secno (SIT bitmap order), with
 * its owner checked.  A non-zero return from fn stops the walk and is
 * returned.
 */
int f2_gc_section_blocks(struct f2_fs *fs, const struct f2_gc_map *m, uint32_t secno,
			 int (*fn)(void *ctx, const struct f2_gc_block *b), void *ctx);

/* ---- moving (through the write engine, f2/engine.h) ---------------------- */
struct f2_engine;
struct f2_io;

struct f2_gc_move_stats {
	uint64_t data_moved;	/* data blocks copied to the cold data log */
	uint64_t node_moved;	/* node blocks marked for rewriting */
	uint64_t nodes_dirtied;	/* node writes caused (moved nodes and owners
				 * of moved data, each time one turns dirty) */
	uint64_t skipped;	/* valid in the SIT but the owner disagrees */
};

/*
 * Move every valid block of section secno whose owner points at it:
 * a data block is copied to a new block of the cold data log, its owner's
 * address slot and the SIT/SSA updated (the owner node turns dirty); a node
 * block is marked dirty, so the engine's write-back puts it in its node log
 * and updates the NAT.  The section must not hold a current segment of w.
 * Nothing is committed until f2_engine_checkpoint(); until then the old
 * blocks stay where they were (the engine never reuses a segment before a
 * checkpoint frees it).  st accumulates.
 */
int f2_gc_move_section(struct f2_engine *w, uint32_t secno, struct f2_gc_move_stats *st);

/*
 * defrag.f2fs's range move: every valid block of [start, start+len) whose
 * owner points at it goes to the free sections nearest target that lie
 * wholly at or after it (left: wholly at or before it), never into a
 * section the range touches: data to the data log of its segment's temperature, nodes
 * through the node logs (NAT updated).  The logs that receive blocks, and
 * those whose current segment lies in the range, first take a new section
 * there; the placement stays on for w's later allocations (so the
 * checkpoint's write-back lands there too).  F2_ENOSPC when the free
 * sections on that side run out.  Nothing is committed until
 * f2_gc_checkpoint().
 */
int f2_gc_move_range(struct f2_engine *w, uint64_t start, uint64_t len, uint64_t target, int left,
		     struct f2_gc_move_stats *st);

/* Confine the sections later range moves (and w's allocations while the
 * placement is on) take to those wholly inside blocks [lo, hi). */
void f2_gc_move_bounds(struct f2_engine *w, uint64_t lo, uint64_t hi);

/* Commit the moves: every log whose segment the moves filled gets its next
 * segment first (a checkpoint must never record blkoff 512), then
 * f2_engine_checkpoint(), then (zoned volumes) f2_engine_zone_reset_free(). */
int f2_gc_checkpoint(struct f2_engine *w);

/*
 * Rewrite every data block of regular file ino, in file order, to the
 * cold data log, so that its data becomes contiguous as far as the free
 * sections allow (defrag.f2fs --file).  Compressed files are refused
 * (F2_EUNSUPP).  Not committed until f2_engine_checkpoint().
 */
int f2_gc_move_file(struct f2_engine *w, uint32_t ino, struct f2_gc_move_stats *st);

#endif /* F2_GC_H */
