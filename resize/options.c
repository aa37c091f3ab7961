// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - parse the resize.f2fs command line (f2fs-tools' options,
 * plus -n and --json). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "support/opt.h"
#include "resize_cmd.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

void rs_usage(FILE *out)
{
	fprintf(out,
"Usage: resize.f2fs [options] device\n"
"Grow or shrink an unmounted F2FS volume.\n"
"  -t, --target SECTORS   new size in 512-byte sectors (default: the device\n"
"                         or file size; multi-device: the last one whole)\n"
"  -s, --safe             keep the metadata areas in place (grow only as far\n"
"                         as they address)\n"
"  -o, --overprovision P  overprovision percent for the new size (default:\n"
"                         what mkfs.f2fs picks for it)\n"
"  -f, --force            accepted for f2fs-tools compatibility (nothing is asked)\n"
"  -d, --debug N          more detail in the report (N >= 1)\n"
"  -n, --dry-run          plan only: new geometry and the blocks that would move;\n"
"                         write nothing\n"
"      --json             the report as one JSON object on stdout\n"
"  -V, --version          print the version\n"
"  -h, --help             this help\n"
"The metadata areas are laid out for the new size and written where the\n"
"volume reads nothing, the superblock last, so a power cut leaves the old or\n"
"the new volume.  Valid blocks outside the new main area are moved into it\n"
"first; a size the data does not fit is refused before anything is written.\n");
}

int rs_parse(int argc, char **argv, struct rs_cmd *c)
{
	enum { O_JSON = 256 };
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "safe", no_argument, NULL, 's' },
		{ "overprovision", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "debug", required_argument, NULL, 'd' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, O_JSON },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	char *end;
	int ch;

	memset(c, 0, sizeof(*c));
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":t:so:fd:nVh", longopts, NULL)) != -1) {
		switch (ch) {
		case 't':
			if (sup_opt_u64("resize.f2fs", optarg, "number of sectors", 1,
					UINT64_MAX / 512, &c->target_sectors))
				return -1;
			break;
		case 's':
			c->safe = 1;
			break;
		case 'o':
			c->overprovision = strtod(optarg, &end);
			if (end == optarg || *end || !(c->overprovision > 0) ||
			    c->overprovision >= 100) {
				fprintf(stderr, "resize.f2fs: invalid overprovision '%s' (a percent "
					"above 0 and below 100)\n", optarg);
				return -1;
			}
			break;
		case 'f':
			c->force = 1;
			break;
		case 'd':
			if (sup_opt_u64("resize.f2fs", optarg, "debug level", 0, 9, &v))
				return -1;
			c->debug = (int)v;
			break;
		case 'n':
			c->dry_run = 1;
			break;
		case O_JSON:
			c->json = 1;
			break;
		case 'V':
			printf("resize.f2fs (f2fs-progs) %s\n", F2_VERSION_STRING);
			return 1;
		case 'h':
			rs_usage(stdout);
			return 1;
		default:	/* ':' or '?' */
			sup_opt_bad("resize.f2fs", ch, argv);
			rs_usage(stderr);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "resize.f2fs: no device given\n");
		rs_usage(stderr);
		return -1;
	}
	c->device = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "resize.f2fs: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}
