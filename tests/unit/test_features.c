// SPDX-License-Identifier: GPL-2.0-or-later
/* test_features.c - feature table: names, parsing, dependencies, the bits
 * this version does not implement; the superblock's kernel records. */
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/format.h"
#include "f2/sb.h"
#include "unit.h"

int main(void)
{
	uint32_t set = 0, clear = 0, seen = 0;
	const char *bad = NULL;
	size_t bad_len = 0;
	const struct f2_feature *which;
	char buf[256];

	for (const struct f2_feature *f = f2_features; f->name; f++) {
		CHECK(!(seen & f->bit));	/* bits unique */
		seen |= f->bit;
		CHECK(f2_feature_by_name(f->name) == f);
		CHECK(f2_feature_by_bit(f->bit) == f);
	}
	CHECK_EQ(f2_features_parse("extra_attr,inode_checksum sb_checksum", &set, &clear,
				   &bad, &bad_len), 0);
	CHECK_EQ(set, F2_FEAT_EXTRA_ATTR | F2_FEAT_INODE_CHKSUM | F2_FEAT_SB_CHKSUM);
	CHECK_EQ(f2_features_parse("^sb_checksum", &set, &clear, &bad, &bad_len), 0);
	CHECK_EQ(set, F2_FEAT_EXTRA_ATTR | F2_FEAT_INODE_CHKSUM);
	CHECK_EQ(clear, F2_FEAT_SB_CHKSUM);
	CHECK_EQ(f2_features_parse("quota,bogus", &set, &clear, &bad, &bad_len), F2_EBADOPT);
	CHECK(bad && !strncmp(bad, "bogus", bad_len) && bad_len == 5);
	CHECK_EQ(f2_features_parse("blkzoned", &set, &clear, &bad, &bad_len), F2_EBADOPT);
	CHECK_EQ(f2_features_check(F2_FEAT_INODE_CHKSUM, &which), F2_EBADOPT);
	CHECK(which && which->bit == F2_FEAT_INODE_CHKSUM);
	CHECK_EQ(f2_features_check(F2_FEAT_INODE_CHKSUM | F2_FEAT_EXTRA_ATTR, &which), 0);
	f2_features_format(F2_FEAT_EXTRA_ATTR | F2_FEAT_QUOTA_INO | 0x80000000u, buf, sizeof(buf));
	CHECK(!strcmp(buf, "extra_attr,quota,unknown(0x80000000)"));

	/* Linux 6.12's fifteen bits are implemented; later and unknown ones not */
	CHECK_EQ(f2_features_unsupported(0x7fffu), 0u);
	CHECK_EQ(f2_features_unsupported(0x7fffu | F2_FEAT_DEVICE_ALIAS | F2_FEAT_PACKED_SSA |
					 0x80000000u),
		 F2_FEAT_DEVICE_ALIAS | F2_FEAT_PACKED_SSA | 0x80000000u);
	CHECK_EQ(f2_features_unreadable(F2_FEAT_DEVICE_ALIAS | F2_FEAT_PACKED_SSA | 0x80000000u),
		 F2_FEAT_DEVICE_ALIAS | 0x80000000u);
	f2_features_describe(F2_FEAT_DEVICE_ALIAS | F2_FEAT_PACKED_SSA | 0x80000000u, buf,
			     sizeof(buf));
	CHECK(!strcmp(buf, "device_alias (0x8000), packed_ssa (0x10000), 0x80000000"));
	CHECK_EQ(f2_features_writable(0x7fffu, buf, sizeof(buf)), 0);
	CHECK_EQ(f2_features_writable(F2_FEAT_PACKED_SSA, buf, sizeof(buf)), F2_EUNSUPP);
	CHECK(strstr(buf, "packed_ssa (0x10000) is not supported"));
	CHECK_EQ(f2_features_parse("device_alias", &set, &clear, &bad, &bad_len), F2_EBADOPT);
	f2_feature_unsupported_text(0x40000000u, buf, sizeof(buf));
	CHECK(strstr(buf, "0x40000000") && strstr(buf, "not read"));

	/* the kernel's records: names, counts, unnamed indices */
	{
		struct f2_super sb;

		memset(&sb, 0, sizeof(sb));
		CHECK(!f2_sb_has_records(&sb));
		CHECK(!strcmp(f2_stop_reason_name(0), "shutdown"));
		CHECK(!strcmp(f2_stop_reason_name(9), "corrupted_nid"));
		CHECK(!strcmp(f2_error_name(17), "inconsistent_orphan"));
		CHECK(f2_error_name(18) == NULL && f2_stop_reason_name(31) == NULL);
		sb.s_stop_reason[3] = 2;
		sb.s_stop_reason[20] = 255;
		sb.s_errors[1] = 0x40;		/* bit 14 */
		sb.s_errors[15] = 0x80;		/* bit 127 */
		CHECK(f2_sb_has_records(&sb));
		CHECK(f2_sb_error_set(&sb, 14) && !f2_sb_error_set(&sb, 13) &&
		      f2_sb_error_set(&sb, 127) && !f2_sb_error_set(&sb, 128));
		f2_sb_stop_reasons_format(&sb, buf, sizeof(buf));
		CHECK(!strcmp(buf, "write_fail(2) reason_20(255)"));
		f2_sb_errors_format(&sb, buf, sizeof(buf));
		CHECK(!strcmp(buf, "corrupted_xattr error_127"));
		f2_sb_clear_records(&sb);
		CHECK(!f2_sb_has_records(&sb));
	}
	UNIT_DONE();
}
