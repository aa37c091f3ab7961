// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - dump.f2fs: options (those of f2fs-tools 1.15 plus --json,
 * --extract, --ls, --stat, -h, --metadata-image), opening the image
 * read-only, dispatch.
 * Exit status: 0 all done, 1 something could not be read (reported on
 * stderr), 2 usage error, the image cannot be opened or the metadata
 * image was not written.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/fs.h"
#include "f2/recovery.h"
#include "f2/sb.h"
#include "support/opt.h"
#include "dump.h"
#include "fields.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

struct dump_opts {
	int debug;
	int json, human;
	int have_ino, have_nat, have_sit, have_ssa, have_blk, map;
	uint64_t ino, blk;
	uint64_t nat[2], sit[2], ssa[2];
	const char *ls, *stat;
	struct extract_opts ex;
	int extract;
	int fsync_chain;
	struct metaimage_opts mi;
	const char *image;
};

/* One message on stderr: "prog: [what]message"; counted in *count. */
static void __attribute__((format(printf, 4, 0)))
report(struct dump_ctx *d, unsigned *count, const char *what, const char *fmt, va_list ap)
{
	(*count)++;
	fprintf(stderr, "%s: %s", d->prog, what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void dump_error(struct dump_ctx *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(d, &d->errors, "", fmt, ap);
	va_end(ap);
}

void dump_warn(struct dump_ctx *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(d, &d->warnings, "warning: ", fmt, ap);
	va_end(ap);
}

/* The superblock/checkpoint loader's warnings (f2_warn_fn). */
static void open_warn(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(ctx, &((struct dump_ctx *)ctx)->warnings, "warning: ", fmt, ap);
	va_end(ap);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: dump.f2fs [options] device\n"
"[options]:\n"
"  -d debug level [default:0]\n"
"  -i inode no (hex with 0x, else decimal)\n"
"  -n [NAT dump nid from #1~#2 (decimal), for all 0~-1]\n"
"  -M show a block map\n"
"  -s [SIT dump segno from #1~#2 (decimal), for all 0~-1]\n"
"  -S sparse_mode (accepted, no effect: images are files)\n"
"  -a [SSA dump segno from #1~#2 (decimal), for all 0~-1]\n"
"  -b blk_addr (in 4KB)\n"
"  -V print the version number and exit\n"
"  -h human-readable sizes (--ls)\n"
"  --json             JSON output on stdout\n"
"  --fsync-chain      list the roll-forward chain of fsync-ed nodes\n"
"  --ls PATH          list PATH like ls -l\n"
"  --stat PATH        show the inode of PATH\n"
"  --extract PATH --output DIR\n"
"                     copy PATH (a file or a whole tree) into DIR\n"
"  --xattrs=user|all|none   xattrs restored by --extract (default user)\n"
"  --owners / --no-owners   restore owners (default: when run as root)\n"
"  -v                 list extracted files\n"
"  --metadata-image OUT  write the metadata (no file data) to the sparse file OUT\n"
"  --scramble-names   with --metadata-image: replace every file name\n"
"  -f, --force        with --metadata-image: replace an existing OUT\n"
"  --help             this text\n");
}

/* "a~b" with b = -1 meaning "to the end"; end is exclusive as in f2fs-tools. */
static int parse_range(const char *s, uint64_t r[2])
{
	char *e;
	long long a, b;

	errno = 0;
	a = strtoll(s, &e, 10);
	if (e == s || *e != '~' || a < 0 || errno)
		return -1;
	s = e + 1;
	b = strtoll(s, &e, 10);
	if (e == s || *e || errno || b < -1)
		return -1;
	r[0] = (uint64_t)a;
	r[1] = b == -1 ? UINT64_MAX : (uint64_t)b;
	return 0;
}

enum { O_JSON = 256, O_LS, O_STAT, O_EXTRACT, O_OUTPUT, O_XATTRS, O_HELP, O_OWNERS, O_NOOWNERS,
       O_FSYNC_CHAIN, O_METAIMAGE, O_SCRAMBLE, O_FORCE };

static int parse(int argc, char **argv, struct dump_opts *op)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, O_JSON },
		{ "ls", required_argument, NULL, O_LS },
		{ "stat", required_argument, NULL, O_STAT },
		{ "extract", required_argument, NULL, O_EXTRACT },
		{ "output", required_argument, NULL, O_OUTPUT },
		{ "xattrs", required_argument, NULL, O_XATTRS },
		{ "owners", no_argument, NULL, O_OWNERS },
		{ "no-owners", no_argument, NULL, O_NOOWNERS },
		{ "fsync-chain", no_argument, NULL, O_FSYNC_CHAIN },
		{ "metadata-image", required_argument, NULL, O_METAIMAGE },
		{ "scramble-names", no_argument, NULL, O_SCRAMBLE },
		{ "force", no_argument, NULL, O_FORCE },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	op->ex.xattrs = 1;
	op->ex.owners = geteuid() == 0;
	while ((c = getopt_long(argc, argv, "d:i:n:Ms:Sa:b:Vhvf", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			op->debug = atoi(optarg);
			break;
		case 'i':
			if (sup_parse_u64(optarg, &op->ino) || op->ino > UINT32_MAX)
				goto bad;
			op->have_ino = 1;
			break;
		case 'n':
			if (parse_range(optarg, op->nat))
				goto bad;
			op->have_nat = 1;
			break;
		case 's':
			if (parse_range(optarg, op->sit))
				goto bad;
			op->have_sit = 1;
			break;
		case 'a':
			if (parse_range(optarg, op->ssa))
				goto bad;
			op->have_ssa = 1;
			break;
		case 'b':
			if (sup_parse_u64(optarg, &op->blk))
				goto bad;
			op->have_blk = 1;
			break;
		case 'M':
			op->map = 1;
			break;
		case 'S':
			break;
		case 'V':
			printf("dump.f2fs %s (f2fs-progs)\n", F2_VERSION_STRING);
			exit(0);
		case 'h':
			op->human = 1;
			break;
		case 'v':
			op->ex.verbose = 1;
			break;
		case O_JSON:
			op->json = 1;
			break;
		case O_LS:
			op->ls = optarg;
			break;
		case O_STAT:
			op->stat = optarg;
			break;
		case O_EXTRACT:
			op->ex.path = optarg;
			op->extract = 1;
			break;
		case O_OUTPUT:
			op->ex.outdir = optarg;
			break;
		case O_XATTRS:
			if (!strcmp(optarg, "all"))
				op->ex.xattrs = 2;
			else if (!strcmp(optarg, "user"))
				op->ex.xattrs = 1;
			else if (!strcmp(optarg, "none"))
				op->ex.xattrs = 0;
			else
				goto bad;
			break;
		case O_OWNERS:
			op->ex.owners = 1;
			break;
		case O_NOOWNERS:
			op->ex.owners = 0;
			break;
		case O_FSYNC_CHAIN:
			op->fsync_chain = 1;
			break;
		case O_METAIMAGE:
			op->mi.output = optarg;
			break;
		case O_SCRAMBLE:
			op->mi.scramble = 1;
			break;
		case 'f':
		case O_FORCE:
			op->mi.force = 1;
			break;
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "dump.f2fs: %s\n", optind >= argc ? "no device given" :
			"only one device may be given");
		usage(stderr);
		return -1;
	}
	if (op->extract && !op->ex.outdir) {
		fprintf(stderr, "dump.f2fs: --extract needs --output DIR\n");
		return -1;
	}
	op->image = argv[optind];
	op->mi.device = op->image;
	if ((op->mi.scramble || op->mi.force) && !op->mi.output) {
		fprintf(stderr, "dump.f2fs: --scramble-names and --force go with --metadata-image\n");
		return -1;
	}
	if (op->mi.output && (op->have_ino || op->have_nat || op->have_sit || op->have_ssa ||
			      op->have_blk || op->map || op->ls || op->stat || op->extract ||
			      op->fsync_chain || op->debug)) {
		fprintf(stderr, "dump.f2fs: --metadata-image takes no other action\n");
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "dump.f2fs: invalid argument '%s' for -%c\n", optarg, c < 256 ? c : '-');
	usage(stderr);
	return -1;
}

/* --fsync-chain: the node chain the kernel would roll forward
 * (f2/recovery.h), block by block, then the fsync-ed inodes. */
static void dump_fsync_chain(struct dump_ctx *d)
{
	struct f2_rf *rf;
	int err = f2_rf_scan(d->fs, &rf);

	if (err) {
		dump_error(d, "fsync chain: %s", d->fs->why);
		return;
	}
	out_text(d->o, "fsync chain from block %u: %zu node(s), %zu fsync-ed inode(s); ended: %s\n",
		 rf->start, rf->nchain, rf->ninos, rf->stop);
	out_arr_begin(d->o, "fsync_chain");
	for (size_t i = 0; i < rf->nchain; i++) {
		const struct f2_rf_blk *b = &rf->chain[i];

		out_obj_begin(d->o, NULL, NULL);
		out_u64(d->o, "blkaddr", b->addr);
		out_u64(d->o, "nid", b->nid);
		out_u64(d->o, "ino", b->ino);
		out_u64(d->o, "ofs", b->ofs);
		out_u64(d->o, "fsync", !!(b->marks & F2_FOOTER_FSYNC));
		out_u64(d->o, "dent", !!(b->marks & F2_FOOTER_DENT));
		out_u64(d->o, "next_blkaddr", b->next);
		out_obj_end(d->o);
	}
	out_arr_end(d->o);
	out_arr_begin(d->o, "fsync_inodes");
	for (size_t i = 0; i < rf->ninos; i++) {
		const struct f2_rf_ino *e = &rf->inos[i];

		out_obj_begin(d->o, NULL, NULL);
		out_u64(d->o, "ino", e->ino);
		out_u64(d->o, "new", (uint64_t)e->is_new);
		out_u64(d->o, "nodes", e->nodes);
		out_u64(d->o, "size", e->size);
		out_u64(d->o, "pino", e->pino);
		out_str(d->o, "name", (const char *)e->name, e->namelen);
		out_u64(d->o, "recoverable", (uint64_t)!e->skip);
		if (e->skip)
			out_str(d->o, "why", e->why, strlen(e->why));
		out_obj_end(d->o);
	}
	out_arr_end(d->o);
	f2_rf_free(rf);
}

/* Feature bits this version does not implement: dump goes on, saying
 * what it reads as without them and what it may miss. */
static void warn_features(struct dump_ctx *d, const char *image)
{
	uint32_t unsup = f2_features_unsupported(d->fs->features);
	char text[512];

	for (uint32_t bit = 1; bit; bit <<= 1)
		if (unsup & bit) {
			f2_feature_unsupported_text(bit, text, sizeof(text));
			dump_warn(d, "%s: %s", image, text);
		}
}

static void info_lines(struct dump_ctx *d)
{
	const struct f2_super *sb = &d->fs->sb;
	char feats[512], recs[1024];

	if (d->o->json)
		return;
	f2_features_format(f2_le32(sb->feature), feats, sizeof(feats));
	printf("Info: superblock %s\n", d->fs->sb_which ? "backup (primary rejected)" : "primary");
	printf("Info: superblock features = %x : %s\n", f2_le32(sb->feature), feats);
	if (f2_sb_stop_reasons_format(sb, recs, sizeof(recs)))
		printf("Info: checkpoint stop reasons recorded by the kernel: %s\n", recs);
	if (f2_sb_errors_format(sb, recs, sizeof(recs)))
		printf("Info: errors recorded by the kernel: %s\n", recs);
	printf("Info: Segments per section = %u\n", f2_le32(sb->segs_per_sec));
	printf("Info: Sections per zone = %u\n", f2_le32(sb->secs_per_zone));
	printf("Info: total FS sectors = %" PRIu64 " (%" PRIu64 " MB)\n",
	       d->fs->block_count << (12 - f2_le32(sb->log_sectorsize)),
	       d->fs->block_count >> 8);
	if (d->fs->cp)
		printf("Info: CKPT version = %" PRIx64 " (pack %d)\n", d->fs->cp_ver,
		       d->fs->cp_pack + 1);
	if (d->fs->cp) {
		char flags[256];

		cp_flags_string(d->fs->cp_flags, flags, sizeof(flags));
		printf("Info: checkpoint state = %x : %s\n", d->fs->cp_flags, flags);
	}
	if (d->fs->cp && !(d->fs->cp_flags & F2_CP_UMOUNT))
		printf("Info: not cleanly unmounted: data fsync'd after this checkpoint "
		       "is not shown (no roll-forward)\n");
}

/* --metadata-image, also from a volume whose checkpoint cannot be read
 * (open_err): then the metadata areas alone are kept. */
static int metaimage(struct dump_ctx *d, struct dump_opts *op, int open_err)
{
	struct out o;
	int err;

	if (open_err && !(d->fs && d->fs->block_count && !d->fs->cp)) {
		fprintf(stderr, "dump.f2fs: %s: %s\n", op->image,
			d->fs && d->fs->why[0] ? d->fs->why : f2_strerror(open_err));
		f2_fs_close(d->fs);
		return 2;
	}
	if (open_err)
		dump_warn(d, "%s: %s", op->image, d->fs->why);
	else
		warn_features(d, op->image);
	out_init(&o, stdout, op->json);
	d->o = &o;
	out_obj_begin(&o, NULL, NULL);
	err = dump_metaimage(d, &op->mi);
	out_obj_end(&o);
	out_finish(&o);
	f2_fs_close(d->fs);
	if (err)
		return 2;
	return d->errors || d->warnings ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct dump_opts op;
	struct dump_ctx d = { 0 };
	struct f2_fs_opts fo = { 0 };
	struct out o;
	int err;

	memset(&op, 0, sizeof(op));
	d.prog = "dump.f2fs";
	if (parse(argc, argv, &op))
		return 2;
	fo.warn = open_warn;
	fo.warn_ctx = &d;
	err = f2_fs_open(op.image, &fo, &d.fs);
	if (op.mi.output)
		return metaimage(&d, &op, err);
	if (err && d.fs && d.fs->why[0] && d.fs->block_count && !d.fs->cp &&
	    (op.debug || op.json) && !op.extract) {
		/* show the superblock even without a checkpoint */
		fprintf(stderr, "dump.f2fs: %s: %s\n", op.image, d.fs->why);
		out_init(&o, stdout, op.json);
		out_obj_begin(&o, NULL, NULL);
		print_sb(&o, &d.fs->sb);
		out_obj_end(&o);
		out_finish(&o);
		f2_fs_close(d.fs);
		return 2;
	}
	if (err) {
		fprintf(stderr, "dump.f2fs: %s: %s\n", op.image,
			d.fs && d.fs->why[0] ? d.fs->why : f2_strerror(err));
		f2_fs_close(d.fs);
		return 2;
	}
	warn_features(&d, op.image);
	out_init(&o, stdout, op.json);
	o.human = op.human;
	d.o = &o;
	out_obj_begin(&o, NULL, NULL);
	if (!op.ls && !op.stat && !op.extract)
		info_lines(&d);
	if (op.json || op.debug >= 1) {
		print_sb(&o, &d.fs->sb);
		print_cp(&o, d.fs);
	}
	if (op.have_ino)
		dump_inode(&d, (uint32_t)op.ino);
	if (op.have_nat)
		dump_nat(&d, op.nat[0], op.nat[1]);
	if (op.have_sit)
		dump_sit(&d, op.sit[0], op.sit[1]);
	if (op.have_ssa)
		dump_ssa(&d, op.ssa[0], op.ssa[1]);
	if (op.have_blk)
		dump_block(&d, op.blk);
	if (op.map)
		dump_map(&d);
	if (op.ls)
		dump_ls(&d, op.ls);
	if (op.stat)
		dump_stat(&d, op.stat);
	if (op.extract)
		dump_extract(&d, &op.ex);
	if (op.fsync_chain)
		dump_fsync_chain(&d);
	out_obj_end(&o);
	out_finish(&o);
	f2_fs_close(d.fs);
	return d.errors ? 1 : 0;
}
