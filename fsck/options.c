// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - parse the fsck.f2fs command line, e2fsck style.
 *
 * Mode options: -n/--dry-run, -y, -p/-a.  -n with -y or -p is a usage
 * error (exit 16): one says never write, the other says write.  -p with -y
 * is allowed and means -y (fix everything without asking), documented in
 * fsck.f2fs(8), so scripts that pass both always terminate.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "support/opt.h"
#include "options.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

void fsck_usage(FILE *out)
{
	fprintf(out,
"Usage: fsck.f2fs [options] device\n"
"Check an F2FS file system (a block device or an image file).\n"
"  -n, --dry-run   check only: open read-only, answer no to every question\n"
"  -y              fix every problem without asking\n"
"  -p, -a          preen: fix what is safe without asking, exit 4 if more\n"
"                  is needed (-p with -y means -y)\n"
"  -f              full check even when the file system is clean\n"
"  -v              verbose: also print what each phase found\n"
"  -C              progress on stderr (default when stderr is a terminal)\n"
"  -P              no progress output\n"
"      --json      JSON report on stdout (human messages go to stderr)\n"
"      --no-roll-forward  do not recover files fsync-ed after the last\n"
"                  checkpoint (by default -y and -p recover them first,\n"
"                  -n lists them)\n"
"  -V, --version   print the version\n"
"  -h, --help      this help\n"
"Without -n, -y or -p questions are asked on a terminal; with no terminal\n"
"on stdin every answer is no.  A device mounted read-write is only checked\n"
"(-n); one mounted read-only (the root at boot) is repaired in place, -p\n"
"only when every error is safe to preen; then reboot before it is mounted\n"
"read-write.\n"
"When a whole checkpoint area or NAT blocks are lost, -y rebuilds them from\n"
"the node blocks of the main area; both superblock copies, from a surviving\n"
"checkpoint pack, the device size and the inodes (-n says what it would\n"
"find; -p never).\n"
"Exit status: 0 clean, 1 errors corrected, 2 reboot (repaired under a\n"
"read-only mount), 4 errors left, 8 operational error, 16 usage error,\n"
"32 canceled by the user; their sum.\n");
}

int fsck_parse(int argc, char **argv, struct fsck_opts *o)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ "no-roll-forward", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, n = 0, y = 0, p = 0, progress = -1;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "nypafvCPVh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'n': n = 1; break;
		case 'y': y = 1; break;
		case 'p': case 'a': p = 1; break;
		case 'f': o->force = 1; break;
		case 'v': o->verbose++; break;
		case 'C': progress = 1; break;
		case 'P': progress = 0; break;
		case 'J': o->json = 1; break;
		case 'R': o->no_roll_forward = 1; break;
		case 'V':
			printf("fsck.f2fs (f2fs-progs) %s\n", F2_VERSION_STRING);
			return 1;
		case 'h':
			fsck_usage(stdout);
			return 1;
		default:
			sup_opt_bad("fsck.f2fs", ch, argv);
			fsck_usage(stderr);
			return -1;
		}
	}
	if (n && (y || p)) {
		fprintf(stderr, "fsck.f2fs: -n cannot be combined with %s\n", y ? "-y" : "-p");
		return -1;
	}
	o->mode = n ? MODE_NO : y ? MODE_YES : p ? MODE_PREEN : MODE_ASK;
	if (optind != argc - 1) {
		fprintf(stderr, "fsck.f2fs: %s\n",
			optind >= argc ? "no device given" : "only one device can be checked");
		fsck_usage(stderr);
		return -1;
	}
	o->device = argv[optind];
	o->progress = progress >= 0 ? progress : (isatty(2) && !o->json);
	return 0;
}
