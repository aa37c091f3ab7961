// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - parse the mkfs.f2fs command line (f2fs-tools 1.15 compatible). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/features.h"
#include "support/opt.h"
#include "options.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

void mkfs_usage(FILE *out)
{
	fprintf(out,
"Usage: mkfs.f2fs [options] device [sectors]\n"
"Create an F2FS file system on device (a block device or an image file).\n"
"  -a 0|1        heap-style placement of the logs (default 0)\n"
"  -c device     add a device to the volume (repeatable, up to 7)\n"
"  -C utf8[:strict]  casefolding encoding (sets the casefold feature)\n"
"  -d level      debug level\n"
"  -e ext,...    extra cold-data file extensions\n"
"  -E ext,...    extra hot-data file extensions\n"
"  -f            overwrite an existing file system or partition table\n"
"  -g android    Android defaults\n"
"  -i            large NAT bitmap\n"
"  -l label      volume label\n"
"  -m            zoned block device support\n"
"  -o percent    overprovision ratio (default: best for the size)\n"
"  -O feat,...   features: encrypt extra_attr project_quota inode_checksum\n"
"                flexible_inline_xattr quota inode_crtime lost_found verity\n"
"                sb_checksum casefold compression\n"
"  -q            quiet\n"
"  -r            fixed checkpoint seed\n"
"  -R uid:gid    owner of the root directory\n"
"  -s segs       segments per section (default 1)\n"
"  -S size       write device as an Android sparse image of size bytes\n"
"                (rounded down to 4096; device need not exist)\n"
"  -t 0|1        discard the device first (default 1)\n"
"  -T time       inode timestamps (seconds; -1 = now)\n"
"  -U uuid       volume UUID\n"
"  -w bytes      unit of the sectors argument\n"
"  -z secs       sections per zone (default 1)\n"
"  -V            print the version\n"
"  --root DIR    copy DIR into the new file system (see mkfs.f2fs(8)):\n"
"    --uid-map H:F[:N], --gid-map H:F[:N]  map host ids (repeatable)\n"
"    --file-contexts FILE  SELinux labels (libselinux), --mount-point PATH\n"
"    --fs-config FILE  Android canned fs_config: owner, mode, capabilities\n"
"                  by path (as sload.f2fs -C; unlisted paths keep the host's)\n"
"    --progress, --no-progress  progress on stderr (default: on a tty)\n"
"    --casefold PATH  make directory PATH of the volume (\"/\": the root)\n"
"                  casefolded; its subdirectories inherit it (repeatable;\n"
"                  needs -C utf8)\n"
"    --compress ALG   compress regular files: lz4, lz4hc, lzo, lzo-rle, zstd (needs\n"
"                  -O extra_attr,compression); with it --compress-log LOG\n"
"                  (clusters of 2^LOG blocks, 2..8), --compress-only EXT or\n"
"                  --compress-except EXT (repeatable), --compress-min-saved N,\n"
"                  --compress-release (as sload.f2fs -L, -i, -x, -m, -r)\n"
"  --populate    with --root: copy into an existing, unmounted F2FS device\n"
"  -h, --help    this help\n");
}

static int add_features(struct mkfs_cmd *c, const char *list)
{
	uint32_t set = c->fs.sb.features, clear = 0;
	const char *bad;
	size_t blen;

	if (f2_features_parse(list, &set, &clear, &bad, &blen)) {
		fprintf(stderr, "mkfs.f2fs: unknown feature '%.*s'\n", (int)blen, bad);
		return -1;
	}
	c->fs.sb.features = set;
	return 0;
}

/* -C utf8[:strict]: the casefolding encoding (sets the casefold feature). */
static int parse_encoding(struct mkfs_cmd *c, const char *arg)
{
	const char *flags = strchr(arg, ':');
	size_t n = flags ? (size_t)(flags - arg) : strlen(arg);

	if (n != 4 || strncmp(arg, "utf8", 4)) {
		fprintf(stderr, "mkfs.f2fs: unknown encoding '%s' (only utf8)\n", arg);
		return -1;
	}
	c->fs.sb.encoding = F2_ENC_UTF8_12_1;
	if (flags) {
		if (strcmp(flags + 1, "strict")) {
			fprintf(stderr, "mkfs.f2fs: unknown encoding flag '%s'\n", flags + 1);
			return -1;
		}
		c->fs.sb.encoding_flags = F2_ENC_STRICT_MODE_FL;
	}
	c->fs.sb.features |= F2_FEAT_CASEFOLD;
	return 0;
}

/* --uid-map / --gid-map HOST:FS[:COUNT]. */
static int add_idmap(struct mkfs_cmd *c, int is_uid, const char *arg)
{
	struct pop_idmap *m = is_uid ? c->pop.uid : c->pop.gid;
	uint32_t *n = is_uid ? &c->pop.nuid : &c->pop.ngid;

	if (*n >= POP_MAX_MAPS || pop_parse_idmap(arg, &m[*n])) {
		fprintf(stderr, "mkfs.f2fs: invalid id map '%s' (HOST:FS[:COUNT], "
			"at most %d)\n", arg, POP_MAX_MAPS);
		return -1;
	}
	(*n)++;
	return 0;
}

/* What mkfs does without options. */
static void set_defaults(struct mkfs_cmd *c)
{
	struct f2_geom_params *g = &c->fs.geom;

	memset(c, 0, sizeof(*c));
	g->segs_per_sec = 1;
	g->secs_per_zone = 1;
	g->ndevs = 1;
	c->fs.discard = 1;
	c->fixed_time = -1;
	c->fs.root_uid = (uint32_t)getuid();
	c->fs.root_gid = (uint32_t)getgid();
	c->ndevs = 1;
	c->pop.fixed_time = -1;
	c->pop.progress = -1;
	c->pop.mount_point = "/";
	pop_compress_defaults(&c->pop);
}

/* One option: 0 to go on, 1 to exit successfully (-h, -V), -1 on error. */
static int parse_option(struct mkfs_cmd *c, int ch, const char *arg)
{
	struct f2_geom_params *g = &c->fs.geom;
	uint32_t v;

	switch (ch) {
	case 'a':
		if (sup_opt_u32("mkfs.f2fs", arg, "heap flag", 0, &v))
			return -1;
		g->heap = v != 0;
		break;
	case 'c':
		if (c->ndevs >= F2_MAX_DEVICES) {
			fprintf(stderr, "mkfs.f2fs: at most %d devices\n", F2_MAX_DEVICES);
			return -1;
		}
		c->devices[c->ndevs++] = arg;
		break;
	case 'C':
		return parse_encoding(c, arg);
	case 'd':
		if (sup_opt_u32("mkfs.f2fs", arg, "debug level", 0, &v))
			return -1;
		c->debug = (int)v;
		break;
	case 'e':
		c->fs.sb.cold_ext = arg;
		break;
	case 'E':
		c->fs.sb.hot_ext = arg;
		break;
	case 'f':
		c->force = 1;
		break;
	case 'g':
		if (strcmp(arg, "android")) {
			fprintf(stderr, "mkfs.f2fs: unknown default set '%s'\n", arg);
			return -1;
		}
		c->wanted_sector_size = 4096;
		c->fs.root_uid = c->fs.root_gid = 0;
		c->force = 1;
		c->fs.sb.features |= F2_FEAT_ENCRYPT | F2_FEAT_PRJQUOTA |
			F2_FEAT_EXTRA_ATTR | F2_FEAT_QUOTA_INO | F2_FEAT_VERITY;
		break;
	case 'h':
		mkfs_usage(stdout);
		return 1;
	case 'i':
		g->large_nat_bitmap = 1;
		break;
	case 'l':
		if (strlen(arg) > 512) {
			fprintf(stderr, "mkfs.f2fs: volume label longer than 512 characters\n");
			return -1;
		}
		c->fs.sb.label = arg;
		break;
	case 'm':
		g->zoned = 1;
		break;
	case 'o': {
		char *end;

		g->overprovision = strtod(arg, &end);
		if (end == arg || *end || g->overprovision < 0 ||
		    g->overprovision >= 100) {
			fprintf(stderr, "mkfs.f2fs: invalid overprovision ratio '%s'\n", arg);
			return -1;
		}
		break;
	}
	case 'O':
		if (add_features(c, arg))
			return -1;
		break;
	case 'q':
		c->quiet = 1;
		break;
	case 'r':
		c->zero_seed = 1;
		break;
	case 'R':
		if (sscanf(arg, "%u:%u", &c->fs.root_uid, &c->fs.root_gid) != 2) {
			fprintf(stderr, "mkfs.f2fs: -R wants uid:gid, not '%s'\n", arg);
			return -1;
		}
		break;
	case 's':
		if (sup_opt_u32("mkfs.f2fs", arg, "segments per section", 1,
				&g->segs_per_sec))
			return -1;
		break;
	case 'S':
		/* f2fs-tools' meaning: the size of the sparse image to write */
		if (sup_opt_u64("mkfs.f2fs", arg, "sparse image size", 4096,
				UINT64_MAX, &c->sparse_size))
			return -1;
		c->sparse_size -= c->sparse_size % 4096;
		break;
	case 't':
		if (sup_opt_u32("mkfs.f2fs", arg, "discard flag", 0, &v))
			return -1;
		c->fs.discard = v != 0;
		break;
	case 'T': {
		char *end;

		c->fixed_time = strtoll(arg, &end, 0);
		if (end == arg || *end || c->fixed_time < -1) {
			fprintf(stderr, "mkfs.f2fs: invalid timestamp '%s'\n", arg);
			return -1;
		}
		break;
	}
	case 'U':
		c->uuid_text = arg;
		break;
	case 'V':
		printf("mkfs.f2fs (f2fs-progs) %s\n", F2_VERSION_STRING);
		return 1;
	case 'w':
		if (sup_opt_u32("mkfs.f2fs", arg, "sector size", 512,
				&c->wanted_sector_size))
			return -1;
		break;
	case 'z':
		if (sup_opt_u32("mkfs.f2fs", arg, "sections per zone", 1,
				&g->secs_per_zone))
			return -1;
		break;
	case 256: c->pop.root = arg; break;
	case 257: c->populate_only = 1; break;
	case 258:
	case 259:
		return add_idmap(c, ch == 258, arg);
	case 260: c->pop.file_contexts = arg; break;
	case 261: c->pop.mount_point = arg; break;
	case 262: c->pop.progress = 1; break;
	case 263: c->pop.progress = 0; break;
	case 264:
		if (pop_add_casefold(&c->pop, arg, "mkfs.f2fs"))
			return -1;
		break;
	case 265:
		c->pop.compress = 1;
		return pop_compress_algo(&c->pop, arg, "mkfs.f2fs");
	case 266:
		c->compress_opt = "--compress-log";
		return pop_compress_log(&c->pop, arg, "mkfs.f2fs");
	case 267:
	case 268:
		c->compress_opt = ch == 267 ? "--compress-only" : "--compress-except";
		return pop_compress_ext(&c->pop, arg, ch == 268, "mkfs.f2fs");
	case 269:
		c->compress_opt = "--compress-min-saved";
		return pop_compress_min_saved(&c->pop, arg, "mkfs.f2fs");
	case 270:
		c->compress_opt = "--compress-release";
		c->pop.copts.release = 1;
		break;
	case 271: c->pop.fs_config = arg; break;
	default:
		mkfs_usage(stderr);
		return -1;
	}
	return 0;
}

int mkfs_parse(int argc, char **argv, struct mkfs_cmd *c)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "root", required_argument, NULL, 256 },
		{ "populate", no_argument, NULL, 257 },
		{ "uid-map", required_argument, NULL, 258 },
		{ "gid-map", required_argument, NULL, 259 },
		{ "file-contexts", required_argument, NULL, 260 },
		{ "mount-point", required_argument, NULL, 261 },
		{ "progress", no_argument, NULL, 262 },
		{ "no-progress", no_argument, NULL, 263 },
		{ "casefold", required_argument, NULL, 264 },
		{ "compress", required_argument, NULL, 265 },
		{ "compress-log", required_argument, NULL, 266 },
		{ "compress-only", required_argument, NULL, 267 },
		{ "compress-except", required_argument, NULL, 268 },
		{ "compress-min-saved", required_argument, NULL, 269 },
		{ "compress-release", no_argument, NULL, 270 },
		{ "fs-config", required_argument, NULL, 271 },
		{ NULL, 0, NULL, 0 },
	};
	int ch, r;

	set_defaults(c);
	while ((ch = getopt_long(argc, argv, "a:c:C:d:e:E:fg:hil:mo:O:qrR:s:S:t:T:U:Vw:z:",
				 longopts, NULL)) != -1) {
		r = parse_option(c, ch, optarg);
		if (r)
			return r;
	}
	if (c->populate_only && !c->pop.root) {
		fprintf(stderr, "mkfs.f2fs: --populate needs --root DIR\n");
		return -1;
	}
	if (pop_compress_check(&c->pop, c->compress_opt, "--compress ALG", "mkfs.f2fs"))
		return -1;
	if (c->pop.compress && !c->pop.root) {
		fprintf(stderr, "mkfs.f2fs: --compress needs --root DIR\n");
		return -1;
	}
	if (c->pop.compress && !c->populate_only &&
	    (c->fs.sb.features & (F2_FEAT_COMPRESSION | F2_FEAT_EXTRA_ATTR)) !=
	    (F2_FEAT_COMPRESSION | F2_FEAT_EXTRA_ATTR)) {
		fprintf(stderr, "mkfs.f2fs: --compress needs -O extra_attr,compression\n");
		return -1;
	}
	if (c->pop.fs_config && !c->pop.root) {
		fprintf(stderr, "mkfs.f2fs: --fs-config needs --root DIR\n");
		return -1;
	}
	if (c->pop.ncasefold && !c->pop.root) {
		fprintf(stderr, "mkfs.f2fs: --casefold needs --root DIR\n");
		return -1;
	}
	/* --populate: the volume's own features decide (populate checks) */
	if (c->pop.ncasefold && !c->populate_only && !(c->fs.sb.features & F2_FEAT_CASEFOLD)) {
		fprintf(stderr, "mkfs.f2fs: --casefold needs the casefold feature (-C utf8)\n");
		return -1;
	}
	if (c->sparse_size && (c->ndevs > 1 || c->fs.geom.zoned)) {
		fprintf(stderr, "mkfs.f2fs: -S makes one image file: not with -c or -m\n");
		return -1;
	}
	if (c->sparse_size && c->populate_only) {
		fprintf(stderr, "mkfs.f2fs: -S makes a new image: not with --populate\n");
		return -1;
	}
	if (optind >= argc) {
		fprintf(stderr, "mkfs.f2fs: no device given\n");
		mkfs_usage(stderr);
		return -1;
	}
	c->devices[0] = argv[optind++];
	if (optind < argc) {
		if (sup_parse_u64(argv[optind], &c->wanted_sectors)) {
			fprintf(stderr, "mkfs.f2fs: invalid sector count '%s'\n", argv[optind]);
			return -1;
		}
		optind++;
	}
	if (optind < argc) {
		fprintf(stderr, "mkfs.f2fs: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (c->fs.sb.label && strlen(c->fs.sb.label) > 512)
		return -1;
	return 0;
}
