// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meta.c - dump.f2fs metadata printers: NAT (-n), SIT (-s), SSA (-a),
 * one block (-b) and the segment map (-M).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/fs.h"
#include "dump.h"
#include "fields.h"

static const char *const seg_type_names[] = { "HD", "WD", "CD", "HN", "WN", "CN" };

void dump_nat(struct dump_ctx *d, uint64_t start, uint64_t end)
{
	struct f2_fs *fs = d->fs;
	struct f2_node node;

	if (end > fs->max_nid)
		end = fs->max_nid;
	out_arr_begin(d->o, "nat");
	for (uint64_t nid = start; nid < end; nid++) {
		struct f2_nat_info ni;
		uint32_t blk_off = (uint32_t)(nid / F2_NAT_ENTRIES_PER_BLOCK);
		int pack = f2_test_bit_msb(fs->nat_bitmap, blk_off) + 1, ofs = -1;

		if (nid == 0 || nid == F2_NODE_INO || nid == F2_META_INO)
			continue;
		if (f2_nat_lookup(fs, (uint32_t)nid, &ni)) {
			dump_error(d, "%s", fs->why);
			break;
		}
		if (!ni.blkaddr)
			continue;
		if (f2_fs_in_main(fs, ni.blkaddr) && !f2_fs_read_block(fs, ni.blkaddr, &node))
			ofs = (int)f2_node_ofs(&node);
		if (d->o->json) {
			out_obj_begin(d->o, NULL, NULL);
			out_u64(d->o, "nid", ni.nid);
			out_u64(d->o, "ino", ni.ino);
			out_i64(d->o, "offset", ofs);
			out_u64(d->o, "blkaddr", ni.blkaddr);
			out_u64(d->o, "version", ni.version);
			out_u64(d->o, "pack", (uint64_t)pack);
			out_u64(d->o, "journal", (uint64_t)ni.in_journal);
			out_obj_end(d->o);
		} else {
			fprintf(d->o->f, "nid:%5u\tino:%5u\toffset:%5d\tblkaddr:%10u\tpack:%d%s\n",
				ni.nid, ni.ino, ofs, ni.blkaddr, pack, ni.in_journal ? "\tjournal" : "");
		}
	}
	out_arr_end(d->o);
}

void dump_sit(struct dump_ctx *d, uint64_t start, uint64_t end)
{
	struct f2_fs *fs = d->fs;

	if (end > fs->main_segs)
		end = fs->main_segs;
	out_text(d->o, "segment_type(0:HD, 1:WD, 2:CD, 3:HN, 4:WN, 5:CN)\n");
	out_arr_begin(d->o, "sit");
	for (uint64_t s = start; s < end; s++) {
		struct f2_sit_info si;
		uint32_t blk_off = (uint32_t)(s / F2_SIT_ENTRIES_PER_BLOCK);
		int pack = f2_test_bit_msb(fs->sit_bitmap, blk_off) + 1;

		if (f2_sit_get(fs, (uint32_t)s, &si)) {
			dump_error(d, "%s", fs->why);
			break;
		}
		if (d->o->json) {
			out_obj_begin(d->o, NULL, NULL);
			out_u64(d->o, "segno", si.segno);
			out_u64(d->o, "vblocks", si.vblocks);
			out_u64(d->o, "seg_type", si.type);
			out_u64(d->o, "sit_pack", (uint64_t)pack);
			out_u64(d->o, "journal", (uint64_t)si.in_journal);
			out_u64(d->o, "mtime", si.mtime);
			out_hex(d->o, "valid_map", si.valid_map, sizeof(si.valid_map));
			out_obj_end(d->o);
			continue;
		}
		fprintf(d->o->f, "\nsegno:%8u\tvblocks:%3u\tseg_type:%u\tsit_pack:%d%s\n\n",
			si.segno, si.vblocks, si.type, pack, si.in_journal ? "\tjournal" : "");
		if (!si.vblocks)
			continue;
		for (int i = 0; i < F2_SIT_VBLOCK_MAP_SIZE; i++)
			fprintf(d->o->f, "  %02x%s", si.valid_map[i], i % 16 == 15 ? "\n" : "");
	}
	out_arr_end(d->o);
}

void dump_ssa(struct dump_ctx *d, uint64_t start, uint64_t end)
{
	struct f2_fs *fs = d->fs;
	struct f2_summary_block *sum = malloc(sizeof(*sum));
	const struct f2_struct_desc *sd = f2_struct_get(F2_ST_SUMMARY);

	if (!sum) {
		dump_error(d, "out of memory");
		return;
	}
	if (end > fs->main_segs)
		end = fs->main_segs;
	out_text(d->o, "Note: blkaddr = 0x%x + segno * 0x200 + offset\n", fs->main_blkaddr);
	out_arr_begin(d->o, "ssa");
	for (uint64_t s = start; s < end; s++) {
		int from_cp = 0, node, cur = f2_curseg_of(fs, (uint32_t)s);

		if (f2_ssa_read(fs, (uint32_t)s, sum, &from_cp)) {
			dump_error(d, "%s", fs->why);
			break;
		}
		node = sum->footer.entry_type == F2_SUM_TYPE_NODE;
		if (d->o->json) {
			out_obj_begin(d->o, NULL, NULL);
			out_u64(d->o, "segno", s);
			out_str(d->o, "type", node ? "node" : "data", 4);
			out_u64(d->o, "current", cur >= 0);
			out_u64(d->o, "from_checkpoint", (uint64_t)from_cp);
			out_arr_begin(d->o, "entries");
			for (int i = 0; i < F2_ENTRIES_IN_SUM; i++) {
				out_obj_begin(d->o, NULL, NULL);
				/* node blocks: only nid is meaningful */
				for (uint32_t k = 0; k < (node ? 1 : sd->n); k++)
					print_row(d->o, &sd->fields[k], &sum->entries[i], "");
				out_obj_end(d->o);
			}
			out_arr_end(d->o);
			out_obj_end(d->o);
			continue;
		}
		fprintf(d->o->f, "\n\nsegno: %" PRIx64 ", %s%s\n\n", s, cur >= 0 ? "Current " : "",
			node ? "Node" : "Data");
		for (int i = 0; i < F2_ENTRIES_IN_SUM; i++) {
			if (node)
				fprintf(d->o->f, "[%3d: %6x]", i, f2_le32(sum->entries[i].nid));
			else
				fprintf(d->o->f, "[%3d: %6x,%u,%u]", i, f2_le32(sum->entries[i].nid),
					sum->entries[i].version,
					f2_le16(sum->entries[i].ofs_in_node));
			if (i % 10 == 9 || i == F2_ENTRIES_IN_SUM - 1)
				fputc('\n', d->o->f);
		}
	}
	out_arr_end(d->o);
	free(sum);
}

static const char *area_of(const struct f2_fs *fs, uint64_t b)
{
	const struct f2_super *sb = &fs->sb;

	if (b < 2)
		return "superblock";
	if (b < f2_le32(sb->cp_blkaddr))
		return "reserved";
	if (b < fs->sit_blkaddr)
		return "checkpoint";
	if (b < fs->nat_blkaddr)
		return "SIT";
	if (b < fs->ssa_blkaddr)
		return "NAT";
	if (b < fs->main_blkaddr)
		return "SSA";
	if (f2_fs_in_main(fs, b))
		return "main";
	return "beyond main";
}

/* A data block's owner: inode and file block, checked by mapping back. */
static void data_owner(struct dump_ctx *d, uint64_t b, uint32_t nid, uint32_t ofs_in_node)
{
	struct f2_fs *fs = d->fs;
	struct f2_node *node = malloc(sizeof(*node));
	struct f2_file *f = NULL;
	struct f2_nat_info ni;
	int64_t start;
	uint32_t addr;

	if (!node || f2_node_read(fs, nid, 0, node, &ni) ||
	    f2_file_open(fs, f2_le32(node->footer.ino), &f)) {
		out_str(d->o, "owner.error", fs->why, strlen(fs->why));
		goto out;
	}
	start = f2_file_node_start(f, f2_node_ofs(node));
	out_u64(d->o, "owner.ino", f->ir.ino);
	if (start < 0) {
		out_str(d->o, "owner.error", "summary names an indirect node", 30);
		goto out;
	}
	out_u64(d->o, "owner.file_block", (uint64_t)(start + ofs_in_node));
	out_u64(d->o, "owner.maps_back",
		!f2_file_map(f, (uint64_t)(start + ofs_in_node), &addr, NULL) && addr == b);
out:
	f2_file_close(f);
	free(node);
}

void dump_block(struct dump_ctx *d, uint64_t b)
{
	struct f2_fs *fs = d->fs;
	struct f2_summary_block sum;
	struct f2_node node;
	struct f2_sit_info si;
	struct f2_nat_info ni;
	uint32_t segno, off, nid;
	const char *area = area_of(fs, b);

	out_obj_begin(d->o, "block", "Block");
	out_u64(d->o, "blkaddr", b);
	out_str(d->o, "area", area, strlen(area));
	if (!f2_fs_in_main(fs, b)) {
		if (b >= fs->block_count)
			dump_error(d, "block %" PRIu64 " is beyond the volume", b);
		out_obj_end(d->o);
		return;
	}
	segno = f2_fs_segno(fs, b);
	off = (uint32_t)(b - f2_fs_seg_start(fs, segno));
	out_u64(d->o, "segno", segno);
	out_u64(d->o, "offset", off);
	if (!f2_sit_get(fs, segno, &si)) {
		out_u64(d->o, "SIT.seg_type", si.type);
		out_u64(d->o, "SIT.valid", (uint64_t)f2_test_bit_msb(si.valid_map, off));
	}
	if (f2_ssa_read(fs, segno, &sum, NULL)) {
		dump_error(d, "%s", fs->why);
		out_obj_end(d->o);
		return;
	}
	nid = f2_le32(sum.entries[off].nid);
	out_u64(d->o, "SUM.nid", nid);
	out_str(d->o, "SUM.type", sum.footer.entry_type == F2_SUM_TYPE_NODE ? "node" : "data", 4);
	out_u64(d->o, "SUM.version", sum.entries[off].version);
	out_u64(d->o, "SUM.ofs_in_node", f2_le16(sum.entries[off].ofs_in_node));
	if (nid && !f2_nat_lookup(fs, nid, &ni)) {
		out_u64(d->o, "NAT.blkaddr", ni.blkaddr);
		out_u64(d->o, "NAT.ino", ni.ino);
	}
	if (sum.footer.entry_type == F2_SUM_TYPE_DATA && nid)
		data_owner(d, b, nid, f2_le16(sum.entries[off].ofs_in_node));
	if (sum.footer.entry_type == F2_SUM_TYPE_NODE && !f2_fs_read_block(fs, b, &node)) {
		print_footer(d->o, &node);
		if (f2_le32(node.footer.nid) == f2_le32(node.footer.ino) && !f2_node_ofs(&node)) {
			out_obj_begin(d->o, "inode", "Inode");
			print_inode(d->o, &node);
			out_obj_end(d->o);
		}
	}
	out_obj_end(d->o);
}

void dump_map(struct dump_ctx *d)
{
	struct f2_fs *fs = d->fs;
	uint64_t valid = 0, used = 0, bytype[6] = { 0 };
	char line[65];
	int n = 0;

	out_text(d->o, "segment map: '.' free, 0-5 type of a segment with valid blocks "
		 "(0:HD 1:WD 2:CD 3:HN 4:WN 5:CN), '?' unknown type\n");
	for (uint32_t s = 0; s < fs->main_segs; s++) {
		struct f2_sit_info si;

		if (f2_sit_get(fs, s, &si)) {
			dump_error(d, "%s", fs->why);
			break;
		}
		valid += si.vblocks;
		if (si.vblocks) {
			used++;
			if (si.type < 6)
				bytype[si.type]++;
		}
		line[n++] = !si.vblocks ? '.' : si.type < 6 ? (char)('0' + si.type) : '?';
		if (n == 64 || s + 1 == fs->main_segs) {
			line[n] = 0;
			out_text(d->o, "%8u  %s\n", s + 1 - (uint32_t)n, line);
			n = 0;
		}
	}
	out_obj_begin(d->o, "map", "Block map");
	out_u64(d->o, "valid_blocks", valid);
	out_u64(d->o, "used_segs", used);
	out_u64(d->o, "free_segs", fs->main_segs - used);
	for (int t = 0; t < 6; t++) {
		char k[32];

		snprintf(k, sizeof(k), "segs_%s", seg_type_names[t]);
		out_u64(d->o, k, bytype[t]);
	}
	out_obj_end(d->o);
}
