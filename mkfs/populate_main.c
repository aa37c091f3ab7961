// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * populate_main.c - f2fs-populate: copy a host directory into an existing,
 * unmounted F2FS image (the engine behind mkfs.f2fs --root, usable alone).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "populate.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: f2fs-populate --root DIR [options] DEVICE\n"
		"  --root DIR            host directory to copy into the volume's root\n"
		"  -T SECONDS            every timestamp (default: SOURCE_DATE_EPOCH, else the host's)\n"
		"  --uid-map H:F[:N]     host uids H..H+N-1 become F..F+N-1 (repeatable)\n"
		"  --gid-map H:F[:N]     the same for gids\n"
		"  --file-contexts FILE  SELinux labels from this file_contexts (libselinux)\n"
		"  --mount-point PATH    where the volume is mounted, for label lookups (/)\n"
		"  --casefold PATH       make directory PATH of the volume (\"/\": the root)\n"
		"                        casefolded, inherited by its subdirectories\n"
		"                        (repeatable; the volume needs the casefold feature)\n"
		"  --progress / --no-progress   progress on stderr (default: when a tty)\n"
		"  -q                    quiet\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "uid-map", required_argument, NULL, 'u' },
		{ "gid-map", required_argument, NULL, 'g' },
		{ "file-contexts", required_argument, NULL, 'f' },
		{ "mount-point", required_argument, NULL, 'm' },
		{ "casefold", required_argument, NULL, 'c' },
		{ "progress", no_argument, NULL, 'p' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct pop_opts o = { .fixed_time = -1, .progress = -1, .mount_point = "/" };
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	char *end;
	int c, err;

	if (sde && *sde) {
		o.fixed_time = strtoll(sde, &end, 10);
		if (*end || o.fixed_time < 0) {
			fprintf(stderr, "f2fs-populate: SOURCE_DATE_EPOCH '%s' invalid\n", sde);
			return 8;
		}
	}
	while ((c = getopt_long(argc, argv, "T:qh", lo, NULL)) != -1) {
		switch (c) {
		case 'r': o.root = optarg; break;
		case 'T':
			o.fixed_time = strtoll(optarg, &end, 10);
			if (*end || o.fixed_time < 0) {
				fprintf(stderr, "f2fs-populate: -T %s: not a time in seconds\n", optarg);
				return 8;
			}
			break;
		case 'u':
		case 'g': {
			struct pop_idmap *m = c == 'u' ? o.uid : o.gid;
			uint32_t *n = c == 'u' ? &o.nuid : &o.ngid;

			if (*n >= POP_MAX_MAPS || pop_parse_idmap(optarg, &m[*n])) {
				fprintf(stderr, "f2fs-populate: --%cid-map %s: expected HOST:FS[:COUNT] "
					"(at most %d)\n", c, optarg, POP_MAX_MAPS);
				return 8;
			}
			(*n)++;
			break;
		}
		case 'f': o.file_contexts = optarg; break;
		case 'm': o.mount_point = optarg; break;
		case 'c':
			if (pop_add_casefold(&o, optarg, "f2fs-populate"))
				return 8;
			break;
		case 'p': o.progress = 1; break;
		case 'P': o.progress = 0; break;
		case 'q': o.quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 8;
		}
	}
	if (!o.root || optind != argc - 1) {
		usage(stderr);
		return 8;
	}
	err = pop_run(argv[optind], &o, stderr);
	return err ? 8 : 0;
}
