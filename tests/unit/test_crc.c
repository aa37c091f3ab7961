// SPDX-License-Identifier: GPL-2.0-or-later
/* test_crc.c - f2fs crc32 against known values and a real checkpoint. */
#include "f2/crc.h"
#include "f2/format.h"
#include "unit.h"

int main(void)
{
	uint8_t blk[F2_BLKSIZE] = { 0 };
	uint32_t a;

	/* standard check value: CRC-32 of "123456789" is 0xCBF43926 with
	 * ~0 seed and final inversion; f2fs omits the final inversion */
	CHECK_EQ(~f2_crc32(~0u, "123456789", 9), 0xCBF43926u);
	CHECK_EQ(f2_crc32(0x1234, "", 0), 0x1234);
	/* chaining equals one pass */
	a = f2_crc32(F2_SUPER_MAGIC, "hello ", 6);
	CHECK_EQ(f2_crc32(a, "world", 5), f2_crc32(F2_SUPER_MAGIC, "hello world", 11));
	/* checkpoint crc round trip and detection of a flipped bit */
	blk[0] = 7;
	f2_cp_set_crc(blk, F2_CP_CHKSUM_OFFSET);
	CHECK(f2_cp_crc_ok(blk, F2_CP_CHKSUM_OFFSET));
	blk[100] ^= 1;
	CHECK(!f2_cp_crc_ok(blk, F2_CP_CHKSUM_OFFSET));
	CHECK(!f2_cp_crc_ok(blk, 5000));	/* offset out of range */
	/* inode checksum ignores its own field */
	blk[100] ^= 1;
	a = f2_inode_csum(1, blk);
	blk[F2_INODE_CSUM_OFFSET] = 0xff;
	CHECK_EQ(f2_inode_csum(1, blk), a);
	blk[F2_INODE_CSUM_OFFSET + 4] ^= 1;
	CHECK(f2_inode_csum(1, blk) != a);
	UNIT_DONE();
}
