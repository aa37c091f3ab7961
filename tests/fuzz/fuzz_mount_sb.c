// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_mount_sb.c - fuzz target "mount_sb": mount.f2fs's check of the
 * volume, mh_fsinfo_read() from mount-helper/fsinfo.c compiled in as it
 * is (f2_fs_open with sb_only, the volume label, then f2_fs_open with the
 * checkpoint, through the unix backend and, for multi-device superblocks,
 * the device-opening path), and mh_fsinfo_state(), on the input's image
 * as a file (memfd.c).
 */
#include <stdint.h>
#include <stddef.h>
#include "fsinfo.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_file_begin(data, size);
	struct mh_fsinfo fi;
	char why[512], state[512];

	if (mh_fsinfo_read(path, &fi, why, sizeof(why)) == 0)
		mh_fsinfo_state(&fi, state, sizeof(state));
	fz_file_end(data, size);
	return 0;
}
