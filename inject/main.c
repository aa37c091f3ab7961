// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - inject.f2fs: plant one fault in an unmounted F2FS volume, with
 * f2fs-tools' command line (the one fstests' f2fs cases use):
 *
 *   inject.f2fs --node --mb i_links --nid 4 --val 0 DEVICE
 *   inject.f2fs --node 0 -h       lists the members of an area
 *
 * See man/inject.f2fs.8.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/opt.h"
#include "inject.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

#define EXIT_USAGE 16

static void usage(FILE *out)
{
	fprintf(out,
"Usage: " PROG " [options] AREA --mb MEMBER [selectors] --val N|--str S device\n"
"Change one member of one on-disk structure of an unmounted F2FS volume.\n"
"Areas:\n"
"  --sb 0|1|2     superblock (0 and 1: the first copy, 2: the second)\n"
"  --cp 0|1|2     checkpoint head (0: the pack in use), [--idx I]\n"
"  --nat 0|1|2    NAT entry of --nid (0: the one in effect, journal or block)\n"
"  --sit 0|1|2    SIT entry of the segment of --blk (0 as for --nat), [--idx I]\n"
"  --ssa          summary entry of --blk [--idx I: entry of its segment]\n"
"  --node         node --nid: footer, inode or (in)direct node members, [--idx I]\n"
"  --dent         entry of inode --nid in its parent, or [--dots 1|2] its . or ..\n"
"Options:\n"
"  --mb NAME      the member (AREA 0 -h lists them)\n"
"  --val N        new value (decimal or 0x hex)\n"
"  --str S        new string (string members, filename)\n"
"  --idx I        element of an array member\n"
"  --nid N, --blk B   the node or inode / the block address selecting the entry\n"
"  --keep-crc     leave checksums as the new bytes make them (default: the\n"
"                 checksum covering the block is redone, unless it is the member)\n"
"  --dry-run      show the change, write nothing\n"
"  -d N           debug level (accepted; the change is always shown)\n"
"  -V, --version  print the version\n"
"  -h, --help     this help; after an area, that area's members\n"
"Exit status: 0 injected, 1 error (no such member or entry, mounted, I/O),\n"
"16 bad command line.\n");
}

static int set_area(struct inject_opts *o, enum area a, const char *arg)
{
	uint64_t v = 0;

	if (o->area != AREA_NONE) {
		fprintf(stderr, PROG ": only one area at a time (--%s and --%s)\n",
			area_names[o->area], area_names[a]);
		return -1;
	}
	o->area = a;
	if (arg && sup_opt_u64(PROG, arg, area_names[a], 0, 2, &v))
		return -1;
	o->pack = (int)v;
	return 0;
}

int main(int argc, char **argv)
{
	enum { O_DRY = 256, O_MB, O_IDX, O_VAL, O_STR, O_SB, O_CP, O_NAT, O_NID, O_SIT, O_BLK,
	       O_SSA, O_NODE, O_DENT, O_DOTS, O_KEEP };
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, O_DRY },
		{ "mb", required_argument, NULL, O_MB },
		{ "idx", required_argument, NULL, O_IDX },
		{ "val", required_argument, NULL, O_VAL },
		{ "str", required_argument, NULL, O_STR },
		{ "sb", required_argument, NULL, O_SB },
		{ "cp", required_argument, NULL, O_CP },
		{ "nat", required_argument, NULL, O_NAT },
		{ "nid", required_argument, NULL, O_NID },
		{ "sit", required_argument, NULL, O_SIT },
		{ "blk", required_argument, NULL, O_BLK },
		{ "ssa", no_argument, NULL, O_SSA },
		{ "node", no_argument, NULL, O_NODE },
		{ "dent", no_argument, NULL, O_DENT },
		{ "dots", required_argument, NULL, O_DOTS },
		{ "keep-crc", no_argument, NULL, O_KEEP },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct inject_opts o = { .area = AREA_NONE };
	uint64_t v;
	int c, help = 0, bad = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case O_DRY: o.dry_run = 1; break;
		case O_KEEP: o.keep_crc = 1; break;
		case O_MB: o.mb = optarg; break;
		case O_STR: o.str = optarg; break;
		case O_IDX:
			bad |= sup_opt_u32(PROG, optarg, "--idx", 0, &o.idx);
			o.have_idx = 1;
			break;
		case O_VAL:
			bad |= sup_opt_u64(PROG, optarg, "--val", 0, UINT64_MAX, &o.val);
			o.have_val = 1;
			break;
		case O_NID:
			bad |= sup_opt_u32(PROG, optarg, "--nid", 0, &o.nid);
			o.have_nid = 1;
			break;
		case O_BLK:
			bad |= sup_opt_u64(PROG, optarg, "--blk", 0, UINT32_MAX, &o.blk);
			o.have_blk = 1;
			break;
		case O_DOTS:
			bad |= sup_opt_u64(PROG, optarg, "--dots", 1, 2, &v);
			o.dots = (int)v;
			break;
		case O_SB: bad |= set_area(&o, AREA_SB, optarg); break;
		case O_CP: bad |= set_area(&o, AREA_CP, optarg); break;
		case O_NAT: bad |= set_area(&o, AREA_NAT, optarg); break;
		case O_SIT: bad |= set_area(&o, AREA_SIT, optarg); break;
		case O_SSA: bad |= set_area(&o, AREA_SSA, NULL); break;
		case O_NODE: bad |= set_area(&o, AREA_NODE, NULL); break;
		case O_DENT: bad |= set_area(&o, AREA_DENT, NULL); break;
		case 'd':
			bad |= sup_opt_u64(PROG, optarg, "-d", 0, 9, &v);
			o.debug = (int)v;
			break;
		case 'h': help = 1; break;
		case 'V':
			printf(PROG " %s\n", F2_VERSION_STRING);
			return 0;
		default:
			sup_opt_bad(PROG, c, argv);
			bad = 1;
		}
	}
	if (help) {
		if (o.area == AREA_NONE) {
			usage(stdout);
		} else {
			printf(PROG " --%s%s --mb MEMBER ...\n", area_names[o.area],
			       o.area <= AREA_SIT ? " 0|1|2" : "");
			members_list(o.area, stdout);
		}
		return 0;
	}
	if (bad)
		return EXIT_USAGE;
	if (o.area == AREA_NONE || !o.mb || optind != argc - 1) {
		fprintf(stderr, PROG ": %s\n", o.area == AREA_NONE ? "no area (--sb, --cp, --nat, "
			"--sit, --ssa, --node or --dent)" : !o.mb ? "no member (--mb)" :
			optind >= argc ? "no device given" : "too many arguments");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (o.dots && o.area != AREA_DENT) {
		fprintf(stderr, PROG ": --dots goes with --dent\n");
		return EXIT_USAGE;
	}
	o.dev = argv[optind];
	return inject_run(&o);
}
