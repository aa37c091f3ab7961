/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck.h - the state of one fsck.f2fs run, shared by the phases.
 * Nothing here is global: main() owns one struct fsck_ctx and passes it.
 */
#ifndef FSCK_FSCK_H
#define FSCK_FSCK_H
#include <stdint.h>
#include <stdio.h>
#include "f2/fs.h"
#include "inomap.h"
#include "options.h"
#include "readahead.h"
#include "repair.h"
#include "sbitmap.h"

struct finding {
	uint32_t code;
	int fixed;		/* 1 repaired, 0 left */
	char *text;
};

#define SSA_CACHE	8
#define FSCK_MAX_PHASES	16	/* phases timed for --json (main.c has 13) */

struct fsck_ctx {
	struct fsck_opts opts;
	struct f2_fs *fs;
	struct f2_io *rw;		/* the device opened for writing, or NULL */
	FILE *out;			/* human messages (stdout, or stderr with --json) */

	/* decisions and results */
	int yes_to_all;			/* interactive 'a' answer */
	int canceled;			/* interactive 'q' answer */
	unsigned errors_left, errors_fixed, warnings;
	int fatal;			/* a PF_FATAL problem: stop after this phase */
	struct finding *findings;
	unsigned nfindings, cap_findings;
	/* wall time of each phase run (for --json), in run order */
	struct phase_time { const char *name; double seconds; } times[FSCK_MAX_PHASES];
	unsigned ntimes;

	/* maps built by the phases */
	uint16_t *seg_vblocks;		/* per main segment, from the SIT */
	uint8_t *seg_type;		/* per main segment, from the SIT */
	uint8_t *seg_unusable;		/* fsck_unusable_segs(), or NULL */
	struct sbitmap sit_valid;	/* main-area blocks valid in the SIT */
	struct sbitmap nat_used;	/* nids with a NAT entry in use */
	struct sbitmap nat_blocks;	/* main-area blocks named by NAT entries */
	struct sbitmap nid_reached;	/* nids reached by the tree walk */
	struct sbitmap blk_claimed;	/* main-area blocks reached by the walk */
	struct inomap inodes;
	uint64_t sit_total_valid;
	int sit_blocks_bad;		/* a SIT block entry under the journal is bad */
	uint8_t *nat_bits;		/* full then empty bits (lsb order), or NULL */
	uint32_t nat_bits_bytes;	/* size of each of the two maps */
	int prog_last;			/* last progress percentage printed */

	/* counts from the walk */
	uint64_t nodes_found, inodes_found, blocks_found;
	uint64_t reserved_found;	/* of blocks_found: NEW_ADDR and cluster heads */
	uint32_t free_segs_found;	/* from the SIT */
	const char *no_repair;		/* set: fix_problem leaves fixes, saying why */
	int rerun;			/* repairs deferred to a check of the repaired volume */
	int flag_cleared;		/* CP_FSCK cleared after a clean full check */
	unsigned orphans;		/* verified inodes on the orphan list */
	uint32_t *orphan_inos;		/* them, in list order (a repair writes these) */
	int cp_fallback;		/* the newest cp pack is damaged: an older one is used */
	int cp_head_bad[2];		/* pack committed, its head damaged (cp_head.c) */
	int rf_waiting;			/* a roll-forward chain is left: a checkpoint would lose it */
	int rf_done;			/* roll-forward recovered files: check everything */
	int rescued;			/* the checkpoint was rebuilt (rescue.c): check everything */
	uint32_t newer_inodes, newer_ver;	/* inodes the walk read that a newer
					 * checkpoint wrote (pass_tree.c), the newest */
	int stop;			/* lost metadata found (rescue.c): the later phases
					 * would check a NAT known to be incomplete */
	int cannot_check;		/* a feature changes what the check reads */
	int clear_records;		/* clear the kernel's records (pass_sb_records) */
	int mounted_ro;			/* mounted read-only: repairs go under the mount,
					 * no roll-forward (main.c) */
	int probe;			/* -p under a read-only mount, first pass
					 * (main.c): nothing written; the fixes -p
					 * would make are counted... */
	unsigned probe_safe;		/* ...here, not in errors_left */

	/* SSA block cache */
	uint32_t ssa_segno[SSA_CACHE];
	struct f2_summary_block *ssa_blk;
	unsigned ssa_next;

	/* read-ahead windows of the walk: node blocks, data (dentry) blocks */
	struct ra_window ra_node, ra_data;

	/* structural repairs recorded for pass_repair (repair.h) */
	struct rep_act *acts;
	unsigned nacts, cap_acts;
	struct sbitmap nat_cleared;	/* NAT entries the repair frees */
	struct { uint32_t nid, ino, blkaddr; } *nat_inos;	/* entries re-owned
						 * (and re-pointed when blkaddr) */
	unsigned nnat_inos;
	struct { uint32_t nid, ino; } *lost;	/* freed as bad, node searched (relocate.c) */
	struct owned { uint32_t ino, nid; } *owned;	/* non-inode nodes by owner, sorted:
						 * built at the first bad pointer (pass_tree.c) */
	uint32_t nowned;
	int owned_built;
	unsigned nlost;
	uint32_t lf_ino;		/* "lost+found" in the root, or 0 */
	int root_new;			/* the repair makes a new root (RA_ROOT_NEW) */
	unsigned reconnected;		/* inodes to name in lost+found */

};

/* Phases, in order (see each file's opening comment). */
int pass_sb(struct fsck_ctx *ctx);
int pass_cp(struct fsck_ctx *ctx);
/* A committed pack with a damaged head: report it, -y rewrites the head
 * from its tail (*rewritten: reopen the volume).  cp_head.c */
int cp_head_check(struct fsck_ctx *ctx, int *rewritten);
/* Lost metadata rebuilt from the main area (rescue.c): no checkpoint
 * (at open; 0 once rebuilt and reopened, else the exit code), lost NAT
 * entries (the phase after the checkpoint's). */
int rescue_cp(struct fsck_ctx *ctx);
/* Both superblock copies lost (rescue_sb.c, at open): 0 once both are
 * rewritten (open the volume again), else the exit code. */
int rescue_sb(struct fsck_ctx *ctx, int may_write);
int pass_rescue(struct fsck_ctx *ctx);
int pass_rescue_stale(struct fsck_ctx *ctx);	/* after the walk: a stale checkpoint */
int pass_sit_load(struct fsck_ctx *ctx);
/* Per main segment, 1 where a zoned device's zone capacity leaves no
 * block (fsck/zonecap.c); NULL when no device is host-managed. */
uint8_t *fsck_unusable_segs(const struct fsck_ctx *ctx);
/* Segment s counts free as the kernel counts it: no valid block (from
 * the SIT), not a current segment, usable (pass_sit_load done). */
int fsck_seg_free(const struct fsck_ctx *ctx, uint32_t s);
int pass_nat_scan(struct fsck_ctx *ctx);
int pass_tree(struct fsck_ctx *ctx);
int pass_nat_unreachable(struct fsck_ctx *ctx);
int pass_sit_compare(struct fsck_ctx *ctx);
int pass_counts(struct fsck_ctx *ctx);
/* Segments the checkpoint's free count may fall short of the SIT's by
 * (fsck/cp_free.c): 0 unless it was written with checkpointing disabled. */
uint32_t fsck_cp_free_slack(const struct fsck_ctx *ctx);
int pass_repair(struct fsck_ctx *ctx);
int pass_quota(struct fsck_ctx *ctx);	/* pass_quota.c */
int pass_sb_records(struct fsck_ctx *ctx);	/* pass_sb.c */

/* Checkpoint counters for repair_cp_counters() (repair_cp.c). */
struct cp_counts {
	uint64_t valid_blocks;
	uint32_t valid_nodes, valid_inodes, free_segs;
};
int repair_cp_counters(struct fsck_ctx *ctx, const struct cp_counts *c);
/* A checkpoint without CP_FSCK when the volume (as repaired) has it;
 * 0, or the error (said on ctx->out).  repair_cp.c */
int cp_clear_fsck(struct fsck_ctx *ctx);
/* The GC reserve and overprovision counts are possible (cp_reserve.c). */
int cp_reserve_ok(const struct f2_fs *fs, uint32_t rsvd, uint32_t ovp);
/* Report the checkpoint's when they are not; an accepted fix records
 * the counts chosen (RA_CP_RESERVE), *ovp becomes the new one. */
int cp_reserve_check(struct fsck_ctx *ctx, uint32_t *ovp);

/* Shared helpers. */
/* Block index in the main area, or -1 when blkaddr is outside. */
static inline int64_t main_idx(const struct fsck_ctx *ctx, uint64_t blkaddr)
{
	if (!f2_fs_in_main(ctx->fs, blkaddr))
		return -1;
	return (int64_t)(blkaddr - ctx->fs->main_blkaddr);
}
/* The SSA entry for blkaddr (cached per segment); NULL after reporting. */
const struct f2_summary *ssa_entry(struct fsck_ctx *ctx, uint32_t blkaddr);
void ssa_free(struct fsck_ctx *ctx);
void progress(struct fsck_ctx *ctx, const char *phase, uint64_t done, uint64_t total);
void vmsg(struct fsck_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
