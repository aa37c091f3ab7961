// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_dump.c - fuzz target "dump": dump.f2fs itself, in process.  Its
 * sources are compiled unchanged with main renamed dump_main (build.sh),
 * and each input's image (as a file, memfd.c) goes through one run of
 *   dump.f2fs -i 3 -n 0~2048 -s 0~-1 -a 0~-1 --stat / -d 1 IMAGE
 * in text, or the same with --json (bit 0 of byte 0 / 3 picks), then
 *   dump.f2fs --ls / IMAGE
 * so superblock, checkpoint, NAT, SIT, SSA, inode, stat and directory
 * listing printers all parse the damaged image.  Not -M: the block map
 * takes ~2 s on a 64 MiB image (it is fuzzed by nothing yet), and NAT
 * entries only up to nid 2048 (all nids would be 233k lookups a run; the
 * seeds use ~170).  stdout goes to
 * /dev/null; --extract (which writes files) is left to tests/dump.
 */
#include <getopt.h>
#include <stdint.h>
#include <stddef.h>
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int dump_main(int argc, char **argv);

static int run(char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	optind = 0;	/* glibc: start over */
	return dump_main(argc, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int json = size ? (data[0] / FZ_NVARIANTS) & 1 : 0;
	char *meta[24] = { "dump.f2fs", "-i", "3", "-n", "0~2048", "-s", "0~-1", "-a", "0~-1",
			   "--stat", "/" };
	char *ls[] = { "dump.f2fs", "--ls", "/", NULL, NULL };
	int n = 11;

	fz_quiet_stdout();
	meta[n++] = json ? "--json" : "-d";
	if (!json)
		meta[n++] = "1";
	meta[n++] = (char *)fz_file_begin(data, size);
	meta[n] = NULL;
	ls[3] = meta[n - 1];
	run(meta);
	run(ls);
	fz_file_end(data, size);
	return 0;
}
