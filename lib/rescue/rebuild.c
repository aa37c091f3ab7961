// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rebuild.c - the rescue's writes (f2/rescue.h): a checkpoint pack built
 * in memory when none survives, then the SIT, the current segments, the
 * NAT and the counters set through the write engine's repair primitives,
 * committed by the engine's checkpoint (twice when the checkpoint was
 * lost, so that both packs are valid).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/cp_pack.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/geometry.h"
#include "f2/io.h"
#include "f2/repair.h"
#include "internal.h"

/* Six empty main segments for the logs of the built pack, from the end
 * (the engine moves a log that meets a block in use). */
static int pick_cursegs(const struct f2_rescue *r, uint32_t *seg)
{
	int t = 0;

	for (uint32_t s = r->fs->main_segs; s-- > 0 && t < F2_NR_CURSEG;)
		if (r->segtype[s] == 0xff)
			seg[t++] = s;
	return t == F2_NR_CURSEG ? 0 : F2_ENOSPC;
}

/* A checkpoint pack (pack 1, version the newest node's) held by the
 * overlay ov: counters from the scan, every NAT and SIT block read from
 * its first copy, no journal, no orphan, the logs at empty segments. */
static int build_pack(struct f2_rescue *r, struct f2_io *ov, char *why, size_t len)
{
	struct f2_fs *fs = r->fs;
	uint32_t payload = f2_le32(fs->sb.cp_payload), seg[F2_NR_CURSEG];
	uint32_t spsec = f2_le32(fs->sb.segs_per_sec);
	struct f2_summary_block *sums = calloc(F2_NR_CURSEG, sizeof(*sums));
	uint8_t *head = calloc(1 + payload, F2_BLKSIZE);
	struct f2_journal nj, sj;
	struct f2_checkpoint *cp = (struct f2_checkpoint *)head;
	struct f2_cp_image ci = {
		.head = head, .payload = payload, .start = f2_le32(fs->sb.cp_blkaddr),
		.nat_journal = &nj, .sit_journal = &sj, .node_sums = 1, .compact = -1,
	};
	struct f2_reserve rs;
	const char *rwhy = NULL;
	int err;

	if (!sums || !head) {
		err = -ENOMEM;
		goto out;
	}
	err = pick_cursegs(r, seg);
	if (err) {
		snprintf(why, len, "fewer than %d empty main segments for the logs", F2_NR_CURSEG);
		goto out;
	}
	if (!spsec || f2_geometry_reserve(fs->main_segs, fs->main_segs, fs->main_segs / spsec,
					  0, &rs, &rwhy)) {
		snprintf(why, len, "GC reserve: %s", rwhy ? rwhy : "zero segs_per_sec");
		err = F2_ECORRUPT;
		goto out;
	}
	memset(&nj, 0, sizeof(nj));
	memset(&sj, 0, sizeof(sj));
	for (int t = 0; t < F2_NR_CURSEG; t++) {
		sums[t].footer.entry_type = t >= F2_CURSEG_HOT_NODE ? F2_SUM_TYPE_NODE :
								     F2_SUM_TYPE_DATA;
		ci.sum[t] = &sums[t];
	}
	f2_set_le64(cp->checkpoint_ver, r->max_ver);
	f2_set_le64(cp->user_block_count, (uint64_t)(fs->main_segs - rs.overprov) *
		    F2_BLKS_PER_SEG);
	f2_set_le64(cp->valid_block_count, r->nodes + r->data_blocks + r->reserved);
	f2_set_le32(cp->rsvd_segment_count, rs.reserved);
	f2_set_le32(cp->overprov_segment_count, rs.overprov);
	f2_set_le32(cp->free_segment_count, fs->main_segs - F2_NR_CURSEG);
	for (int i = 0; i < 8; i++) {
		f2_set_le32(cp->cur_node_segno[i], i < 3 ? seg[F2_CURSEG_HOT_NODE + i] :
			    F2_NULL_SEGNO);
		f2_set_le32(cp->cur_data_segno[i], i < 3 ? seg[F2_CURSEG_HOT_DATA + i] :
			    F2_NULL_SEGNO);
	}
	f2_set_le32(cp->ckpt_flags, F2_CP_UMOUNT);
	f2_set_le32(cp->valid_node_count, r->nodes);
	f2_set_le32(cp->valid_inode_count, r->inodes);
	f2_set_le32(cp->next_free_nid, r->top_nid > F2_ROOT_INO ? r->top_nid : F2_ROOT_INO + 1);
	f2_set_le32(cp->sit_ver_bitmap_bytesize, fs->sit_blocks / 8);
	f2_set_le32(cp->nat_ver_bitmap_bytesize, fs->nat_blocks / 8);
	f2_set_le32(cp->checksum_offset, F2_CP_CHKSUM_OFFSET);
	f2_io_overlay_capture(ov, 1);
	err = f2_cp_write(ov, &ci);
	f2_io_overlay_capture(ov, 0);
	if (err)
		snprintf(why, len, "building a checkpoint pack: %s", f2_strerror(err));
out:
	free(sums);
	free(head);
	return err;
}

/* Every segment's valid map and type from the scan, then the logs. */
static int set_sit(struct f2_rescue *r, struct f2_engine *w)
{
	for (uint32_t s = 0; s < r->fs->main_segs; s++) {
		uint8_t map[F2_SIT_VBLOCK_MAP_SIZE] = { 0 };
		int err;

		for (uint32_t b = 0; b < F2_BLKS_PER_SEG; b++)
			if (f2_test_bit_lsb(r->used, s * F2_BLKS_PER_SEG + b))
				f2_set_bit_msb(map, b);
		err = f2_engine_repair_seg(w, s, map, r->segtype[s] == 0xff ? -1 : r->segtype[s]);
		if (err)
			return err;
	}
	return f2_engine_repair_cursegs(w);
}

struct nat_walk {
	struct f2_rescue *r;
	struct f2_engine *w;
	uint32_t changed;
};

/* An entry in use the scan did not keep (or keeps elsewhere) is freed. */
static int free_stale(void *arg, const struct f2_nat_info *ni)
{
	struct nat_walk *nw = arg;
	const struct rs_node *b;

	if (ni->nid <= F2_META_INO || ni->nid >= nw->r->fs->max_nid)
		return 0;
	b = &nw->r->n[ni->nid];
	if (b->kept && b->blkaddr == ni->blkaddr && b->ino == ni->ino)
		return 0;
	nw->changed++;
	return f2_engine_repair_nat(nw->w, ni->nid, 0, F2_NULL_ADDR);
}

static int set_nat(struct f2_rescue *r, struct f2_engine *w, unsigned what, uint32_t *changed)
{
	struct f2_fs *fs = f2_engine_fs(w);
	struct nat_walk nw = { r, w, 0 };
	int err = 0;

	/* nid 0 free, the node and meta inodes' entries as mkfs writes them
	 * (only when wrong: the engine may journal them, which the reference
	 * fsck refuses for these) */
	for (uint32_t nid = 0; nid <= F2_META_INO && !err; nid++) {
		struct f2_nat_info ni;

		err = f2_nat_lookup(fs, nid, &ni);
		if (!err && (nid ? ni.ino != nid || ni.blkaddr != 1 : ni.ino || ni.blkaddr))
			err = f2_engine_repair_nat_reserved(w, nid);
	}
	if (!err && !(what & F2_RESCUE_NAT_FREE))
		err = f2_nat_iter(fs, free_stale, &nw);
	if (!err)
		err = f2_engine_repair_expect_nat(w, r->nodes + F2_META_INO + 1);
	for (uint32_t nid = F2_ROOT_INO; nid < r->top_nid && !err; nid++) {
		const struct rs_node *b = &r->n[nid];
		struct f2_nat_info ni;

		if (!b->kept)
			continue;
		err = f2_nat_lookup(fs, nid, &ni);
		if (err)
			break;
		if (ni.blkaddr == b->blkaddr && ni.ino == b->ino)
			continue;
		if ((what & F2_RESCUE_NAT_FREE) && ni.blkaddr != F2_NULL_ADDR)
			continue;	/* an entry that survives is the checkpoint's */
		nw.changed++;
		err = f2_engine_repair_nat(w, nid, b->ino, b->blkaddr);
	}
	if (changed)
		*changed = nw.changed;
	return err;
}

int f2_rescue_rebuild(struct f2_rescue *r, struct f2_io *io, unsigned what, uint32_t *changed,
		      char *why, size_t len)
{
	struct f2_io *ov = NULL, *fio = io;
	struct f2_fs *fs = NULL;
	struct f2_engine *w = NULL;
	int err = 0;

	why[0] = 0;
	if (what & F2_RESCUE_CP) {
		what |= F2_RESCUE_NAT | F2_RESCUE_SIT;
		what &= ~(unsigned)F2_RESCUE_NAT_FREE;
		err = f2_io_open_overlay(io, &ov);
		if (!err)
			err = build_pack(r, ov, why, len);
		fio = ov;
	}
	if (!err && (err = f2_fs_open_io(fio, NULL, &fs)))
		snprintf(why, len, "%s", fs ? fs->why : "opening the volume");
	if (!err && (err = f2_engine_open(fs, &(struct f2_engine_opts){ .orphans_given = 1,
			.repairing = 1 }, &w)))
		snprintf(why, len, "%s", fs->why);
	if (!err && (what & F2_RESCUE_SIT)) {
		err = set_sit(r, w);
		f2_engine_repair_counts(w, r->nodes + r->data_blocks + r->reserved, r->nodes,
					r->inodes);
	}
	if (!err)
		err = set_nat(r, w, what, changed);
	if (!err)
		f2_engine_cp_flags(w, 0, F2_CP_ERROR);
	if (!err)
		err = f2_engine_checkpoint(w);
	if (!err && (what & F2_RESCUE_CP))
		err = f2_engine_checkpoint(w);	/* the other pack too */
	if (err && !why[0])
		snprintf(why, len, "%s", w ? f2_engine_why(w) : f2_strerror(err));
	f2_engine_close(w);
	if (fs)
		f2_fs_close(fs);
	if (ov)
		f2_io_close(ov);
	return err;
}
