// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_fsck.c - fuzz target "fsck": fsck.f2fs -n -f itself, in process.
 * Its sources are compiled unchanged with main renamed fsck_main
 * (build.sh); each input's image (as a file, memfd.c) gets one full
 * read-only check: every phase, the problem table and its messages.
 * stdout goes to /dev/null.
 */
#include <getopt.h>
#include <stdint.h>
#include <stddef.h>
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int fsck_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path;

	fz_quiet_stdout();
	path = (char *)fz_file_begin(data, size);
	{
		char *argv[] = { "fsck.f2fs", "-n", "-f", path, NULL };

		optind = 0;	/* glibc: start over */
		fsck_main(4, argv);
	}
	fz_file_end(data, size);
	return 0;
}
