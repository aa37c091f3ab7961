// SPDX-License-Identifier: GPL-2.0-or-later
/* sbcopy.c - reading both superblock copies (sbcopy.h). */
#include <stdio.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/io.h"
#include "f2/sb.h"
#include "sbcopy.h"

const char *sb_copy_name(int i)
{
	return i ? "backup" : "primary";
}

int sb_read_copy(struct f2_io *io, int i, struct f2_super *sb, char *why, size_t len)
{
	uint8_t blk[F2_BLKSIZE];
	int err = f2_io_read_block(io, (uint64_t)i, blk);

	why[0] = 0;
	if (err) {
		snprintf(why, len, "cannot read it: %s", f2_strerror(err));
		return err;
	}
	memcpy(sb, blk + F2_SUPER_OFFSET, sizeof(*sb));
	err = f2_sb_verify(sb, 0, why, len);
	if (err && !why[0])
		snprintf(why, len, "%s", f2_strerror(err));
	return err;
}

int sb_read_both(struct f2_io *io, const char *prog, const char *dev, struct f2_super sb[2])
{
	char why[256];

	for (int i = 0; i < 2; i++) {
		if (sb_read_copy(io, i, &sb[i], why, sizeof(why))) {
			fprintf(stderr, "%s: %s: the %s superblock is not valid (%s); "
				"run fsck.f2fs first\n", prog, dev, sb_copy_name(i), why);
			return 1;
		}
	}
	return 0;
}
