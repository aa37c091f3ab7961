// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp.c - checkpoint selection and loading: both packs are checked (head
 * and tail crc and version, sizes, payload), the newest valid one is
 * kept with its version bitmaps, NAT/SIT journals and the summaries of
 * the current segments (compacted or normal), and orphan inodes are
 * listed on demand.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/fs.h"
#include "internal.h"

#define PACK_FAIL(info, ...) \
	(snprintf((info)->why, F2_WHY_LEN, __VA_ARGS__), F2_ECORRUPT)

/* Check a head or tail block on its own. */
static int check_cp_block(struct f2_fs *fs, const struct f2_checkpoint *cp,
			  const char *which, struct f2_cp_pack_info *info)
{
	uint32_t off = f2_le32(cp->checksum_offset);
	uint32_t total = f2_le32(cp->cp_pack_total_block_count);
	uint32_t payload = f2_le32(fs->sb.cp_payload);

	if (off < F2_CP_MIN_CHKSUM_OFFSET || off > F2_CP_CHKSUM_OFFSET)
		return PACK_FAIL(info, "%s block: checksum_offset %u out of range", which, off);
	if (!f2_cp_crc_ok(cp, off)) {
		snprintf(info->why, F2_WHY_LEN, "%s block: checksum mismatch", which);
		return F2_EBADCRC;
	}
	if (total < 2 + payload || total > F2_BLKS_PER_SEG)
		return PACK_FAIL(info, "%s block: cp_pack_total_block_count %u invalid "
				 "(cp_payload %u)", which, total, payload);
	return 0;
}

static int check_cp_fields(struct f2_fs *fs, const struct f2_checkpoint *cp,
			   struct f2_cp_pack_info *info)
{
	uint32_t total = f2_le32(cp->cp_pack_total_block_count);
	uint32_t start_sum = f2_le32(cp->cp_pack_start_sum);
	uint32_t payload = f2_le32(fs->sb.cp_payload);
	uint32_t flags = f2_le32(cp->ckpt_flags);
	uint32_t sit_bytes = f2_le32(cp->sit_ver_bitmap_bytesize);
	uint32_t nat_bytes = f2_le32(cp->nat_ver_bitmap_bytesize);
	uint32_t nsum = (flags & F2_CP_COMPACT_SUM) ? 1 : 3;

	if (flags & (F2_CP_UMOUNT | F2_CP_FASTBOOT))
		nsum += 3;
	if (start_sum < 1 + payload || start_sum + nsum + 1 > total)
		return PACK_FAIL(info, "cp_pack_start_sum %u invalid (payload %u, total %u)",
				 start_sum, payload, total);
	if (sit_bytes != fs->sit_blocks / 8 || nat_bytes != fs->nat_blocks / 8)
		return PACK_FAIL(info, "version bitmap sizes sit %u nat %u, expected %u %u",
				 sit_bytes, nat_bytes, fs->sit_blocks / 8, fs->nat_blocks / 8);
	for (int i = 0; i < F2_NR_CURSEG_NODE; i++) {
		uint32_t ns = f2_le32(cp->cur_node_segno[i]);
		uint32_t ds = f2_le32(cp->cur_data_segno[i]);

		if (ns >= fs->main_segs || ds >= fs->main_segs)
			return PACK_FAIL(info, "current segment %u/%u (log %d) outside "
					 "the %u main segments", ns, ds, i, fs->main_segs);
		if (f2_le16(cp->cur_node_blkoff[i]) > F2_BLKS_PER_SEG ||
		    f2_le16(cp->cur_data_blkoff[i]) > F2_BLKS_PER_SEG)
			return PACK_FAIL(info, "current segment offset %u/%u (log %d) > 512",
					 f2_le16(cp->cur_node_blkoff[i]),
					 f2_le16(cp->cur_data_blkoff[i]), i);
	}
	if (f2_le64(cp->valid_block_count) > f2_le64(cp->user_block_count))
		return PACK_FAIL(info, "valid_block_count %llu > user_block_count %llu",
				 (unsigned long long)f2_le64(cp->valid_block_count),
				 (unsigned long long)f2_le64(cp->user_block_count));
	return 0;
}

int f2_cp_check_pack(struct f2_fs *fs, int pack, void *head, struct f2_cp_pack_info *info)
{
	uint8_t tail[F2_BLKSIZE];
	const struct f2_checkpoint *cp = head, *tcp = (const void *)tail;
	uint32_t total;
	int err;

	memset(info, 0, sizeof(*info));
	info->start = f2_le32(fs->sb.cp_blkaddr) + (uint32_t)pack * F2_BLKS_PER_SEG;
	err = f2_fs_read_block(fs, info->start, head);
	if (err) {
		snprintf(info->why, F2_WHY_LEN, "%s", fs->why);
		return err;
	}
	info->version = f2_le64(cp->checkpoint_ver);
	err = check_cp_block(fs, cp, "head", info);
	if (err)
		return err;
	total = f2_le32(cp->cp_pack_total_block_count);
	err = f2_fs_read_block(fs, info->start + total - 1, tail);
	if (err) {
		snprintf(info->why, F2_WHY_LEN, "%s", fs->why);
		return err;
	}
	err = check_cp_block(fs, tcp, "tail", info);
	if (err)
		return err;
	if (f2_le64(tcp->checkpoint_ver) != info->version)
		return PACK_FAIL(info, "head version %llu, tail version %llu",
				 (unsigned long long)info->version,
				 (unsigned long long)f2_le64(tcp->checkpoint_ver));
	err = check_cp_fields(fs, cp, info);
	if (err)
		return err;
	info->valid = 1;
	return 0;
}

int f2_cp_find_tail(struct f2_fs *fs, int pack, void *tail, uint32_t *off)
{
	uint8_t *blk = malloc(F2_BLKSIZE);
	const struct f2_checkpoint *cp = (const void *)blk;
	struct f2_cp_pack_info info;
	uint32_t start = f2_le32(fs->sb.cp_blkaddr) + (uint32_t)pack * F2_BLKS_PER_SEG;
	uint32_t payload = f2_le32(fs->sb.cp_payload);
	uint64_t best = 0;
	int found = 0;

	if (!blk)
		return -12;
	/* a tail ends its pack: its own count of blocks names its place */
	for (uint32_t o = 1 + payload; o < F2_BLKS_PER_SEG; o++) {
		if (f2_fs_read_block(fs, start + o, blk) || check_cp_block(fs, cp, "tail", &info) ||
		    f2_le32(cp->cp_pack_total_block_count) != o + 1 ||
		    check_cp_fields(fs, cp, &info))
			continue;
		if (!found || (int64_t)(f2_le64(cp->checkpoint_ver) - best) > 0) {
			best = f2_le64(cp->checkpoint_ver);
			memcpy(tail, blk, F2_BLKSIZE);
			*off = o;
			found = 1;
		}
	}
	free(blk);
	return found ? 0 : f2_fs_fail(fs, F2_ECORRUPT, "checkpoint pack %d: no intact tail block",
				      pack + 1);
}

/* Do two checkpoint blocks agree in all but the pack count and checksum? */
static int twins(const uint8_t *a, const uint8_t *b)
{
	const struct f2_checkpoint *ca = (const void *)a, *cb = (const void *)b;
	size_t cnt = offsetof(struct f2_checkpoint, cp_pack_total_block_count);
	uint32_t csum = f2_le32(ca->checksum_offset);

	if (csum != f2_le32(cb->checksum_offset) || csum > F2_BLKSIZE - 4)
		return 0;
	for (size_t i = 0; i < F2_BLKSIZE; i++)
		if (a[i] != b[i] && !(i >= cnt && i < cnt + 4) && !(i >= csum && i < csum + 4))
			return 0;
	return 1;
}

int f2_cp_find_twin(struct f2_fs *fs, int pack, void *fixed, uint32_t *off)
{
	uint8_t *head = malloc(2 * F2_BLKSIZE), *blk = head + F2_BLKSIZE;
	struct f2_checkpoint *cp = fixed;
	struct f2_cp_pack_info info;
	uint32_t start = f2_le32(fs->sb.cp_blkaddr) + (uint32_t)pack * F2_BLKS_PER_SEG;
	uint32_t payload = f2_le32(fs->sb.cp_payload), csum;
	int found = 0;

	if (!head)
		return -12;
	if (f2_fs_read_block(fs, start, head))
		goto out;
	csum = f2_le32(((const struct f2_checkpoint *)head)->checksum_offset);
	if (csum < F2_CP_MIN_CHKSUM_OFFSET || csum > F2_CP_CHKSUM_OFFSET || !f2_cp_crc_ok(head, csum))
		goto out;
	for (uint32_t o = 1 + payload; o < F2_BLKS_PER_SEG && !found; o++) {
		if (f2_fs_read_block(fs, start + o, blk) || !twins(head, blk) ||
		    !f2_cp_crc_ok(blk, csum))
			continue;
		memcpy(fixed, blk, F2_BLKSIZE);
		cp->cp_pack_total_block_count = f2_cpu_to_le32(o + 1);
		f2_cp_set_crc(fixed, csum);
		if (check_cp_block(fs, cp, "tail", &info) || check_cp_fields(fs, cp, &info))
			continue;
		*off = o;
		found = 1;
	}
out:
	free(head);
	return found ? 0 : f2_fs_fail(fs, F2_ECORRUPT, "checkpoint pack %d: no tail repeats its head",
				      pack + 1);
}

/* Point the version bitmaps into cp_raw (cp block + payload). */
static int place_bitmaps(struct f2_fs *fs)
{
	const struct f2_checkpoint *cp = fs->cp;
	uint32_t payload = f2_le32(fs->sb.cp_payload);
	size_t room = (size_t)(1 + payload) * F2_BLKSIZE;
	size_t nat_off, sit_off, hdr = offsetof(struct f2_checkpoint, sit_nat_version_bitmap);

	fs->nat_bitmap_bytes = f2_le32(cp->nat_ver_bitmap_bytesize);
	fs->sit_bitmap_bytes = f2_le32(cp->sit_ver_bitmap_bytesize);
	if (fs->cp_flags & F2_CP_LARGE_NAT_BITMAP) {
		nat_off = hdr + 4;
		sit_off = nat_off + fs->nat_bitmap_bytes;
	} else if (payload) {
		nat_off = hdr;
		sit_off = F2_BLKSIZE;
	} else {
		sit_off = hdr;
		nat_off = hdr + fs->sit_bitmap_bytes;
	}
	if (nat_off + fs->nat_bitmap_bytes > room || sit_off + fs->sit_bitmap_bytes > room ||
	    (!payload && nat_off + fs->nat_bitmap_bytes > f2_le32(cp->checksum_offset) &&
	     !(fs->cp_flags & F2_CP_LARGE_NAT_BITMAP)))
		return f2_fs_fail(fs, F2_ECORRUPT,
				  "checkpoint: version bitmaps (sit %u, nat %u bytes) do not fit "
				  "in the cp block and %u payload blocks",
				  fs->sit_bitmap_bytes, fs->nat_bitmap_bytes, payload);
	fs->nat_bitmap = fs->cp_raw + nat_off;
	fs->sit_bitmap = fs->cp_raw + sit_off;
	return 0;
}

static void set_journals(struct f2_fs *fs, const void *nat, const void *sit)
{
	memcpy(&fs->nat_journal, nat, sizeof(fs->nat_journal));
	memcpy(&fs->sit_journal, sit, sizeof(fs->sit_journal));
	fs->nat_journal_n = f2_le16(fs->nat_journal.n_nats);
	fs->sit_journal_n = f2_le16(fs->sit_journal.n_sits);
	if (fs->nat_journal_n > F2_NAT_JOURNAL_ENTRIES)
		fs->nat_journal_n = F2_NAT_JOURNAL_ENTRIES;
	if (fs->sit_journal_n > F2_SIT_JOURNAL_ENTRIES)
		fs->sit_journal_n = F2_SIT_JOURNAL_ENTRIES;
}

/*
 * Compacted data summaries: NAT journal, SIT journal, then the entries of
 * the three data logs packed across as many blocks as needed, an entry
 * never crossing into the last F2_SUM_FOOTER_SIZE bytes of a block.
 * Entry g of that run (counted over the logs in order) lies in block
 * *blk of the run at byte *off.
 */
#define COMPACT_FIRST	(2 * F2_SUM_JOURNAL_SIZE)
#define COMPACT_ROOM	(F2_BLKSIZE - F2_SUM_FOOTER_SIZE - F2_SUMMARY_SIZE)
#define COMPACT_IN_FIRST ((COMPACT_ROOM - COMPACT_FIRST) / F2_SUMMARY_SIZE + 1)
#define COMPACT_IN_NEXT	(COMPACT_ROOM / F2_SUMMARY_SIZE + 1)

static void compact_pos(uint32_t g, uint32_t *blk, uint32_t *off)
{
	if (g < COMPACT_IN_FIRST) {
		*blk = 0;
		*off = COMPACT_FIRST + g * F2_SUMMARY_SIZE;
		return;
	}
	g -= COMPACT_IN_FIRST;
	*blk = 1 + g / COMPACT_IN_NEXT;
	*off = (g % COMPACT_IN_NEXT) * F2_SUMMARY_SIZE;
}

/* Entries a data log keeps in the compacted summaries. */
static uint32_t compact_entries(const struct f2_curseg_info *c)
{
	uint32_t n = c->alloc_type == F2_SSR ? F2_BLKS_PER_SEG : c->blkoff;

	return n < F2_ENTRIES_IN_SUM ? n : F2_ENTRIES_IN_SUM;
}

static int read_compacted(struct f2_fs *fs, uint32_t at, uint32_t end)
{
	uint8_t blk[F2_BLKSIZE];
	uint32_t g = 0, cur = 0, b, off;
	int err;

	if (at >= end)
		return f2_fs_fail(fs, F2_ECORRUPT, "checkpoint: compacted summary outside the pack");
	err = f2_fs_read_block(fs, at, blk);
	if (err)
		return err;
	set_journals(fs, blk, blk + F2_SUM_JOURNAL_SIZE);
	for (int t = F2_CURSEG_HOT_DATA; t <= F2_CURSEG_COLD_DATA; t++) {
		struct f2_curseg_info *c = &fs->curseg[t];
		uint32_t n = compact_entries(c);

		memset(&c->sum, 0, sizeof(c->sum));
		c->sum.footer.entry_type = F2_SUM_TYPE_DATA;
		for (uint32_t j = 0; j < n; j++, g++) {
			compact_pos(g, &b, &off);
			if (b != cur) {
				if (at + b >= end)
					return f2_fs_fail(fs, F2_ECORRUPT,
							  "checkpoint: compacted summaries run past the pack");
				err = f2_fs_read_block(fs, at + b, blk);
				if (err)
					return err;
				cur = b;
			}
			memcpy(&c->sum.entries[j], blk + off, F2_SUMMARY_SIZE);
		}
		c->have_sum = 1;
	}
	return 0;
}

int f2_cp_sum_locate(const struct f2_fs *fs, int log, int entry, uint64_t *blkaddr,
		     uint32_t *off)
{
	uint32_t start, total, blk;
	int node_sums;

	if (!fs->cp || log < 0 || log >= F2_NR_CURSEG || entry < F2_SUM_AT_FOOTER ||
	    entry >= F2_ENTRIES_IN_SUM)
		return -ENOENT;
	start = fs->packs[fs->cp_pack].start;
	total = f2_le32(fs->cp->cp_pack_total_block_count);
	node_sums = !!(fs->cp_flags & (F2_CP_UMOUNT | F2_CP_FASTBOOT));
	if (entry == F2_SUM_AT_JOURNAL && log != F2_CURSEG_HOT_DATA && log != F2_CURSEG_COLD_DATA)
		return -ENOENT;
	if (log >= F2_CURSEG_HOT_NODE) {
		if (!node_sums)
			return -ENOENT;
		blk = total - 1 - 3 + (uint32_t)(log - F2_CURSEG_HOT_NODE);
	} else if (fs->cp_flags & F2_CP_COMPACT_SUM) {
		uint32_t g = 0;

		if (entry == F2_SUM_AT_FOOTER)
			return -ENOENT;
		blk = f2_le32(fs->cp->cp_pack_start_sum);
		if (entry == F2_SUM_AT_JOURNAL) {
			*blkaddr = start + blk;
			*off = log == F2_CURSEG_HOT_DATA ? 0 : F2_SUM_JOURNAL_SIZE;
			return 0;
		}
		if ((uint32_t)entry >= compact_entries(&fs->curseg[log]))
			return -ENOENT;
		for (int t = F2_CURSEG_HOT_DATA; t < log; t++)
			g += compact_entries(&fs->curseg[t]);
		compact_pos(g + (uint32_t)entry, &g, off);
		*blkaddr = start + blk + g;
		return *blkaddr < start + total - 1 ? 0 : -ENOENT;
	} else {
		blk = total - 1 - (node_sums ? 6 : 3) + (uint32_t)log;
	}
	*blkaddr = start + blk;
	*off = entry == F2_SUM_AT_JOURNAL ? (uint32_t)offsetof(struct f2_summary_block, journal) :
	       entry == F2_SUM_AT_FOOTER ? (uint32_t)offsetof(struct f2_summary_block, footer) :
	       (uint32_t)entry * F2_SUMMARY_SIZE;
	return 0;
}

static int load_summaries(struct f2_fs *fs, uint32_t start)
{
	const struct f2_checkpoint *cp = fs->cp;
	uint32_t total = f2_le32(cp->cp_pack_total_block_count);
	int node_sums = !!(fs->cp_flags & (F2_CP_UMOUNT | F2_CP_FASTBOOT));
	int err;

	for (int i = 0; i < F2_NR_CURSEG_DATA; i++) {
		struct f2_curseg_info *d = &fs->curseg[F2_CURSEG_HOT_DATA + i];
		struct f2_curseg_info *n = &fs->curseg[F2_CURSEG_HOT_NODE + i];

		d->segno = f2_le32(cp->cur_data_segno[i]);
		d->blkoff = f2_le16(cp->cur_data_blkoff[i]);
		d->alloc_type = cp->alloc_type[F2_CURSEG_HOT_DATA + i];
		n->segno = f2_le32(cp->cur_node_segno[i]);
		n->blkoff = f2_le16(cp->cur_node_blkoff[i]);
		n->alloc_type = cp->alloc_type[F2_CURSEG_HOT_NODE + i];
	}
	if (fs->cp_flags & F2_CP_COMPACT_SUM) {
		err = read_compacted(fs, start + f2_le32(cp->cp_pack_start_sum), start + total - 1);
		if (err)
			return err;
	} else {
		uint32_t base = start + total - 1 - (node_sums ? 6 : 3);
		struct f2_summary_block *s;

		for (int t = 0; t < F2_NR_CURSEG_DATA; t++) {
			err = f2_fs_read_block(fs, base + (uint32_t)t, &fs->curseg[t].sum);
			if (err)
				return err;
			fs->curseg[t].have_sum = 1;
		}
		s = &fs->curseg[F2_CURSEG_HOT_DATA].sum;
		set_journals(fs, &s->journal, &fs->curseg[F2_CURSEG_COLD_DATA].sum.journal);
	}
	if (node_sums) {
		uint32_t base = start + total - 1 - 3;

		for (int t = 0; t < F2_NR_CURSEG_NODE; t++) {
			struct f2_curseg_info *c = &fs->curseg[F2_CURSEG_HOT_NODE + t];

			err = f2_fs_read_block(fs, base + (uint32_t)t, &c->sum);
			if (err)
				return err;
			c->have_sum = 1;
		}
	}
	return 0;
}

int f2_cp_load(struct f2_fs *fs, int force_pack)
{
	uint8_t *head[2];
	uint32_t payload = f2_le32(fs->sb.cp_payload);
	int use = -1, err;

	head[0] = malloc(2 * F2_BLKSIZE);
	if (!head[0])
		return -12;
	head[1] = head[0] + F2_BLKSIZE;
	for (int p = 0; p < 2; p++)
		f2_cp_check_pack(fs, p, head[p], &fs->packs[p]);
	if (force_pack == 1 || force_pack == 2) {
		use = force_pack - 1;
		if (!fs->packs[use].valid)
			use = -1;
	} else if (fs->packs[0].valid && fs->packs[1].valid) {
		/* newer by serial-number arithmetic, as the kernel compares */
		use = (int64_t)(fs->packs[1].version - fs->packs[0].version) > 0 ? 1 : 0;
	} else if (fs->packs[0].valid || fs->packs[1].valid) {
		use = fs->packs[0].valid ? 0 : 1;
	}
	if (use < 0) {
		free(head[0]);
		return f2_fs_fail(fs, F2_ENOCP, "no valid checkpoint: pack 1: %s; pack 2: %s",
				  fs->packs[0].why, fs->packs[1].why);
	}
	fs->cp_pack = use;
	fs->cp_raw = malloc((size_t)(1 + payload) * F2_BLKSIZE);
	if (!fs->cp_raw) {
		free(head[0]);
		return -12;
	}
	memcpy(fs->cp_raw, head[use], F2_BLKSIZE);
	free(head[0]);
	for (uint32_t i = 0; i < payload; i++) {
		err = f2_fs_read_block(fs, fs->packs[use].start + 1 + i,
				       fs->cp_raw + (size_t)(1 + i) * F2_BLKSIZE);
		if (err)
			return err;
	}
	fs->cp = (const struct f2_checkpoint *)fs->cp_raw;
	fs->cp_flags = f2_le32(fs->cp->ckpt_flags);
	fs->cp_ver = fs->packs[use].version;
	fs->orphan_blocks = f2_le32(fs->cp->cp_pack_start_sum) - 1 - payload;
	if (!(fs->cp_flags & F2_CP_ORPHAN_PRESENT))
		fs->orphan_blocks = 0;
	err = place_bitmaps(fs);
	if (err)
		return err;
	return load_summaries(fs, fs->packs[use].start);
}

int f2_cp_orphans(struct f2_fs *fs, int (*fn)(void *ctx, uint32_t ino), void *ctx)
{
	struct f2_orphan_block ob;
	uint32_t at;

	if (!fs->cp)
		return f2_fs_fail(fs, F2_ENOCP, "no checkpoint loaded");
	at = fs->packs[fs->cp_pack].start + 1 + f2_le32(fs->sb.cp_payload);
	for (uint32_t b = 0; b < fs->orphan_blocks; b++) {
		uint32_t n;
		int err = f2_fs_read_block(fs, at + b, &ob);

		if (err)
			return err;
		/* the kernel leaves check_sum zero: nothing to verify */
		n = f2_le32(ob.entry_count);
		if (n > F2_ORPHANS_PER_BLOCK)
			return f2_fs_fail(fs, F2_ERANGE, "orphan block %u: entry_count %u > %d",
					  b, n, F2_ORPHANS_PER_BLOCK);
		for (uint32_t i = 0; i < n; i++) {
			int r = fn(ctx, f2_le32(ob.ino[i]));

			if (r)
				return r;
		}
	}
	return 0;
}
