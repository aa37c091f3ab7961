// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fields.c - the field tables of the on-disk structures (f2/fields.h):
 * offsets and widths written out as the format defines them, checked
 * against f2/format.h by tests/unit/test_fields.c.
 */
#include <stdlib.h>
#include <string.h>
#include "f2/fields.h"
#include "f2/format.h"

/* A scalar, with an f2field alias, an array, an array with an alias. */
#define U(n, o, w, m)		{ .name = n, .off = o, .width = w, .count = 1, .meaning = m }
#define UA(n, a, o, w, m)	{ .name = n, .alias = a, .off = o, .width = w, .count = 1, .meaning = m }
#define ARR(n, o, w, c, m)	{ .name = n, .off = o, .width = w, .count = c, .meaning = m }
#define ARRA(n, a, o, w, c, m)	{ .name = n, .alias = a, .off = o, .width = w, .count = c, .meaning = m }

static const struct f2_field super_fields[] = {
	U("magic", 0x000, 4, "0xF2F52010"),
	U("major_ver", 0x004, 2, "format major version"),
	U("minor_ver", 0x006, 2, "format minor version"),
	U("log_sectorsize", 0x008, 4, "log2 of the sector size"),
	U("log_sectors_per_block", 0x00c, 4, "log2 of sectors per block"),
	U("log_blocksize", 0x010, 4, "log2 of the block size (12)"),
	U("log_blocks_per_seg", 0x014, 4, "log2 of blocks per segment (9)"),
	U("segs_per_sec", 0x018, 4, "segments per section"),
	U("secs_per_zone", 0x01c, 4, "sections per zone"),
	U("checksum_offset", 0x020, 4, "byte offset of crc in the superblock"),
	U("block_count", 0x024, 8, "blocks of the volume"),
	U("section_count", 0x02c, 4, "sections of the main area"),
	U("segment_count", 0x030, 4, "segments of the volume from segment0_blkaddr"),
	U("segment_count_ckpt", 0x034, 4, "segments of the checkpoint area"),
	U("segment_count_sit", 0x038, 4, "segments of the SIT area (both copies)"),
	U("segment_count_nat", 0x03c, 4, "segments of the NAT area (both copies)"),
	U("segment_count_ssa", 0x040, 4, "segments of the SSA area"),
	U("segment_count_main", 0x044, 4, "segments of the main area"),
	U("segment0_blkaddr", 0x048, 4, "first block of segment 0"),
	U("cp_blkaddr", 0x04c, 4, "first block of the checkpoint area"),
	U("sit_blkaddr", 0x050, 4, "first block of the SIT area"),
	U("nat_blkaddr", 0x054, 4, "first block of the NAT area"),
	U("ssa_blkaddr", 0x058, 4, "first block of the SSA area"),
	U("main_blkaddr", 0x05c, 4, "first block of the main area"),
	U("root_ino", 0x060, 4, "root directory inode"),
	U("node_ino", 0x064, 4, "node inode number (1)"),
	U("meta_ino", 0x068, 4, "meta inode number (2)"),
	{ .name = "uuid", .off = 0x06c, .width = 16, .count = 1, .fmt = F2_FMT_HEX,
	  .meaning = "volume uuid" },
	{ .name = "volume_name", .label = "volum_name", .off = 0x07c, .width = 1024, .count = 1,
	  .fmt = F2_FMT_UTF16, .meaning = "volume label, UTF-16LE" },
	U("extension_count", 0x47c, 4, "entries of extension_list that are cold"),
	{ .name = "extension_list", .off = 0x480, .width = 8, .count = 64, .fmt = F2_FMT_STR,
	  .flags = F2_FLD_RAW, .meaning = "file extensions: cold, then hot_ext_count hot ones" },
	U("cp_payload", 0x680, 4, "extra blocks of SIT/NAT bitmap after each cp head"),
	{ .name = "version", .off = 0x684, .width = 256, .count = 1, .fmt = F2_FMT_STR,
	  .meaning = "kernel or tools version that last wrote it" },
	{ .name = "init_version", .off = 0x784, .width = 256, .count = 1, .fmt = F2_FMT_STR,
	  .meaning = "version that made the file system" },
	U("feature", 0x884, 4, "feature bits (F2_FEAT_*)"),
	U("encryption_level", 0x888, 1, "encryption level"),
	{ .name = "encrypt_pw_salt", .off = 0x889, .width = 16, .count = 1, .fmt = F2_FMT_HEX,
	  .flags = F2_FLD_RAW, .meaning = "encryption password salt" },
	{ .name = "devs.path", .off = 0x899, .width = 64, .count = 8, .stride = 68,
	  .fmt = F2_FMT_STR, .flags = F2_FLD_RAW, .meaning = "device path (multi-device)" },
	{ .name = "devs.total_segments", .off = 0x8d9, .width = 4, .count = 8, .stride = 68,
	  .flags = F2_FLD_RAW, .meaning = "segments of the device" },
	ARRA("qf_ino", NULL, 0xab9, 4, 3, "quota file inodes: user, group, project"),
	U("hot_ext_count", 0xac5, 1, "hot entries at the end of extension_list"),
	U("s_encoding", 0xac6, 2, "casefold encoding (1: utf8-12.1)"),
	U("s_encoding_flags", 0xac8, 2, "casefold encoding flags"),
	{ .name = "s_stop_reason", .off = 0xaca, .width = 1, .count = 32,
	  .flags = F2_FLD_RAW, .meaning = "counts of the reasons the driver stopped checkpoints" },
	{ .name = "s_errors", .off = 0xaea, .width = 1, .count = 16,
	  .flags = F2_FLD_RAW, .meaning = "bitmap of errors the driver found" },
	{ .name = "reserved", .off = 0xafa, .width = 258, .count = 1, .fmt = F2_FMT_BYTES,
	  .flags = F2_FLD_RAW, .meaning = "zero" },
	U("crc", 0xbfc, 4, "crc32 of the bytes before checksum_offset (sb_checksum)"),
};

static const struct f2_field cp_fields[] = {
	U("checkpoint_ver", 0, 8, "version of this pack; the newer valid pack wins"),
	U("user_block_count", 8, 8, "blocks users may fill"),
	U("valid_block_count", 16, 8, "valid blocks (data and node)"),
	U("rsvd_segment_count", 24, 4, "segments reserved for cleaning"),
	U("overprov_segment_count", 28, 4, "over-provisioned segments"),
	U("free_segment_count", 32, 4, "free segments of the main area"),
	{ .name = "cur_node_segno", .off = 36, .width = 4, .count = 8, .used = 3,
	  .meaning = "current segment of each node log (hot, warm, cold)" },
	{ .name = "cur_node_blkoff", .off = 68, .width = 2, .count = 8, .used = 3,
	  .meaning = "next block offset in each node log's segment" },
	{ .name = "cur_data_segno", .off = 84, .width = 4, .count = 8, .used = 3,
	  .meaning = "current segment of each data log (hot, warm, cold)" },
	{ .name = "cur_data_blkoff", .off = 116, .width = 2, .count = 8, .used = 3,
	  .meaning = "next block offset in each data log's segment" },
	U("ckpt_flags", 132, 4, "checkpoint flags (F2_CP_*)"),
	U("cp_pack_total_block_count", 136, 4, "blocks of the pack, head to tail"),
	U("cp_pack_start_sum", 140, 4, "block of the first summary in the pack"),
	U("valid_node_count", 144, 4, "valid node blocks"),
	U("valid_inode_count", 148, 4, "valid inodes"),
	U("next_free_nid", 152, 4, "where to look for a free nid"),
	U("sit_ver_bitmap_bytesize", 156, 4, "bytes of the SIT version bitmap"),
	U("nat_ver_bitmap_bytesize", 160, 4, "bytes of the NAT version bitmap"),
	U("checksum_offset", 164, 4, "byte offset of the crc in the head block"),
	U("elapsed_time", 168, 8, "seconds the volume has been mounted"),
	{ .name = "alloc_type", .off = 176, .width = 1, .count = 16, .used = 6,
	  .flags = F2_FLD_PERLOG, .meaning = "allocation mode of each log (0 LFS, 1 SSR)" },
};

static const struct f2_field orphan_fields[] = {
	ARRA("ino", NULL, 0, 4, 1020, "orphan inode numbers"),
	U("reserved", 4080, 4, "zero"),
	U("blk_addr", 4084, 2, "index of this block in the orphan area"),
	U("blk_count", 4086, 2, "orphan blocks of the pack"),
	U("entry_count", 4088, 4, "inodes listed in this block"),
	U("check_sum", 4092, 4, "crc32 of the first 4092 bytes"),
};

static const struct f2_field nat_fields[] = {
	U("version", 0, 1, "version of the node"),
	U("ino", 1, 4, "inode the node belongs to"),
	{ .name = "block_addr", .label = "blkaddr", .alias = "blkaddr", .off = 5, .width = 4,
	  .count = 1, .meaning = "block of the node (0: nid free)" },
};

static const struct f2_field sit_fields[] = {
	U("vblocks", 0, 2, "valid blocks | segment type << 10"),
	{ .name = "valid_map", .alias = "map", .off = 2, .width = 1, .count = 64,
	  .flags = F2_FLD_RAW, .meaning = "validity of each block, most significant bit first" },
	U("mtime", 66, 8, "segment age for cleaning"),
};

static const struct f2_field summary_fields[] = {
	U("nid", 0, 4, "node owning the block (the node itself for node blocks)"),
	U("version", 4, 1, "node version (data blocks)"),
	UA("ofs_in_node", "ofs", 5, 2, "index of the block's address in the node (data blocks)"),
};

static const struct f2_field sum_footer_fields[] = {
	U("entry_type", 0, 1, "1 node, 0 data"),
	U("check_sum", 1, 4, "summary checksum (unused)"),
};

static const struct f2_field footer_fields[] = {
	UA("nid", "footer_nid", 0, 4, "nid of this node"),
	UA("ino", "footer_ino", 4, 4, "inode the node belongs to"),
	UA("flag", "footer_flag", 8, 4, "cold/fsync/dentry marks | node offset << 3"),
	U("cp_ver", 12, 8, "checkpoint version when written (with crc in the high half)"),
	U("next_blkaddr", 20, 4, "next block of the warm node log (roll-forward)"),
};

static const struct f2_field inode_fields[] = {
	UA("i_mode", "mode", 0, 2, "file type and permissions"),
	UA("i_advise", "advise", 2, 1, "advice flags (F2_ADVISE_*)"),
	UA("i_uid", "uid", 4, 4, "owner user"),
	UA("i_gid", "gid", 8, 4, "owner group"),
	UA("i_links", "links", 12, 4, "hard links"),
	UA("i_size", "size", 16, 8, "bytes"),
	UA("i_blocks", "blocks", 24, 8, "512-byte sectors, the inode's own block included"),
	U("i_atime", 32, 8, "access time, seconds"),
	U("i_atime_nsec", 56, 4, "access time, nanoseconds"),
	U("i_ctime", 40, 8, "change time, seconds"),
	U("i_ctime_nsec", 60, 4, "change time, nanoseconds"),
	U("i_mtime", 48, 8, "modification time, seconds"),
	U("i_mtime_nsec", 64, 4, "modification time, nanoseconds"),
	U("i_generation", 68, 4, "generation number"),
	UA("i_current_depth", "depth", 72, 4, "directory depth (i_gc_failures for files)"),
	UA("i_xattr_nid", "xattr_nid", 76, 4, "node of the xattr block"),
	UA("i_flags", "flags", 80, 4, "file flags (FS_*_FL)"),
	UA("i_inline", "inline", 3, 1, "inline flags (F2_INLINE_*, F2_EXTRA_ATTR)"),
	U("i_pino", 84, 4, "parent directory inode"),
	UA("i_dir_level", "dir_level", 347, 1, "directory hash level"),
	UA("i_namelen", "namelen", 88, 4, "bytes of i_name"),
	{ .name = "i_name", .off = 92, .width = 255, .count = 1, .fmt = F2_FMT_STR,
	  .flags = F2_FLD_RAW, .meaning = "file name (i_namelen bytes)" },
	UA("i_ext.fofs", "ext_fofs", 348, 4, "largest extent: first file block"),
	{ .name = "i_ext.blk", .label = "i_ext.blkaddr", .alias = "ext_blk", .off = 352,
	  .width = 4, .count = 1, .meaning = "largest extent: first block address" },
	UA("i_ext.len", "ext_len", 356, 4, "largest extent: blocks"),
	{ .name = "i_extra_isize", .alias = "extra_isize", .off = 360, .width = 2, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "bytes of extra attributes at i_addr[0]" },
	{ .name = "i_inline_xattr_size", .off = 362, .width = 2, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "inline xattr area, 4-byte words" },
	{ .name = "i_projid", .alias = "projid", .off = 364, .width = 4, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "project id" },
	{ .name = "i_inode_checksum", .alias = "csum", .off = 368, .width = 4, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "inode checksum" },
	{ .name = "i_crtime", .off = 372, .width = 8, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "creation time, seconds" },
	{ .name = "i_crtime_nsec", .off = 380, .width = 4, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "creation time, nanoseconds" },
	{ .name = "i_compr_blocks", .off = 384, .width = 8, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "blocks saved by compression" },
	{ .name = "i_compress_algorithm", .off = 392, .width = 1, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "compression algorithm" },
	{ .name = "i_log_cluster_size", .off = 393, .width = 1, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "log2 of blocks per cluster" },
	{ .name = "i_compress_flag", .off = 394, .width = 2, .count = 1,
	  .flags = F2_FLD_EXTRA, .meaning = "compression flags and level" },
	{ .name = "i_addr", .off = 360, .width = 4, .count = 923, .flags = F2_FLD_SPARSE,
	  .meaning = "data block addresses (from i_extra_isize / 4; inline data lives here)" },
	ARRA("i_nid", "nid", 4052, 4, 5, "direct (2), indirect (2), double-indirect node ids"),
};

static const struct f2_field dir_entry_fields[] = {
	UA("hash_code", "hash", 0, 4, "hash of the name"),
	U("ino", 4, 4, "inode number"),
	U("name_len", 8, 2, "bytes of the name"),
	U("file_type", 10, 1, "F2_FT_* type"),
};

static const struct f2_field dentry_block_fields[] = {
	{ .name = "dentry_bitmap", .off = 0, .width = 1, .count = 27, .flags = F2_FLD_RAW,
	  .meaning = "slots in use, least significant bit first" },
	{ .name = "reserved", .off = 27, .width = 1, .count = 3, .flags = F2_FLD_RAW,
	  .meaning = "zero" },
	{ .name = "dentry", .off = 30, .width = 11, .count = 214, .fmt = F2_FMT_BYTES,
	  .flags = F2_FLD_RAW, .meaning = "directory entries (struct f2_dir_entry)" },
	{ .name = "filename", .off = 2384, .width = 8, .count = 214, .fmt = F2_FMT_BYTES,
	  .flags = F2_FLD_RAW, .meaning = "8-byte name slots" },
};

static const struct f2_field direct_node_fields[] = {
	ARR("addr", 0, 4, F2_ADDRS_PER_BLOCK, "data block addresses"),
};

static const struct f2_field indirect_node_fields[] = {
	ARR("nid", 0, 4, F2_NIDS_PER_BLOCK, "node ids of the next level"),
};

#define DESC(n, k, size, t) { n, k, size, t, sizeof(t) / sizeof(t[0]) }
static const struct f2_struct_desc structs[F2_ST_NR] = {
	[F2_ST_SUPER] = DESC("super", "f2fs_super_block", 3072, super_fields),
	[F2_ST_CHECKPOINT] = DESC("checkpoint", "f2fs_checkpoint", 192, cp_fields),
	[F2_ST_ORPHAN] = DESC("orphan", "f2fs_orphan_block", 4096, orphan_fields),
	[F2_ST_NAT_ENTRY] = DESC("nat_entry", "f2fs_nat_entry", 9, nat_fields),
	[F2_ST_SIT_ENTRY] = DESC("sit_entry", "f2fs_sit_entry", 74, sit_fields),
	[F2_ST_SUMMARY] = DESC("summary", "f2fs_summary", 7, summary_fields),
	[F2_ST_SUM_FOOTER] = DESC("summary_footer", "summary_footer", 5, sum_footer_fields),
	[F2_ST_NODE_FOOTER] = DESC("node_footer", "node_footer", 24, footer_fields),
	[F2_ST_INODE] = DESC("inode", "f2fs_inode", 4072, inode_fields),
	[F2_ST_DIR_ENTRY] = DESC("dir_entry", "f2fs_dir_entry", 11, dir_entry_fields),
	[F2_ST_DENTRY_BLOCK] = DESC("dentry_block", "f2fs_dentry_block", 4096, dentry_block_fields),
	[F2_ST_DIRECT_NODE] = DESC("direct_node", "direct_node", 4072, direct_node_fields),
	[F2_ST_INDIRECT_NODE] = DESC("indirect_node", "indirect_node", 4072, indirect_node_fields),
};

const struct f2_struct_desc *f2_struct_get(enum f2_struct_id id)
{
	return (unsigned)id < F2_ST_NR ? &structs[id] : NULL;
}

/* s is exactly "[N]" (brackets) or "N" (legacy suffix): *index = N. */
static int parse_index(const char *s, int brackets, uint32_t *index)
{
	char *end;
	unsigned long v;

	if (brackets && *s++ != '[')
		return 0;
	if (*s < '0' || *s > '9')
		return 0;
	v = strtoul(s, &end, 0);
	if (brackets ? (end[0] != ']' || end[1]) : *end)
		return 0;
	*index = (uint32_t)v;
	return v <= UINT32_MAX;
}

/* name is n, or n + an index suffix of the right form for an array. */
static int match(const struct f2_field *f, const char *n, const char *name, int legacy,
		 uint32_t *index)
{
	size_t len;

	if (!n)
		return 0;
	len = strlen(n);
	if (strncmp(name, n, len))
		return 0;
	*index = 0;
	if (!name[len])
		return f->count == 1;
	if (f->count == 1)
		return 0;
	if (!parse_index(name + len, 1, index) && !(legacy && parse_index(name + len, 0, index)))
		return 0;
	return *index < f->count;
}

const struct f2_field *f2_field_find(enum f2_struct_id id, const char *name, uint32_t *index)
{
	const struct f2_struct_desc *d = f2_struct_get(id);
	uint32_t i;

	if (!d || !name)
		return NULL;
	for (i = 0; i < d->n; i++)
		if (match(&d->fields[i], d->fields[i].name, name, 1, index) ||
		    match(&d->fields[i], d->fields[i].alias, name, 1, index))
			return &d->fields[i];
	return NULL;
}

uint64_t f2_field_get(const struct f2_field *f, const void *base, uint32_t index)
{
	const uint8_t *p = (const uint8_t *)base + f2_field_offset(f, index);
	uint64_t v = 0;

	for (unsigned i = f->width > 8 ? 8 : f->width; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

void f2_field_set(const struct f2_field *f, void *base, uint32_t index, uint64_t v)
{
	uint8_t *p = (uint8_t *)base + f2_field_offset(f, index);

	for (unsigned i = 0; i < f->width && i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
