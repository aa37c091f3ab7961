// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp_reserve.c - the checkpoint's GC reserve and overprovision counts
 * (rsvd_segment_count, overprov_segment_count).  The kernel refuses a
 * checkpoint whose counts are zero (but on a read-only volume) or whose
 * reserve, with the metadata areas, fills the volume; a reserve above the
 * overprovision, or an overprovision leaving users no segment, describes
 * no volume mkfs makes.  Nothing the walk finds gives them back, and they
 * never change after mkfs, so the repair takes them from the other
 * checkpoint pack when it is valid and its counts fit the geometry, else
 * computes them as mkfs does for this main area (f2_geometry_reserve(),
 * the best ratio), the overprovision then taken from user_block_count
 * when that is whole segments above the reserve (an mkfs -o ratio).
 */
#include <stdio.h>
#include <stdlib.h>
#include "f2/geometry.h"
#include "fsck.h"
#include "problem.h"
#include "repair.h"

int cp_reserve_ok(const struct f2_fs *fs, uint32_t rsvd, uint32_t ovp)
{
	const struct f2_super *sb = &fs->sb;
	uint64_t meta = (uint64_t)f2_le32(sb->segment_count_ckpt) +
			f2_le32(sb->segment_count_sit) + f2_le32(sb->segment_count_nat) +
			f2_le32(sb->segment_count_ssa);

	if (!(fs->features & F2_FEAT_RO) && (!rsvd || !ovp))
		return 0;
	return rsvd <= ovp && ovp < fs->main_segs && meta + rsvd < f2_le32(sb->segment_count);
}

/* The counts of the pack not in use, when it is valid and they fit. */
static int from_other_pack(struct fsck_ctx *ctx, uint32_t *rsvd, uint32_t *ovp)
{
	struct f2_fs *fs = ctx->fs;
	int other = 1 - fs->cp_pack, ok = 0;
	struct f2_cp_pack_info info;
	struct f2_checkpoint *cp;

	if (!fs->packs[other].valid)
		return 0;
	cp = malloc(F2_BLKSIZE);
	if (cp && !f2_cp_check_pack(fs, other, cp, &info) &&
	    cp_reserve_ok(fs, f2_le32(cp->rsvd_segment_count),
			  f2_le32(cp->overprov_segment_count))) {
		*rsvd = f2_le32(cp->rsvd_segment_count);
		*ovp = f2_le32(cp->overprov_segment_count);
		ok = 1;
	}
	free(cp);
	return ok;
}

/*
 * As mkfs computes them (*why says why not, how which were taken): the
 * overprovision from user_block_count when that leaves one possible (mkfs
 * -o gives other ratios), the reserve kept when it fits with it.
 */
static int from_mkfs(struct fsck_ctx *ctx, uint32_t *rsvd, uint32_t *ovp, char *how,
		     size_t len, const char **why)
{
	struct f2_fs *fs = ctx->fs;
	uint32_t spsec = f2_le32(fs->sb.segs_per_sec), cur = *rsvd;
	uint64_t user = f2_le64(fs->cp->user_block_count), usable;
	struct f2_reserve r;
	int by_user = 0;

	if (fs->features & F2_FEAT_BLKZONED) {
		*why = "zoned volume: the usable segments are not known";
		return 0;
	}
	/* every segment past the metadata, as mkfs counts them: a last one
	 * short of a zone too (less than a zone more than the main area) */
	usable = (fs->block_count - fs->main_blkaddr) / F2_BLKS_PER_SEG;
	if (usable < fs->main_segs ||
	    usable >= fs->main_segs + (uint64_t)spsec * f2_le32(fs->sb.secs_per_zone))
		usable = fs->main_segs;
	if (f2_geometry_reserve(fs->main_segs, (uint32_t)usable, fs->main_segs / spsec, 0, &r,
				why))
		return 0;
	*ovp = r.overprov;
	if (user && user % F2_BLKS_PER_SEG == 0 && user / F2_BLKS_PER_SEG < usable) {
		uint32_t o = (uint32_t)(usable - user / F2_BLKS_PER_SEG);

		if (cp_reserve_ok(fs, r.reserved, o) || cp_reserve_ok(fs, cur, o)) {
			by_user = o != r.overprov;
			*ovp = o;
		}
	}
	*rsvd = cp_reserve_ok(fs, cur, *ovp) ? cur : r.reserved;
	if (!cp_reserve_ok(fs, *rsvd, *ovp)) {
		*why = "the geometry leaves no valid reserve";
		return 0;
	}
	snprintf(how, len, "reserved %u (%s), overprov %u (%s)", *rsvd,
		 *rsvd == cur ? "kept" : "as mkfs computes it", *ovp,
		 by_user ? "as user_block_count leaves" : "as mkfs computes it");
	return 1;
}

int cp_reserve_check(struct fsck_ctx *ctx, uint32_t *ovp)
{
	struct f2_fs *fs = ctx->fs;
	uint32_t rsvd = f2_le32(fs->cp->rsvd_segment_count), nr = rsvd, no = *ovp;
	const char *why = NULL;
	char how[160], what[120];
	int yes;

	if (cp_reserve_ok(fs, rsvd, *ovp))
		return 0;
	if (from_other_pack(ctx, &nr, &no))
		snprintf(how, sizeof(how), "pack %d has reserved %u, overprov %u",
			 2 - fs->cp_pack, nr, no);
	else if (from_mkfs(ctx, &nr, &no, what, sizeof(what), &why))
		snprintf(how, sizeof(how), "computed: %s", what);
	else
		snprintf(how, sizeof(how), "no valid value found");
	ctx->no_repair = why;
	yes = fix_problem(ctx, PR_CP_COUNTER_RANGE,
			  "checkpoint: reserved %u, overprov %u of %u main segments; %s", rsvd,
			  *ovp, fs->main_segs, how);
	ctx->no_repair = NULL;
	if (!yes)
		return 0;
	*ovp = no;
	return rep_add(ctx, PR_CP_COUNTER_RANGE, RA_CP_RESERVE, nr, no, 0, 0);
}
