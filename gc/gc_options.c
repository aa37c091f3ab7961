// SPDX-License-Identifier: GPL-2.0-or-later
/* gc_options.c - parse the gc.f2fs command line. */
#include <getopt.h>
#include <string.h>
#include "support/opt.h"
#include "common.h"
#include "gc_cmd.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

void gc_usage(FILE *out)
{
	fprintf(out,
"Usage: gc.f2fs [options] device\n"
"Clean (garbage-collect) an unmounted F2FS volume offline: choose victim\n"
"sections as the Linux 6.1 driver does and report what cleaning them costs.\n"
"  -p, --policy P            greedy (default: fewest valid blocks first) or\n"
"                            cost-benefit (old and empty sections first)\n"
"  -t, --target-free N       stop when N sections are free\n"
"  -u, --until-utilization P stop when the sections in use are P%% full on average\n"
"  -m, --max-sections N      clean at most N sections\n"
"  -n, --dry-run             report victims, blocks to move, write amplification\n"
"                            and the section histogram; write nothing\n"
"      --no-owner-check      with -n: skip reading the owner of every block\n"
"  -a, --alloc MODE          where moved blocks go: lfs (free segments), ssr\n"
"                            (free slots of partly valid segments) or auto (ssr\n"
"                            when the kernel's need_SSR rule says so; default)\n"
"  -c, --checkpoint-every N  commit a checkpoint after every N sections (256,\n"
"                            on zoned volumes 32; also whenever free\n"
"                            sections run short)\n"
"  -j, --json                the report as one JSON object on stdout\n"
"  -v, --verbose             list every victim (text report)\n"
"      --progress            progress on stderr (default: when it is a terminal)\n"
"      --no-progress         no progress\n"
"  -V, --version             print the version\n"
"  -h, --help                this help\n"
"With no target every partly valid section is a victim.\n");
}

int gc_parse(int argc, char **argv, struct gc_cmd *c)
{
	enum { O_PROGRESS = 256, O_NO_PROGRESS, O_NO_OWNERS };
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "target-free", required_argument, NULL, 't' },
		{ "until-utilization", required_argument, NULL, 'u' },
		{ "max-sections", required_argument, NULL, 'm' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "no-owner-check", no_argument, NULL, O_NO_OWNERS },
		{ "checkpoint-every", required_argument, NULL, 'c' },
		{ "alloc", required_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "no-progress", no_argument, NULL, O_NO_PROGRESS },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t pct;
	int ch;

	memset(c, 0, sizeof(*c));
	c->progress = -1;
	c->cp_every = 0;	/* the default for the volume, once it is open */
	c->target.policy = F2_GC_GREEDY;
	c->alloc = F2_ALLOC_AUTO;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":p:t:u:m:c:a:njvVh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (!strcmp(optarg, "greedy")) {
				c->target.policy = F2_GC_GREEDY;
	c->alloc = F2_ALLOC_AUTO;
			} else if (!strcmp(optarg, "cost-benefit") || !strcmp(optarg, "cb")) {
				c->target.policy = F2_GC_COST_BENEFIT;
			} else {
				fprintf(stderr, "gc.f2fs: unknown policy '%s' (greedy or cost-benefit)\n",
					optarg);
				return -1;
			}
			break;
		case 't':
			if (sup_opt_u32("gc.f2fs", optarg, "number of free sections", 1,
					&c->target.free_secs))
				return -1;
			break;
		case 'u':
			if (sup_opt_u64("gc.f2fs", optarg, "utilization percentage", 1, 100, &pct))
				return -1;
			c->target.util_pct = (uint32_t)pct;
			c->target.util_set = 1;
			break;
		case 'm':
			if (sup_opt_u32("gc.f2fs", optarg, "number of sections", 1,
					&c->target.max_secs))
				return -1;
			break;
		case 'c':
			if (sup_opt_u32("gc.f2fs", optarg, "checkpoint interval", 1, &c->cp_every))
				return -1;
			break;
		case 'a':
			if (!strcmp(optarg, "lfs")) {
				c->alloc = F2_ALLOC_LFS;
			} else if (!strcmp(optarg, "ssr")) {
				c->alloc = F2_ALLOC_SSR;
			} else if (!strcmp(optarg, "auto")) {
				c->alloc = F2_ALLOC_AUTO;
			} else {
				fprintf(stderr, "gc.f2fs: unknown allocation '%s' (lfs, ssr or auto)\n",
					optarg);
				return -1;
			}
			break;
		case 'n':
			c->dry_run = 1;
			break;
		case O_NO_OWNERS:
			c->no_owners = 1;
			break;
		case 'j':
			c->json = 1;
			break;
		case 'v':
			c->verbose = 1;
			break;
		case O_PROGRESS:
			c->progress = 1;
			break;
		case O_NO_PROGRESS:
			c->progress = 0;
			break;
		case 'V':
			printf("gc.f2fs (f2fs-progs) %s\n", F2_VERSION_STRING);
			return 1;
		case 'h':
			gc_usage(stdout);
			return 1;
		default:	/* ':' or '?' */
			sup_opt_bad("gc.f2fs", ch, argv);
			gc_usage(stderr);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "gc.f2fs: no device given\n");
		gc_usage(stderr);
		return -1;
	}
	c->device = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "gc.f2fs: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	c->target.alloc = c->alloc;	/* the plan predicts the run */
	c->target.cp_every = c->cp_every;
	if (c->no_owners && !c->dry_run) {
		fprintf(stderr, "gc.f2fs: --no-owner-check only goes with -n\n");
		return -1;
	}
	return 0;
}
