// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * defrag_main.c - defrag.f2fs: the options of f2fs-tools 1.15's
 * defrag.f2fs (-s start, -l length, -t target, -i shrink direction,
 * -d debug level, -S) with the same defaults and range rules, plus
 * --file PATH (make one file's data contiguous).  -n reports what would
 * move (valid blocks of the range and their owners, or the file's
 * extents).  Without -n, --file rewrites the file's data in order to the
 * cold data log through the write engine (lib/gc/move.c); a range's valid
 * blocks move to free sections nearest the target, on its right (-i: its
 * left), data and nodes (f2_gc_move_range).  Either commits with one
 * checkpoint.  Unlike the reference, which fills free blocks of partly
 * valid segments in place, moved blocks only go to free sections, as the
 * log-structured engine writes.  Zoned volumes are moved as gc.f2fs does
 * (logs start in empty zones, freed zones reset after the checkpoint);
 * zone capacities below the zone size are refused.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/fs.h"
#include "f2/gc.h"
#include "f2/engine.h"
#include "f2/io.h"
#include "support/opt.h"
#include "common.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

struct defrag_cmd {
	const char *device, *file;
	uint64_t start, len, target;
	int start_set, shrink, dry_run, debug;
};

static void usage(FILE *out)
{
	fprintf(out,
"Usage: defrag.f2fs [options] device\n"
"Move the valid blocks of a block range of an unmounted F2FS volume next to a\n"
"target address, or make one file's data contiguous.\n"
"  -s start      first block of the range (default: the main area's start)\n"
"  -l length     blocks in the range (default 512, one segment)\n"
"  -t target     where moved blocks go (default: just past the range, or\n"
"                just before it with -i)\n"
"  -i            shrink: move blocks to the left of the target (default: right)\n"
"  -d level      debug level (accepted)\n"
"  -S            sparse mode (accepted; images are kept sparse)\n"
"      --file PATH  make the data of PATH (absolute, inside the volume)\n"
"                contiguous instead of moving a range\n"
"  -n, --dry-run report what would move; write nothing\n"
"  -V, --version print the version\n"
"  -h, --help    this help\n"
"Numbers are decimal or 0x-prefixed hexadecimal block addresses.\n");
}

static int parse(int argc, char **argv, struct defrag_cmd *c)
{
	enum { O_FILE = 256 };
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, O_FILE },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t v;
	int ch, range_opts = 0;

	memset(c, 0, sizeof(*c));
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":d:s:Sl:t:inVh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			if (sup_opt_u32("defrag.f2fs", optarg, "debug level", 0, &v))
				return -1;
			c->debug = (int)v;
			break;
		case 's':
			if (sup_opt_u64("defrag.f2fs", optarg, "start block address", 0,
					UINT64_MAX, &c->start))
				return -1;
			c->start_set = 1;
			range_opts = 1;
			break;
		case 'S':
			break;
		case 'l':
			if (sup_opt_u64("defrag.f2fs", optarg, "length", 0, UINT64_MAX, &c->len))
				return -1;
			range_opts = 1;
			break;
		case 't':
			if (sup_opt_u64("defrag.f2fs", optarg, "target block address", 0,
					UINT64_MAX, &c->target))
				return -1;
			range_opts = 1;
			break;
		case 'i':
			c->shrink = 1;
			range_opts = 1;
			break;
		case O_FILE:
			if (optarg[0] != '/') {
				fprintf(stderr, "defrag.f2fs: --file wants an absolute path inside the "
					"volume, not '%s'\n", optarg);
				return -1;
			}
			c->file = optarg;
			break;
		case 'n':
			c->dry_run = 1;
			break;
		case 'V':
			printf("defrag.f2fs (f2fs-progs) %s\n", F2_VERSION_STRING);
			return 1;
		case 'h':
			usage(stdout);
			return 1;
		default:	/* ':' or '?' */
			sup_opt_bad("defrag.f2fs", ch, argv);
			usage(stderr);
			return -1;
		}
	}
	if (c->file && range_opts) {
		fprintf(stderr, "defrag.f2fs: --file does not go with -s, -l, -t or -i\n");
		return -1;
	}
	if (optind >= argc) {
		fprintf(stderr, "defrag.f2fs: no device given\n");
		usage(stderr);
		return -1;
	}
	c->device = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "defrag.f2fs: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

/* The reference's defaults and range rules; 0 or -1 (reported). */
static int settle_range(const struct f2_fs *fs, struct defrag_cmd *c)
{
	uint64_t count = fs->block_count, main0 = fs->main_blkaddr;

	if (c->start >= count)
		goto out;
	if (c->start < main0)
		c->start = main0;
	if (!c->len)
		c->len = F2_BLKS_PER_SEG;
	if (c->len > count - c->start)
		c->len = count - c->start;
	if (!c->target)
		c->target = c->shrink ? c->start - 1 : c->start + c->len;
	if (c->target < main0 || c->target >= count)
		goto out;
	if (c->target >= c->start && c->target < c->start + c->len)
		goto out;
	return 0;
out:
	fprintf(stderr, "defrag.f2fs: out of range: [0x%llx-0x%llx] to 0x%llx (main area "
		"0x%llx-0x%llx)\n", (unsigned long long)c->start,
		(unsigned long long)(c->start + (c->len ? c->len : 1) - 1),
		(unsigned long long)c->target, (unsigned long long)main0,
		(unsigned long long)(count - 1));
	return -1;
}

struct owner_count {
	uint64_t alive, stale, bad;
};

/* Valid blocks of [start, start+len) and what their owners say. */
static int range_report(struct f2_fs *fs, const struct defrag_cmd *c)
{
	struct owner_count oc = { 0, 0, 0 };
	struct f2_summary_block *sum = malloc(sizeof(*sum));
	struct f2_gc_cache *cache = calloc(1, sizeof(*cache));
	uint64_t end = c->start + c->len, a = c->start;
	int r = 0;

	if (!sum || !cache) {
		free(sum);
		free(cache);
		return -ENOMEM;
	}
	while (!r && a < end) {
		uint32_t segno = f2_fs_segno(fs, a);
		uint64_t s0 = f2_fs_seg_start(fs, segno), s1 = s0 + F2_BLKS_PER_SEG;
		struct f2_sit_info si;

		if (!f2_fs_in_main(fs, a))
			break;
		r = f2_sit_get(fs, segno, &si);
		if (!r && si.vblocks)
			r = f2_ssa_read(fs, segno, sum, NULL);
		for (; !r && a < end && a < s1; a++) {
			struct f2_gc_block b;
			uint32_t off = (uint32_t)(a - s0);

			if (!si.vblocks || !f2_test_bit_msb(si.valid_map, off))
				continue;
			r = f2_gc_owner_check(fs, a, &sum->entries[off],
					      sum->footer.entry_type == F2_SUM_TYPE_NODE, cache, &b);
			if (r)
				break;
			if (b.owner == F2_GC_ALIVE)
				oc.alive++;
			else if (b.owner == F2_GC_STALE)
				oc.stale++;
			else
				oc.bad++;
		}
	}
	free(sum);
	free(cache);
	if (r)
		return r;
	printf("%s: move [0x%llx-0x%llx] %s 0x%llx\n", c->device, (unsigned long long)c->start,
	       (unsigned long long)(end - 1), c->shrink ? "to the left of" : "to the right of",
	       (unsigned long long)c->target);
	printf("valid blocks in the range: %llu to move, %llu stale, %llu with a bad owner\n",
	       (unsigned long long)oc.alive, (unsigned long long)oc.stale,
	       (unsigned long long)oc.bad);
	return 0;
}

/* Look path up: a regular file; *ino.  0 or GC_EXIT_ERROR (reported). */
static int lookup_file(struct f2_fs *fs, const char *path, uint32_t *ino)
{
	struct f2_inode_ref *ir = malloc(sizeof(*ir));
	int r;

	if (!ir)
		return GC_EXIT_ERROR;
	r = f2_path_lookup(fs, path, ir);
	if (r) {
		fprintf(stderr, "defrag.f2fs: %s: %s\n", path,
			r == -ENOENT ? "no such file in the volume" : fs->why[0] ? fs->why : f2_strerror(r));
		free(ir);
		return GC_EXIT_ERROR;
	}
	if ((ir->mode & 0170000) != 0100000) {
		fprintf(stderr, "defrag.f2fs: %s is not a regular file\n", path);
		free(ir);
		return GC_EXIT_ERROR;
	}
	*ino = ir->ino;
	free(ir);
	return 0;
}

/* Data blocks and extents (runs of consecutive addresses) of ino. */
static int file_extents(struct f2_fs *fs, uint32_t ino, uint64_t *blocks, uint64_t *extents)
{
	struct f2_file *f = NULL;
	uint64_t nblk, fofs;
	uint32_t prev = 0;
	int r = f2_file_open(fs, ino, &f);

	*blocks = *extents = 0;
	if (r)
		return r;
	nblk = (f->ir.size + F2_BLKSIZE - 1) / F2_BLKSIZE;
	for (fofs = f2_file_next_data(f, 0); fofs < nblk; fofs = f2_file_next_data(f, fofs + 1)) {
		uint32_t addr;

		r = f2_file_map(f, fofs, &addr, NULL);
		if (r)
			break;
		if (addr == F2_NULL_ADDR || addr == F2_NEW_ADDR || addr == F2_COMPRESS_ADDR)
			continue;
		(*blocks)++;
		if (!prev || addr != prev + 1)
			(*extents)++;
		prev = addr;
	}
	f2_file_close(f);
	return r;
}

static void print_extents(const struct defrag_cmd *c, const char *when, uint64_t blocks,
			  uint64_t extents)
{
	printf("%s: %s: %s%llu data blocks in %llu extent%s\n", c->device, c->file, when,
	       (unsigned long long)blocks, (unsigned long long)extents, extents == 1 ? "" : "s");
}

/* --file: report (-n) or rewrite the file's data. */
static int file_mode(const struct defrag_cmd *c)
{
	struct f2_fs *fs = NULL;
	struct f2_io *io = NULL;
	struct f2_engine *w = NULL;
	struct f2_gc_move_stats ms;
	uint64_t blocks, extents;
	uint32_t ino = 0;
	char why[F2_WHY_LEN + 64] = "";
	int r, rc;

	rc = c->dry_run ? gc_open_ro("defrag.f2fs", c->device, &fs) :
			  gc_open_rw("defrag.f2fs", c->device, &io, &fs);
	if (rc)
		return rc;
	if (!c->dry_run && (rc = gc_check_clean("defrag.f2fs", c->device, fs))) {
		f2_fs_close(fs);
		f2_io_close(io);
		return rc;
	}
	rc = lookup_file(fs, c->file, &ino);
	if (!rc && (r = file_extents(fs, ino, &blocks, &extents))) {
		fprintf(stderr, "defrag.f2fs: %s: %s\n", c->file, fs->why[0] ? fs->why : f2_strerror(r));
		rc = GC_EXIT_ERROR;
	}
	if (rc || c->dry_run || extents <= 1) {
		if (!rc)
			print_extents(c, extents <= 1 && !c->dry_run ? "already contiguous: " : "",
				      blocks, extents);
		f2_fs_close(fs);
		if (io)
			f2_io_close(io);
		return rc;
	}
	print_extents(c, "before: ", blocks, extents);
	memset(&ms, 0, sizeof(ms));
	r = f2_engine_open_zoned(fs, c->device, &w, why, sizeof(why));
	if (!r)
		r = f2_gc_move_file(w, ino, &ms);
	if (!r)
		r = f2_gc_checkpoint(w);
	if (r) {
		fprintf(stderr, "defrag.f2fs: %s: %s; the volume keeps its last checkpoint\n", c->file,
			w && f2_engine_why(w)[0] ? f2_engine_why(w) : why[0] ? why : f2_strerror(r));
		rc = GC_EXIT_ERROR;
	}
	f2_engine_close(w);
	f2_fs_close(fs);
	f2_io_close(io);
	if (rc)
		return rc;
	rc = gc_open_ro("defrag.f2fs", c->device, &fs);
	if (rc)
		return rc;
	r = file_extents(fs, ino, &blocks, &extents);
	if (r) {
		fprintf(stderr, "defrag.f2fs: %s after rewriting: %s\n", c->file,
			fs->why[0] ? fs->why : f2_strerror(r));
		rc = GC_EXIT_ERROR;
	} else {
		printf("%s: %s: %llu blocks rewritten\n", c->device, c->file,
		       (unsigned long long)ms.data_moved);
		print_extents(c, "after: ", blocks, extents);
	}
	f2_fs_close(fs);
	return rc;
}

/* Valid blocks (SIT) left in [start, start+len). */
static int range_valid(struct f2_fs *fs, uint64_t start, uint64_t len, uint64_t *n)
{
	uint64_t a = start, end = start + len;

	*n = 0;
	while (a < end && f2_fs_in_main(fs, a)) {
		uint32_t segno = f2_fs_segno(fs, a);
		uint64_t s0 = f2_fs_seg_start(fs, segno);
		struct f2_sit_info si;
		int r = f2_sit_get(fs, segno, &si);

		if (r)
			return r;
		for (; a < end && a < s0 + F2_BLKS_PER_SEG; a++)
			*n += si.vblocks && f2_test_bit_msb(si.valid_map, (uint32_t)(a - s0));
	}
	return 0;
}

/* Move the range's valid blocks next to the target and commit. */
static int range_move(const struct defrag_cmd *c)
{
	struct f2_fs *fs = NULL;
	struct f2_io *io = NULL;
	struct f2_engine *w = NULL;
	struct f2_gc_move_stats ms;
	uint64_t before = 0, left = 0;
	char why[F2_WHY_LEN + 64] = "";
	int r, rc = gc_open_rw("defrag.f2fs", c->device, &io, &fs);

	if (rc)
		return rc;
	rc = gc_check_clean("defrag.f2fs", c->device, fs);
	if (rc)
		goto out;
	r = range_valid(fs, c->start, c->len, &before);
	if (r) {
		fprintf(stderr, "defrag.f2fs: %s: %s\n", c->device, fs->why[0] ? fs->why : f2_strerror(r));
		rc = GC_EXIT_ERROR;
		goto out;
	}
	memset(&ms, 0, sizeof(ms));
	if (before) {
		r = f2_engine_open_zoned(fs, c->device, &w, why, sizeof(why));
		if (!r)
			r = f2_gc_move_range(w, c->start, c->len, c->target, c->shrink, &ms);
		if (!r)
			r = f2_gc_checkpoint(w);
		if (r) {
			fprintf(stderr, "defrag.f2fs: %s: moving [0x%llx-0x%llx]: %s; the volume keeps "
				"its last checkpoint\n", c->device, (unsigned long long)c->start,
				(unsigned long long)(c->start + c->len - 1),
				w && f2_engine_why(w)[0] ? f2_engine_why(w) : why[0] ? why :
				f2_strerror(r));
			rc = GC_EXIT_ERROR;
		}
		f2_engine_close(w);
	}
	f2_fs_close(fs);
	f2_io_close(io);
	fs = NULL;
	io = NULL;
	if (rc)
		return rc;
	rc = gc_open_ro("defrag.f2fs", c->device, &fs);
	if (rc)
		return rc;
	r = range_valid(fs, c->start, c->len, &left);
	if (r) {
		fprintf(stderr, "defrag.f2fs: %s after moving: %s\n", c->device,
			fs->why[0] ? fs->why : f2_strerror(r));
		rc = GC_EXIT_ERROR;
		goto out;
	}
	printf("%s: moved [0x%llx-0x%llx] %s 0x%llx: %llu valid blocks before, %llu data and "
	       "%llu node blocks moved, %llu skipped, %llu valid blocks left\n", c->device,
	       (unsigned long long)c->start, (unsigned long long)(c->start + c->len - 1),
	       c->shrink ? "to the left of" : "to the right of", (unsigned long long)c->target,
	       (unsigned long long)before, (unsigned long long)ms.data_moved,
	       (unsigned long long)ms.node_moved, (unsigned long long)ms.skipped,
	       (unsigned long long)left);
	if (left)
		rc = GC_EXIT_ERROR;
out:
	f2_fs_close(fs);
	if (io)
		f2_io_close(io);
	return rc;
}

int main(int argc, char **argv)
{
	struct defrag_cmd c;
	struct f2_fs *fs = NULL;
	int r, rc;

	r = parse(argc, argv, &c);
	if (r)
		return r > 0 ? GC_EXIT_OK : GC_EXIT_USAGE;
	if (c.file)
		return file_mode(&c);
	rc = gc_open_ro("defrag.f2fs", c.device, &fs);
	if (rc)
		return rc;
	if (settle_range(fs, &c)) {
		f2_fs_close(fs);
		return GC_EXIT_USAGE;
	}
	if (!c.dry_run) {
		f2_fs_close(fs);
		return range_move(&c);
	}
	r = range_report(fs, &c);
	if (r) {
		fprintf(stderr, "defrag.f2fs: %s: %s\n", c.device, fs->why[0] ? fs->why : f2_strerror(r));
		rc = GC_EXIT_ERROR;
	}
	f2_fs_close(fs);
	return rc;
}
