// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_fields.c - the field tables (f2/fields.h) against f2/format.h: every
 * row has the offset, width and count of the member it names, every byte of
 * each structure belongs to exactly one row (the inode's extra attributes
 * overlay i_addr), names and aliases are unique in their structure, and
 * lookup by name, element and alias finds the right row.
 */
#include "f2/fields.h"
#include "f2/format.h"
#include "unit.h"

static unsigned checked[F2_ST_NR];

/* The row named name has this offset, element width, count and stride. */
static void check_row(enum f2_struct_id st, const char *name, size_t off, size_t width,
		      size_t count, size_t stride)
{
	const struct f2_struct_desc *d = f2_struct_get(st);
	const struct f2_field *f = NULL;

	for (uint32_t i = 0; i < d->n; i++)
		if (!strcmp(d->fields[i].name, name))
			f = &d->fields[i];
	if (!f) {
		fprintf(stderr, "%s: no row %s\n", d->name, name);
		unit_failures++;
		return;
	}
	checked[st]++;
	if (f->off != off || f->width != width || f->count != count ||
	    (f->stride ? f->stride : f->width) != stride) {
		fprintf(stderr, "%s.%s: table off %u width %u count %u stride %u, "
			"format.h off %zu width %zu count %zu stride %zu\n", d->name, name,
			f->off, f->width, f->count, f->stride, off, width, count, stride);
		unit_failures++;
	}
}

#define MSIZE(T, m) sizeof(((T *)0)->m)
/* A scalar (or a string, a byte string as one element) and an array. */
#define S(st, T, m) check_row(st, #m, offsetof(T, m), MSIZE(T, m), 1, MSIZE(T, m))
#define A(st, T, m) check_row(st, #m, offsetof(T, m), MSIZE(T, m[0]), \
			      MSIZE(T, m) / MSIZE(T, m[0]), MSIZE(T, m[0]))

static void check_super(void)
{
#define SB(m) S(F2_ST_SUPER, struct f2_super, m)
	SB(magic); SB(major_ver); SB(minor_ver); SB(log_sectorsize);
	SB(log_sectors_per_block); SB(log_blocksize); SB(log_blocks_per_seg);
	SB(segs_per_sec); SB(secs_per_zone); SB(checksum_offset); SB(block_count);
	SB(section_count); SB(segment_count); SB(segment_count_ckpt);
	SB(segment_count_sit); SB(segment_count_nat); SB(segment_count_ssa);
	SB(segment_count_main); SB(segment0_blkaddr); SB(cp_blkaddr); SB(sit_blkaddr);
	SB(nat_blkaddr); SB(ssa_blkaddr); SB(main_blkaddr); SB(root_ino); SB(node_ino);
	SB(meta_ino); SB(uuid); SB(volume_name); SB(extension_count); SB(cp_payload);
	SB(version); SB(init_version); SB(feature); SB(encryption_level);
	SB(encrypt_pw_salt); SB(hot_ext_count); SB(s_encoding); SB(s_encoding_flags);
	SB(reserved); SB(crc);
	A(F2_ST_SUPER, struct f2_super, extension_list);
	A(F2_ST_SUPER, struct f2_super, qf_ino);
	A(F2_ST_SUPER, struct f2_super, s_stop_reason);
	A(F2_ST_SUPER, struct f2_super, s_errors);
	check_row(F2_ST_SUPER, "devs.path", offsetof(struct f2_super, devs[0].path),
		  MSIZE(struct f2_device, path), F2_MAX_DEVICES, sizeof(struct f2_device));
	check_row(F2_ST_SUPER, "devs.total_segments",
		  offsetof(struct f2_super, devs[0].total_segments),
		  MSIZE(struct f2_device, total_segments), F2_MAX_DEVICES,
		  sizeof(struct f2_device));
#undef SB
}

static void check_cp(void)
{
#define CP(m) S(F2_ST_CHECKPOINT, struct f2_checkpoint, m)
#define CPA(m) A(F2_ST_CHECKPOINT, struct f2_checkpoint, m)
	CP(checkpoint_ver); CP(user_block_count); CP(valid_block_count);
	CP(rsvd_segment_count); CP(overprov_segment_count); CP(free_segment_count);
	CPA(cur_node_segno); CPA(cur_node_blkoff); CPA(cur_data_segno); CPA(cur_data_blkoff);
	CP(ckpt_flags); CP(cp_pack_total_block_count); CP(cp_pack_start_sum);
	CP(valid_node_count); CP(valid_inode_count); CP(next_free_nid);
	CP(sit_ver_bitmap_bytesize); CP(nat_ver_bitmap_bytesize); CP(checksum_offset);
	CP(elapsed_time); CPA(alloc_type);
#undef CP
#undef CPA
}

static void check_small(void)
{
	A(F2_ST_ORPHAN, struct f2_orphan_block, ino);
	S(F2_ST_ORPHAN, struct f2_orphan_block, reserved);
	S(F2_ST_ORPHAN, struct f2_orphan_block, blk_addr);
	S(F2_ST_ORPHAN, struct f2_orphan_block, blk_count);
	S(F2_ST_ORPHAN, struct f2_orphan_block, entry_count);
	S(F2_ST_ORPHAN, struct f2_orphan_block, check_sum);
	S(F2_ST_NAT_ENTRY, struct f2_nat_entry, version);
	S(F2_ST_NAT_ENTRY, struct f2_nat_entry, ino);
	S(F2_ST_NAT_ENTRY, struct f2_nat_entry, block_addr);
	S(F2_ST_SIT_ENTRY, struct f2_sit_entry, vblocks);
	A(F2_ST_SIT_ENTRY, struct f2_sit_entry, valid_map);
	S(F2_ST_SIT_ENTRY, struct f2_sit_entry, mtime);
	S(F2_ST_SUMMARY, struct f2_summary, nid);
	S(F2_ST_SUMMARY, struct f2_summary, version);
	S(F2_ST_SUMMARY, struct f2_summary, ofs_in_node);
	S(F2_ST_SUM_FOOTER, struct f2_summary_footer, entry_type);
	S(F2_ST_SUM_FOOTER, struct f2_summary_footer, check_sum);
	S(F2_ST_NODE_FOOTER, struct f2_node_footer, nid);
	S(F2_ST_NODE_FOOTER, struct f2_node_footer, ino);
	S(F2_ST_NODE_FOOTER, struct f2_node_footer, flag);
	S(F2_ST_NODE_FOOTER, struct f2_node_footer, cp_ver);
	S(F2_ST_NODE_FOOTER, struct f2_node_footer, next_blkaddr);
	S(F2_ST_DIR_ENTRY, struct f2_dir_entry, hash_code);
	S(F2_ST_DIR_ENTRY, struct f2_dir_entry, ino);
	S(F2_ST_DIR_ENTRY, struct f2_dir_entry, name_len);
	S(F2_ST_DIR_ENTRY, struct f2_dir_entry, file_type);
	A(F2_ST_DENTRY_BLOCK, struct f2_dentry_block, dentry_bitmap);
	A(F2_ST_DENTRY_BLOCK, struct f2_dentry_block, reserved);
	A(F2_ST_DENTRY_BLOCK, struct f2_dentry_block, dentry);
	A(F2_ST_DENTRY_BLOCK, struct f2_dentry_block, filename);
	A(F2_ST_DIRECT_NODE, struct f2_direct_node, addr);
	A(F2_ST_INDIRECT_NODE, struct f2_indirect_node, nid);
}

static void check_inode(void)
{
#define IN(m) S(F2_ST_INODE, struct f2_inode, m)
	IN(i_mode); IN(i_advise); IN(i_inline); IN(i_uid); IN(i_gid); IN(i_links);
	IN(i_size); IN(i_blocks); IN(i_atime); IN(i_ctime); IN(i_mtime);
	IN(i_atime_nsec); IN(i_ctime_nsec); IN(i_mtime_nsec); IN(i_generation);
	IN(i_current_depth); IN(i_xattr_nid); IN(i_flags); IN(i_pino); IN(i_namelen);
	IN(i_name); IN(i_dir_level); IN(i_ext.fofs); IN(i_ext.blk); IN(i_ext.len);
	IN(i_extra_isize); IN(i_inline_xattr_size); IN(i_projid); IN(i_inode_checksum);
	IN(i_crtime); IN(i_crtime_nsec); IN(i_compr_blocks); IN(i_compress_algorithm);
	IN(i_log_cluster_size); IN(i_compress_flag);
	A(F2_ST_INODE, struct f2_inode, i_addr);
	A(F2_ST_INODE, struct f2_inode, i_nid);
#undef IN
}

/* Sizes, byte coverage (each byte in exactly one row but the extra
 * attributes, which must lie inside i_addr and inside the extra area),
 * unique names and aliases, every row checked above. */
static void check_tables(void)
{
	static const size_t sizes[F2_ST_NR] = {
		[F2_ST_SUPER] = sizeof(struct f2_super),
		[F2_ST_CHECKPOINT] = sizeof(struct f2_checkpoint),
		[F2_ST_ORPHAN] = sizeof(struct f2_orphan_block),
		[F2_ST_NAT_ENTRY] = sizeof(struct f2_nat_entry),
		[F2_ST_SIT_ENTRY] = sizeof(struct f2_sit_entry),
		[F2_ST_SUMMARY] = sizeof(struct f2_summary),
		[F2_ST_SUM_FOOTER] = sizeof(struct f2_summary_footer),
		[F2_ST_NODE_FOOTER] = sizeof(struct f2_node_footer),
		[F2_ST_INODE] = sizeof(struct f2_inode),
		[F2_ST_DIR_ENTRY] = sizeof(struct f2_dir_entry),
		[F2_ST_DENTRY_BLOCK] = sizeof(struct f2_dentry_block),
		[F2_ST_DIRECT_NODE] = sizeof(struct f2_direct_node),
		[F2_ST_INDIRECT_NODE] = sizeof(struct f2_indirect_node),
	};
	static uint8_t cover[F2_BLKSIZE];

	CHECK(f2_struct_get(F2_ST_NR) == NULL);
	for (int st = 0; st < F2_ST_NR; st++) {
		const struct f2_struct_desc *d = f2_struct_get(st);

		CHECK(d && d->name && d->kname && d->n > 0);
		CHECK_EQ(d->size, sizes[st]);
		CHECK_EQ(checked[st], d->n);
		memset(cover, 0, sizeof(cover));
		for (uint32_t i = 0; i < d->n; i++) {
			const struct f2_field *f = &d->fields[i];
			uint32_t end = f2_field_offset(f, f->count - 1) + f->width;

			CHECK(f->name && f->meaning && f->count >= 1 && f->width >= 1);
			CHECK(f->used <= f->count);
			CHECK(f->fmt != F2_FMT_UINT || f->width <= 8 || !"number wider than 8");
			if (end > d->size) {
				fprintf(stderr, "%s.%s ends at %u, past %u\n", d->name, f->name,
					end, d->size);
				unit_failures++;
				continue;
			}
			for (uint32_t k = 0; k < f->count && !(f->flags & F2_FLD_EXTRA); k++)
				for (uint32_t b = 0; b < f->width; b++)
					cover[f2_field_offset(f, k) + b]++;
			if (f->flags & F2_FLD_EXTRA)
				CHECK(st == F2_ST_INODE &&
				      f->off >= offsetof(struct f2_inode, i_extra_isize) &&
				      end <= offsetof(struct f2_inode, i_extra_end));
			for (uint32_t j = 0; j < i; j++) {
				const struct f2_field *g = &d->fields[j];

				if (!strcmp(f->name, g->name) ||
				    (f->alias && (!strcmp(f->alias, g->name) ||
						  (g->alias && !strcmp(f->alias, g->alias)))) ||
				    (g->alias && !strcmp(g->alias, f->name))) {
					fprintf(stderr, "%s: %s and %s share a name\n", d->name,
						f->name, g->name);
					unit_failures++;
				}
			}
		}
		for (uint32_t b = 0; b < d->size; b++)
			if (cover[b] != 1) {
				fprintf(stderr, "%s: byte %u is in %u rows\n", d->name, b, cover[b]);
				unit_failures++;
				break;
			}
	}
}

static void check_find(void)
{
	const struct f2_field *f;
	uint32_t idx = 99;
	uint8_t blk[F2_BLKSIZE] = { 0 };
	struct f2_inode *in = (struct f2_inode *)blk;

	f = f2_field_find(F2_ST_INODE, "i_links", &idx);
	CHECK(f && f->off == offsetof(struct f2_inode, i_links) && idx == 0);
	CHECK(f2_field_find(F2_ST_INODE, "links", &idx) == f);
	f = f2_field_find(F2_ST_INODE, "i_nid[3]", &idx);
	CHECK(f && idx == 3 && f2_field_offset(f, idx) == offsetof(struct f2_inode, i_nid[3]));
	CHECK(f2_field_find(F2_ST_INODE, "nid3", &idx) == f && idx == 3);
	CHECK(f2_field_find(F2_ST_INODE, "i_nid[0x4]", &idx) == f && idx == 4);
	CHECK(f2_field_find(F2_ST_INODE, "i_nid[5]", &idx) == NULL);
	CHECK(f2_field_find(F2_ST_INODE, "i_nid", &idx) == NULL);
	CHECK(f2_field_find(F2_ST_INODE, "i_nid[1", &idx) == NULL);
	CHECK(f2_field_find(F2_ST_INODE, "i_links[0]", &idx) == NULL);
	CHECK(f2_field_find(F2_ST_INODE, "i_link", &idx) == NULL);
	CHECK(f2_field_find(F2_ST_INODE, "nosuch", &idx) == NULL);
	CHECK(f2_field_find(F2_ST_NR, "i_links", &idx) == NULL);
	f = f2_field_find(F2_ST_INODE, "i_ext.blk", &idx);
	CHECK(f && !strcmp(f2_field_label(f), "i_ext.blkaddr"));
	CHECK(f2_field_find(F2_ST_INODE, "ext_blk", &idx) == f);
	f = f2_field_find(F2_ST_SUPER, "qf_ino2", &idx);
	CHECK(f && idx == 2 && f2_field_offset(f, 2) == offsetof(struct f2_super, qf_ino[2]));
	f = f2_field_find(F2_ST_SUPER, "devs.total_segments[2]", &idx);
	CHECK(f && f2_field_offset(f, idx) ==
		   offsetof(struct f2_super, devs[2].total_segments));
	f = f2_field_find(F2_ST_SIT_ENTRY, "map0", &idx);
	CHECK(f && f2_field_offset(f, idx) == offsetof(struct f2_sit_entry, valid_map));

	/* get and set through a row equal the format.h accessors */
	f = f2_field_find(F2_ST_INODE, "i_size", &idx);
	f2_field_set(f, in, 0, 0x1122334455667788ull);
	CHECK_EQ(f2_le64(in->i_size), 0x1122334455667788ull);
	f2_set_le32(in->i_nid[2], 0xdeadbeef);
	f = f2_field_find(F2_ST_INODE, "i_nid[2]", &idx);
	CHECK_EQ(f2_field_get(f, in, idx), 0xdeadbeef);
	f2_field_set(f, in, 1, 7);
	CHECK_EQ(f2_le32(in->i_nid[1]), 7);
	CHECK_EQ(f2_le32(in->i_nid[2]), 0xdeadbeef);
}

int main(void)
{
	check_super();
	check_cp();
	check_small();
	check_inode();
	check_tables();
	check_find();
	UNIT_DONE();
}
