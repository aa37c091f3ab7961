// SPDX-License-Identifier: GPL-2.0-or-later
/* test_features.c - feature table: names, parsing, dependencies. */
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/format.h"
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
	UNIT_DONE();
}
