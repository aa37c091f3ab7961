// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/checkpoint.c - the engine's handle and its commit point: opening the write
 * state over an opened file system, and the checkpoint writer.  A
 * checkpoint writes every cached block back, the NAT and SIT changes
 * (journals or the other copies), then the pack not in use: payload with
 * the new version bitmaps, orphan blocks, the data and node summaries of
 * the current segments, a flush, and only then the head and tail blocks
 * with the new version and crc, and another flush.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/cp_pack.h"
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/io.h"
#include "internal.h"

int eng_fail(struct f2_engine *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->why, sizeof(w->why), fmt, ap);
	va_end(ap);
	return err;
}

const char *f2_engine_why(const struct f2_engine *w)
{
	return w->why;
}

struct f2_fs *f2_engine_fs(struct f2_engine *w)
{
	return w->fs;
}

void f2_engine_stats(const struct f2_engine *w, struct f2_engine_stats *st)
{
	st->valid_blocks = w->valid_blocks;
	st->user_blocks = w->user_blocks;
	st->valid_nodes = w->valid_nodes;
	st->valid_inodes = w->valid_inodes;
	st->free_segs = w->free_segs;
	st->cp_ver = w->cp_ver;
	st->new_segs = w->new_segs;
	st->ssr_segs = w->ssr_segs;
	st->ssr_blocks = w->ssr_blocks;
	st->free_secs = eng_free_secs(w);
	st->segs_in_use_end = w->fs->main_segs;
	while (st->segs_in_use_end && f2_test_bit_lsb(w->freemap, st->segs_in_use_end - 1))
		st->segs_in_use_end--;
}

static int load_orphan(void *ctx, uint32_t ino)
{
	return f2_engine_orphan_add(ctx, ino);
}

static void free_map(struct f2_map *m)
{
	size_t pos = 0;
	void **v;

	while ((v = f2_map_next(m, &pos, NULL)))
		free(*v);
	f2_map_free(m);
}

void f2_engine_close(struct f2_engine *w)
{
	if (!w)
		return;
	eng_nat_free_all(w);
	free_map(&w->sit);
	free_map(&w->nodes);
	free_map(&w->dblks);
	while (w->blk_pool) {
		struct eng_blk *b = eng_blk_new(w);

		free(b);
	}
	f2_map_free(&w->cf_checked);
	free(w->nat_bitmap);
	free(w->sit_bitmap);
	free(w->freemap);
	free(w->orphans);
	free(w->nat_bits);
	free(w->zero);
	for (int a = 0; a < 4; a++)
		f2_compressor_free(w->coder[a]);
	free(w->cbuf);
	eng_zones_free(w->zones);
	eng_ssr_free(w->ssr);
	free(w);
}

int f2_engine_open(struct f2_fs *fs, const struct f2_engine_opts *o, struct f2_engine **out)
{
	*out = NULL;
	if (fs->features & F2_FEAT_BLKZONED)
		return f2_fs_fail(fs, F2_EUNSUPP, "write engine: zoned volumes need their zones "
				  "attached (f2_engine_open_zoned)");
	return eng_open(fs, o, out);
}

int eng_open(struct f2_fs *fs, const struct f2_engine_opts *o, struct f2_engine **out)
{
	struct f2_engine *w;
	const struct f2_checkpoint *cp = fs->cp;
	char why[F2_WHY_LEN];
	int err;

	*out = NULL;
	if (!cp)
		return f2_fs_fail(fs, F2_ENOCP, "write engine: no checkpoint loaded");
	if (f2_features_writable(fs->features, why, sizeof(why)))
		return f2_fs_fail(fs, F2_EUNSUPP, "write engine: %s", why);
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fs = fs;
	f2_map_init(&w->nat, sizeof(void *), 0);
	f2_map_init(&w->sit, sizeof(void *), 0);
	f2_map_init(&w->nodes, sizeof(void *), 0);
	f2_map_init(&w->dblks, sizeof(void *), 0);
	f2_map_init(&w->cf_checked, 0, F2_MAP_KEY32);
	if (o)
		w->o = *o;
	if (!w->o.cache_blocks)
		w->o.cache_blocks = 16384;
	w->nat_bitmap = malloc(fs->nat_bitmap_bytes + 1);
	w->sit_bitmap = malloc(fs->sit_bitmap_bytes + 1);
	w->zero = calloc(1, F2_BLKSIZE);
	if (!w->nat_bitmap || !w->sit_bitmap || !w->zero) {
		f2_engine_close(w);
		return -ENOMEM;
	}
	memcpy(w->nat_bitmap, fs->nat_bitmap, fs->nat_bitmap_bytes);
	memcpy(w->sit_bitmap, fs->sit_bitmap, fs->sit_bitmap_bytes);
	w->segs_per_sec = f2_le32(fs->sb.segs_per_sec);
	w->secs_per_zone = f2_le32(fs->sb.secs_per_zone);
	if (!w->segs_per_sec || !w->secs_per_zone) {
		f2_engine_close(w);
		return f2_fs_fail(fs, F2_ECORRUPT, "superblock: zero segs_per_sec/secs_per_zone");
	}
	w->cp_ver = fs->cp_ver;
	w->cp_pack = fs->cp_pack;
	w->ckpt_flags = fs->cp_flags;
	w->valid_blocks = f2_le64(cp->valid_block_count);
	w->user_blocks = f2_le64(cp->user_block_count);
	w->rsvd_segs = f2_le32(cp->rsvd_segment_count);
	w->ovp_segs = f2_le32(cp->overprov_segment_count);
	w->valid_nodes = f2_le32(cp->valid_node_count);
	w->valid_inodes = f2_le32(cp->valid_inode_count);
	w->next_nid = f2_le32(cp->next_free_nid);
	w->mtime = w->o.mtime ? w->o.mtime : f2_le64(cp->elapsed_time);
	for (uint32_t i = 0; i < fs->nat_journal_n; i++) {
		struct eng_nat *e;

		err = eng_nat_get(w, f2_le32(fs->nat_journal.nat.entries[i].nid), &e);
		if (err)
			goto fail;
	}
	err = eng_seg_init(w);
	if (err)
		goto fail;
	err = eng_nat_bits_load(w);
	if (err)
		goto fail;
	if (!w->o.orphans_given && (err = f2_cp_orphans(fs, load_orphan, w)))
		goto fail;
	*out = w;
	return 0;
fail:
	f2_fs_fail(fs, err, "write engine: %s", w->why[0] ? w->why : fs->why);
	f2_engine_close(w);
	return err;
}

void f2_engine_cp_flags(struct f2_engine *w, uint32_t set, uint32_t clear)
{
	w->ckpt_flags = (w->ckpt_flags | set) & ~clear;
}

int f2_engine_writeback(struct f2_engine *w)
{
	return eng_writeback(w);
}

int f2_engine_checkpoint(struct f2_engine *w)
{
	struct f2_fs *fs = w->fs;
	uint32_t payload = f2_le32(fs->sb.cp_payload);
	int pack = !w->cp_pack;
	uint64_t ver = w->cp_ver + 1;
	struct f2_journal nj, sj;
	struct f2_cp_image ci = { 0 };
	struct f2_checkpoint *cp;
	uint8_t *raw;
	uint32_t flags;
	int err;

	ci.payload = payload;
	ci.norphans = w->norphans;
	ci.node_sums = 1;
	ci.compact = 1;
	if (f2_cp_pack_blocks(&ci) + 2 > F2_BLKS_PER_SEG)
		return eng_fail(w, F2_ERANGE, "checkpoint: %zu orphans do not fit", w->norphans);
	err = eng_writeback(w);
	if (err)
		return err;
	/* no log may be committed with blkoff 512 (eng_seg_roll_full) */
	err = eng_seg_roll_full(w);
	if (err)
		return err;
	err = eng_nat_flush(w, &nj);
	if (err)
		return err;
	err = eng_sit_flush(w, &sj);
	if (err)
		return err;
	eng_release_prefree(w);

	raw = malloc((size_t)(1 + payload) * F2_BLKSIZE);
	if (!raw)
		return -ENOMEM;
	memcpy(raw, fs->cp_raw, (size_t)(1 + payload) * F2_BLKSIZE);
	cp = (struct f2_checkpoint *)raw;
	memcpy(raw + (fs->nat_bitmap - fs->cp_raw), w->nat_bitmap, fs->nat_bitmap_bytes);
	memcpy(raw + (fs->sit_bitmap - fs->cp_raw), w->sit_bitmap, fs->sit_bitmap_bytes);
	flags = w->ckpt_flags & (F2_CP_LARGE_NAT_BITMAP | F2_CP_CRC_RECOVERY |
				 F2_CP_NOCRC_RECOVERY | F2_CP_FSCK | F2_CP_ERROR |
				 F2_CP_QUOTA_NEED_FSCK);
	f2_set_le32(cp->ckpt_flags, flags | F2_CP_UMOUNT);
	f2_set_le64(cp->checkpoint_ver, ver);
	f2_set_le64(cp->valid_block_count, w->valid_blocks);
	f2_set_le64(cp->user_block_count, w->user_blocks);
	f2_set_le32(cp->rsvd_segment_count, w->rsvd_segs);
	f2_set_le32(cp->overprov_segment_count, w->ovp_segs);
	f2_set_le32(cp->free_segment_count, w->free_segs);
	for (int i = 0; i < F2_NR_CURSEG_DATA; i++) {
		f2_set_le32(cp->cur_data_segno[i], w->cur[F2_CURSEG_HOT_DATA + i].segno);
		f2_set_le16(cp->cur_data_blkoff[i], w->cur[F2_CURSEG_HOT_DATA + i].blkoff);
		f2_set_le32(cp->cur_node_segno[i], w->cur[F2_CURSEG_HOT_NODE + i].segno);
		f2_set_le16(cp->cur_node_blkoff[i], w->cur[F2_CURSEG_HOT_NODE + i].blkoff);
	}
	for (int i = 0; i < F2_NR_CURSEG; i++) {
		cp->alloc_type[i] = w->cur[i].ssr ? F2_SSR : F2_LFS;
		ci.sum[i] = &w->cur[i].sum;
		ci.blkoff[i] = w->cur[i].blkoff;
	}
	f2_set_le32(cp->valid_node_count, w->valid_nodes);
	f2_set_le32(cp->valid_inode_count, w->valid_inodes);
	f2_set_le32(cp->next_free_nid, w->next_nid);

	ci.head = raw;
	ci.start = f2_le32(fs->sb.cp_blkaddr) + (uint64_t)pack * F2_BLKS_PER_SEG;
	ci.orphans = w->orphans;
	ci.nat_journal = &nj;
	ci.sit_journal = &sj;
	if (w->nat_bits_on) {
		ci.nat_bits = w->nat_bits;
		ci.nat_bits_blocks = w->nat_bits_blocks;
	}
	err = f2_cp_write(fs->io, &ci);
	flags = f2_le32(cp->ckpt_flags);
	free(raw);
	if (err)
		return eng_fail(w, err, "checkpoint pack %d: write failed", pack + 1);
	w->cp_ver = ver;
	w->cp_pack = pack;
	w->ckpt_flags = flags;
	eng_ssr_committed(w);
	return 0;
}
