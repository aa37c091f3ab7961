// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sload_main.c - sload.f2fs: load a host directory into an existing,
 * unmounted F2FS image with f2fs-tools' options (Android's image build
 * and Buildroot/Yocto call it so).  The copying is populate.c's, the
 * engine of mkfs.f2fs --root.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "populate.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

#define PROG "sload.f2fs"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: " PROG " [options] -f DIR DEVICE\n"
		"Copy DIR into the root of the unmounted F2FS volume on DEVICE.\n"
		"  -f DIR          source directory\n"
		"  -t PATH         mount point of the volume, the prefix of the paths\n"
		"                  fs_config and file_contexts are looked up by (/)\n"
		"  -C FILE         canned fs_config: owner, mode and capabilities by path\n"
		"  -s FILE         SELinux file_contexts for security.selinux labels\n"
		"  -p DIR          product out directory (accepted; only -C files are read)\n"
		"  -P              keep the host's owners (default: 0:0 where -C is silent)\n"
		"  -T SECONDS      every timestamp (default: SOURCE_DATE_EPOCH, else the host's)\n"
		"  -S              Android sparse image (accepted: the format is detected)\n"
		"  -c              compress regular files (the volume needs -O extra_attr,compression)\n"
		"  -a ALGO         with -c: lz4 (default), lz4hc, lzo, lzo-rle or zstd\n"
		"  -L LOG          with -c: clusters of 2^LOG blocks, 2 to 8 (default 2)\n"
		"  -i EXT          with -c: compress only files named *.EXT (repeatable)\n"
		"  -x EXT          with -c: compress all files but *.EXT (repeatable; not with -i)\n"
		"  -m BLOCKS       with -c: store a cluster compressed only if it saves BLOCKS\n"
		"                  blocks (default 1)\n"
		"  -r              with -c: release the reserved blocks of compressed clusters\n"
		"                  (a read-only image: Linux then refuses writes to those files)\n"
		"  -d LEVEL        debug level (accepted)\n"
		"  -q              quiet: no progress\n"
		"  -V, --version   print the version and exit\n"
		"  -h, --help      this help\n"
		"Prints \"Info: Max image size: N MB, Free space: M MB\" when done.\n"
		"Exit status: 0 loaded, 1 error, 16 usage.\n");
}

static int parse_time(const char *s, const char *what, int64_t *t)
{
	char *end;

	*t = strtoll(s, &end, 10);
	if (!*s || *end || *t < 0) {
		fprintf(stderr, PROG ": %s '%s': not a time in seconds\n", what, s);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct pop_opts o = { .fixed_time = -1, .progress = -1, .mount_point = "/",
			      .owner_root = 1 };
	struct pop_stats st;
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	int c, err, copt = 0;
	char copt_name[3] = "-?";

	if (sde && *sde && parse_time(sde, "SOURCE_DATE_EPOCH", &o.fixed_time))
		return 16;
	pop_compress_defaults(&o);
	while ((c = getopt_long(argc, argv, "C:f:p:s:St:T:PcL:a:x:i:m:rd:qVh", lo, NULL)) != -1) {
		switch (c) {
		case 'C': o.fs_config = optarg; break;
		case 'f': o.root = optarg; break;
		case 'p': break;
		case 's': o.file_contexts = optarg; break;
		case 'S': break;
		case 't': o.mount_point = optarg; break;
		case 'T':
			if (parse_time(optarg, "-T", &o.fixed_time))
				return 16;
			break;
		case 'P': o.owner_root = 0; break;
		case 'c': o.compress = 1; break;
		case 'a':
			if (pop_compress_algo(&o, optarg, PROG))
				return 16;
			copt = c;
			break;
		case 'L':
			if (pop_compress_log(&o, optarg, PROG))
				return 16;
			copt = c;
			break;
		case 'i': case 'x':
			if (pop_compress_ext(&o, optarg, c == 'x', PROG))
				return 16;
			copt = c;
			break;
		case 'm':
			if (pop_compress_min_saved(&o, optarg, PROG))
				return 16;
			copt = c;
			break;
		case 'r': o.copts.release = 1; copt = c; break;
		case 'd': break;
		case 'q': o.quiet = 1; o.progress = 0; break;
		case 'V': printf(PROG " (f2fs-progs) %s\n", F2_VERSION_STRING); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 16;
		}
	}
	copt_name[1] = (char)copt;
	if (optind != argc - 1) {
		fprintf(stderr, PROG ": %s\n", optind < argc ? "one device only" : "no device given");
		usage(stderr);
		return 16;
	}
	if (!o.root) {
		fprintf(stderr, PROG ": no source directory (-f DIR)\n");
		return 16;
	}
	if (pop_compress_check(&o, copt ? copt_name : NULL, "-c", PROG))
		return 16;
	if (o.mount_point[0] != '/') {
		fprintf(stderr, PROG ": -t %s: the mount point must start with /\n", o.mount_point);
		return 16;
	}
	err = pop_run_stats(argv[optind], &o, stderr, &st);
	if (err)
		return 1;
	printf("Info: Max image size: %llu MB, Free space: %llu MB\n",
	       (unsigned long long)((st.image_bytes + (1 << 20) - 1) >> 20),
	       (unsigned long long)(st.free_bytes >> 20));
	return 0;
}
