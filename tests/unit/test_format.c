// SPDX-License-Identifier: GPL-2.0-or-later
/* test_format.c - pin on-disk offsets and the endian accessors. */
#include "f2/format.h"
#include "unit.h"

int main(void)
{
	le32 v32 = f2_cpu_to_le32(0x11223344);
	le64 v64 = f2_cpu_to_le64(0x0102030405060708ull);
	const uint8_t *p = (const uint8_t *)&v32;

	CHECK(p[0] == 0x44 && p[3] == 0x11);
	CHECK_EQ(f2_le32(v32), 0x11223344);
	CHECK_EQ(f2_le64(v64), 0x0102030405060708ull);
	CHECK_EQ(f2_le16(f2_cpu_to_le16(0xabcd)), 0xabcd);

	CHECK_EQ(offsetof(struct f2_super, segment_count_main), 0x44);
	CHECK_EQ(offsetof(struct f2_super, main_blkaddr), 0x5c);
	CHECK_EQ(offsetof(struct f2_super, volume_name), 0x7c);
	CHECK_EQ(offsetof(struct f2_super, extension_list), 0x480);
	CHECK_EQ(offsetof(struct f2_super, version), 0x684);
	CHECK_EQ(offsetof(struct f2_super, encrypt_pw_salt), 0x889);
	CHECK_EQ(offsetof(struct f2_super, hot_ext_count), 0xac5);
	CHECK_EQ(offsetof(struct f2_super, s_encoding), 0xac6);
	CHECK_EQ(offsetof(struct f2_checkpoint, cur_node_segno), 36);
	CHECK_EQ(offsetof(struct f2_checkpoint, cur_data_blkoff), 116);
	CHECK_EQ(offsetof(struct f2_checkpoint, next_free_nid), 152);
	CHECK_EQ(offsetof(struct f2_checkpoint, checksum_offset), 164);
	CHECK_EQ(offsetof(struct f2_inode, i_generation), 68);
	CHECK_EQ(offsetof(struct f2_inode, i_name), 92);
	CHECK_EQ(offsetof(struct f2_inode, i_dir_level), 347);
	CHECK_EQ(offsetof(struct f2_inode, i_crtime), 372);
	CHECK_EQ(offsetof(struct f2_inode, i_compress_algorithm), 392);
	CHECK_EQ(offsetof(struct f2_node, footer.cp_ver), 4084);
	CHECK_EQ(offsetof(struct f2_node, footer.next_blkaddr), 4092);
	CHECK_EQ(offsetof(struct f2_dentry_block, dentry), 30);
	CHECK_EQ(offsetof(struct f2_dentry_block, filename), 30 + 214 * 11);
	CHECK_EQ(offsetof(struct f2_orphan_block, check_sum), 4092);
	CHECK_EQ(F2_NAT_ENTRIES_PER_BLOCK, 455);
	CHECK_EQ(F2_SIT_ENTRIES_PER_BLOCK, 55);
	CHECK_EQ(F2_NAT_JOURNAL_ENTRIES, 38);
	CHECK_EQ(F2_SIT_JOURNAL_ENTRIES, 6);
	CHECK_EQ(F2_EXTRA_ISIZE, offsetof(struct f2_inode, i_extra_end) -
				  offsetof(struct f2_inode, i_extra_isize));
	UNIT_DONE();
}
