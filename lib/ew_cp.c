// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ew_cp.c - the engine's handle and its commit point: opening the write
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
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/io.h"
#include "engine_int.h"

int ew_fail(struct f2_wfs *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->why, sizeof(w->why), fmt, ap);
	va_end(ap);
	return err;
}

const char *f2_wfs_why(const struct f2_wfs *w)
{
	return w->why;
}

struct f2_fs *f2_wfs_fs(struct f2_wfs *w)
{
	return w->fs;
}

void f2_wfs_stats(const struct f2_wfs *w, struct f2_wfs_stats *st)
{
	st->valid_blocks = w->valid_blocks;
	st->user_blocks = w->user_blocks;
	st->valid_nodes = w->valid_nodes;
	st->valid_inodes = w->valid_inodes;
	st->free_segs = w->free_segs;
	st->cp_ver = w->cp_ver;
}

static int load_orphan(void *ctx, uint32_t ino)
{
	return f2_wfs_orphan_add(ctx, ino);
}

static void free_map(struct ew_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->vals[i]);
	ew_map_free(m);
}

void f2_wfs_close(struct f2_wfs *w)
{
	if (!w)
		return;
	free_map(&w->nat);
	free_map(&w->sit);
	free_map(&w->nodes);
	free_map(&w->dblks);
	free(w->nat_bitmap);
	free(w->sit_bitmap);
	free(w->freemap);
	free(w->orphans);
	free(w->nat_bits);
	free(w->zero);
	free(w);
}

int f2_wfs_open(struct f2_fs *fs, const struct f2_wfs_opts *o, struct f2_wfs **out)
{
	struct f2_wfs *w;
	const struct f2_checkpoint *cp = fs->cp;
	int err;

	*out = NULL;
	if (!cp)
		return f2_fs_fail(fs, F2_ENOCP, "write engine: no checkpoint loaded");
	if (fs->features & F2_FEAT_BLKZONED)
		return f2_fs_fail(fs, F2_EUNSUPP, "write engine: zoned volumes not supported yet");
	if (fs->features & F2_FEAT_RO)
		return f2_fs_fail(fs, F2_EUNSUPP, "write engine: read-only file system feature");
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fs = fs;
	if (o)
		w->o = *o;
	if (!w->o.cache_blocks)
		w->o.cache_blocks = 16384;
	w->nat_bitmap = malloc(fs->nat_bitmap_bytes + 1);
	w->sit_bitmap = malloc(fs->sit_bitmap_bytes + 1);
	w->zero = calloc(1, F2_BLKSIZE);
	if (!w->nat_bitmap || !w->sit_bitmap || !w->zero) {
		f2_wfs_close(w);
		return -ENOMEM;
	}
	memcpy(w->nat_bitmap, fs->nat_bitmap, fs->nat_bitmap_bytes);
	memcpy(w->sit_bitmap, fs->sit_bitmap, fs->sit_bitmap_bytes);
	w->segs_per_sec = f2_le32(fs->sb.segs_per_sec);
	w->secs_per_zone = f2_le32(fs->sb.secs_per_zone);
	if (!w->segs_per_sec || !w->secs_per_zone) {
		f2_wfs_close(w);
		return f2_fs_fail(fs, F2_ECORRUPT, "superblock: zero segs_per_sec/secs_per_zone");
	}
	w->cp_ver = fs->cp_ver;
	w->cp_pack = fs->cp_pack;
	w->ckpt_flags = fs->cp_flags;
	w->valid_blocks = f2_le64(cp->valid_block_count);
	w->user_blocks = f2_le64(cp->user_block_count);
	w->valid_nodes = f2_le32(cp->valid_node_count);
	w->valid_inodes = f2_le32(cp->valid_inode_count);
	w->next_nid = f2_le32(cp->next_free_nid);
	w->mtime = w->o.mtime ? w->o.mtime : f2_le64(cp->elapsed_time);
	for (uint32_t i = 0; i < fs->nat_journal_n; i++) {
		struct ew_nat *e;

		err = ew_nat_get(w, f2_le32(fs->nat_journal.nat.entries[i].nid), &e);
		if (err)
			goto fail;
	}
	err = ew_seg_init(w);
	if (err)
		goto fail;
	err = ew_nat_bits_load(w);
	if (err)
		goto fail;
	err = f2_cp_orphans(fs, load_orphan, w);
	if (err)
		goto fail;
	*out = w;
	return 0;
fail:
	f2_fs_fail(fs, err, "write engine: %s", w->why[0] ? w->why : fs->why);
	f2_wfs_close(w);
	return err;
}

int f2_wfs_writeback(struct f2_wfs *w)
{
	return ew_writeback(w);
}

/* Blocks the data summaries take compacted (1 or 2), or 3 (normal). */
static uint32_t data_sum_blocks(const struct f2_wfs *w)
{
	uint32_t n = 0, first = (F2_BLKSIZE - 2 * F2_SUM_JOURNAL_SIZE - F2_SUM_FOOTER_SIZE) /
				F2_SUMMARY_SIZE;

	for (int t = F2_CURSEG_HOT_DATA; t <= F2_CURSEG_COLD_DATA; t++)
		n += w->cur[t].blkoff;
	if (n <= first)
		return 1;
	if (n - first <= (F2_BLKSIZE - F2_SUM_FOOTER_SIZE) / F2_SUMMARY_SIZE)
		return 2;
	return 3;
}

/* Compacted data summaries: both journals, then the data logs' entries
 * packed across blocks (the layout the kernel writes and cp.c reads). */
static int write_compacted(struct f2_wfs *w, uint64_t *at, uint8_t *blk,
			   const struct f2_journal *nj, const struct f2_journal *sj)
{
	size_t ws = 2 * F2_SUM_JOURNAL_SIZE;
	int open = 1, err;

	memset(blk, 0, F2_BLKSIZE);
	memcpy(blk, nj, F2_SUM_JOURNAL_SIZE);
	memcpy(blk + F2_SUM_JOURNAL_SIZE, sj, F2_SUM_JOURNAL_SIZE);
	for (int t = F2_CURSEG_HOT_DATA; t <= F2_CURSEG_COLD_DATA; t++)
		for (uint32_t j = 0; j < w->cur[t].blkoff; j++) {
			if (!open) {
				memset(blk, 0, F2_BLKSIZE);
				ws = 0;
				open = 1;
			}
			memcpy(blk + ws, &w->cur[t].sum.entries[j], F2_SUMMARY_SIZE);
			ws += F2_SUMMARY_SIZE;
			if (ws + F2_SUMMARY_SIZE <= F2_BLKSIZE - F2_SUM_FOOTER_SIZE)
				continue;
			if ((err = f2_io_write_block(w->fs->io, (*at)++, blk)))
				return err;
			open = 0;
		}
	return open ? f2_io_write_block(w->fs->io, (*at)++, blk) : 0;
}

int f2_wfs_checkpoint(struct f2_wfs *w)
{
	struct f2_fs *fs = w->fs;
	uint32_t payload = f2_le32(fs->sb.cp_payload);
	uint32_t norph = (uint32_t)((w->norphans + F2_ORPHANS_PER_BLOCK - 1) / F2_ORPHANS_PER_BLOCK);
	uint32_t start_sum = 1 + payload + norph, total, dsum;
	uint32_t flags, csum_off;
	int pack = !w->cp_pack;
	uint64_t start = f2_le32(fs->sb.cp_blkaddr) + (uint64_t)pack * F2_BLKS_PER_SEG, at;
	uint64_t ver = w->cp_ver + 1;
	struct f2_journal nj, sj;
	struct f2_checkpoint *cp;
	uint8_t *raw, *blk;
	int err;

	if (start_sum + 3 + 3 + 1 > F2_BLKS_PER_SEG)
		return ew_fail(w, F2_ERANGE, "checkpoint: %zu orphans do not fit", w->norphans);
	err = ew_writeback(w);
	if (err)
		return err;
	err = ew_nat_flush(w, &nj);
	if (err)
		return err;
	err = ew_sit_flush(w, &sj);
	if (err)
		return err;
	ew_release_prefree(w);
	dsum = data_sum_blocks(w);
	total = start_sum + dsum + 3 + 1;

	raw = malloc((size_t)(2 + payload) * F2_BLKSIZE);
	if (!raw)
		return -ENOMEM;
	blk = raw + (size_t)(1 + payload) * F2_BLKSIZE;
	memcpy(raw, fs->cp_raw, (size_t)(1 + payload) * F2_BLKSIZE);
	cp = (struct f2_checkpoint *)raw;
	memcpy(raw + (fs->nat_bitmap - fs->cp_raw), w->nat_bitmap, fs->nat_bitmap_bytes);
	memcpy(raw + (fs->sit_bitmap - fs->cp_raw), w->sit_bitmap, fs->sit_bitmap_bytes);
	flags = w->ckpt_flags & (F2_CP_LARGE_NAT_BITMAP | F2_CP_CRC_RECOVERY |
				 F2_CP_NOCRC_RECOVERY);
	flags |= F2_CP_UMOUNT;
	if (w->norphans)
		flags |= F2_CP_ORPHAN_PRESENT;
	if (dsum < 3)
		flags |= F2_CP_COMPACT_SUM;
	if (w->nat_bits_on && total + w->nat_bits_blocks <= F2_BLKS_PER_SEG)
		flags |= F2_CP_NAT_BITS;
	f2_set_le64(cp->checkpoint_ver, ver);
	f2_set_le64(cp->valid_block_count, w->valid_blocks);
	f2_set_le32(cp->free_segment_count, w->free_segs);
	for (int i = 0; i < F2_NR_CURSEG_DATA; i++) {
		f2_set_le32(cp->cur_data_segno[i], w->cur[F2_CURSEG_HOT_DATA + i].segno);
		f2_set_le16(cp->cur_data_blkoff[i], w->cur[F2_CURSEG_HOT_DATA + i].blkoff);
		f2_set_le32(cp->cur_node_segno[i], w->cur[F2_CURSEG_HOT_NODE + i].segno);
		f2_set_le16(cp->cur_node_blkoff[i], w->cur[F2_CURSEG_HOT_NODE + i].blkoff);
	}
	for (int i = 0; i < F2_NR_CURSEG; i++)
		cp->alloc_type[i] = F2_LFS;
	f2_set_le32(cp->ckpt_flags, flags);
	f2_set_le32(cp->cp_pack_total_block_count, total);
	f2_set_le32(cp->cp_pack_start_sum, start_sum);
	f2_set_le32(cp->valid_node_count, w->valid_nodes);
	f2_set_le32(cp->valid_inode_count, w->valid_inodes);
	f2_set_le32(cp->next_free_nid, w->next_nid);
	csum_off = f2_le32(cp->checksum_offset);
	if (csum_off < F2_CP_MIN_CHKSUM_OFFSET || csum_off > F2_CP_CHKSUM_OFFSET) {
		free(raw);
		return ew_fail(w, F2_ECORRUPT, "checkpoint: checksum_offset %u", csum_off);
	}
	f2_cp_set_crc(cp, csum_off);

	/* body: payload, orphans, summaries, nat_bits */
	at = start + 1;
	for (uint32_t i = 0; i < payload && !err; i++)
		err = f2_io_write_block(fs->io, at++, raw + (size_t)(1 + i) * F2_BLKSIZE);
	for (uint32_t b = 0; b < norph && !err; b++) {
		struct f2_orphan_block *ob = (struct f2_orphan_block *)blk;
		uint32_t n = 0;

		memset(blk, 0, F2_BLKSIZE);
		for (size_t k = (size_t)b * F2_ORPHANS_PER_BLOCK;
		     k < w->norphans && n < F2_ORPHANS_PER_BLOCK; k++)
			f2_set_le32(ob->ino[n++], w->orphans[k]);
		f2_set_le16(ob->blk_addr, (uint16_t)(b + 1));
		f2_set_le16(ob->blk_count, (uint16_t)norph);
		f2_set_le32(ob->entry_count, n);
		err = f2_io_write_block(fs->io, at++, blk);
	}
	if (!err && dsum < 3)
		err = write_compacted(w, &at, blk, &nj, &sj);
	for (int t = 0; t < F2_NR_CURSEG && !err; t++) {
		struct f2_summary_block *s = (struct f2_summary_block *)blk;

		if (t < F2_CURSEG_HOT_NODE && dsum < 3)
			continue;
		memcpy(s, &w->cur[t].sum, sizeof(*s));
		memset(&s->journal, 0, sizeof(s->journal));
		if (t == F2_CURSEG_HOT_DATA)
			s->journal = nj;
		else if (t == F2_CURSEG_COLD_DATA)
			s->journal = sj;
		s->footer.entry_type = t >= F2_CURSEG_HOT_NODE ? F2_SUM_TYPE_NODE :
				       F2_SUM_TYPE_DATA;
		err = f2_io_write_block(fs->io, at++, blk);
	}
	if (!err && at != start + total - 1)
		err = ew_fail(w, F2_ECORRUPT, "checkpoint: wrote %llu blocks, planned %u",
			      (unsigned long long)(at - start), total - 1);
	if (!err && (flags & F2_CP_NAT_BITS)) {
		le32 crc;

		memcpy(&crc, raw + csum_off, 4);
		*(le64 *)w->nat_bits = f2_cpu_to_le64(ver | (uint64_t)f2_le32(crc) << 32);
		for (uint32_t i = 0; i < w->nat_bits_blocks && !err; i++)
			err = f2_io_write_block(fs->io, start + F2_BLKS_PER_SEG - w->nat_bits_blocks + i,
						w->nat_bits + (size_t)i * F2_BLKSIZE);
	}
	if (err) {
		free(raw);
		return ew_fail(w, err, "checkpoint pack %d: write failed", pack + 1);
	}
	/* commit: head and tail only once the rest is on the device */
	err = f2_io_flush(fs->io);
	if (!err)
		err = f2_io_write_block(fs->io, start, raw);
	if (!err)
		err = f2_io_write_block(fs->io, start + total - 1, raw);
	if (!err)
		err = f2_io_flush(fs->io);
	free(raw);
	if (err)
		return ew_fail(w, err, "checkpoint pack %d: commit failed", pack + 1);
	w->cp_ver = ver;
	w->cp_pack = pack;
	w->ckpt_flags = flags;
	return 0;
}
