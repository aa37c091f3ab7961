/* SPDX-License-Identifier: GPL-2.0-or-later */
/* populate.h - copy a host directory tree into an F2FS volume (mkfs --root). */
#ifndef MKFS_POPULATE_H
#define MKFS_POPULATE_H
#include <stdint.h>
#include <stdio.h>
#include "f2/engine.h"

#define POP_MAX_MAPS	16
#define POP_MAX_CASEFOLD 64
#define POP_MAX_EXT	128

/* host id range [host, host + count) becomes [fs, fs + count) */
struct pop_idmap {
	uint32_t host, fs, count;
};

struct pop_opts {
	const char *root;		/* host directory to copy */
	int64_t fixed_time;		/* every timestamp; -1 = the host's */
	struct pop_idmap uid[POP_MAX_MAPS], gid[POP_MAX_MAPS];
	uint32_t nuid, ngid;
	const char *file_contexts;	/* SELinux file_contexts, or NULL */
	const char *mount_point;	/* path of the volume's root at run time ("/") */
	/* directories made casefolded (paths in the volume, "/" its root;
	 * their subdirectories inherit the flag) */
	const char *casefold[POP_MAX_CASEFOLD];
	uint32_t ncasefold;
	/* Android canned fs_config (fsconfig.h): owner, mode and
	 * capabilities of the paths it lists */
	const char *fs_config;
	int owner_root;			/* unlisted paths are 0:0 (sload without -P) */
	/* compression (sload -c, mkfs --compress): regular files are made
	 * compressed with copts (f2/engine.h); with extensions listed, only
	 * files whose name ends in ".EXT" for one of them (ext_exclude 0),
	 * or all files but those (ext_exclude 1) */
	int compress;
	struct f2_compress_opts copts;
	const char *ext[POP_MAX_EXT];
	uint32_t next;
	int ext_exclude;
	int progress;			/* -1 auto (stderr is a tty), 0 off, 1 on */
	int quiet;
};

/* Add --casefold PATH to o; 0, or -1 (with a message on stderr, after
 * prog) when PATH is not a plain path ("." or ".." in it) or there are
 * too many. */
int pop_add_casefold(struct pop_opts *o, const char *path, const char *prog);
/* Compression options shared by sload.f2fs and mkfs.f2fs --root, each
 * checked, with a message on stderr after prog; 0 or -1.
 * pop_compress_algo: "lzo", "lzo-rle", "lz4", "lz4hc" (the lz4hc coder,
 * stored as lz4), "zstd"; refused when unknown or this build has no
 * encoder. */
void pop_compress_defaults(struct pop_opts *o);	/* lz4, 4 blocks, saving 1 */
/* After parsing: an option given (its name in given, or NULL) without
 * compression on (the option enable turns it on), an algorithm the build
 * lacks, a cluster that cannot save min_saved blocks: -1 with a message. */
int pop_compress_check(const struct pop_opts *o, const char *given, const char *enable,
		       const char *prog);
int pop_compress_algo(struct pop_opts *o, const char *name, const char *prog);
int pop_compress_log(struct pop_opts *o, const char *arg, const char *prog);
int pop_compress_min_saved(struct pop_opts *o, const char *arg, const char *prog);
/* -i EXT (exclude 0) or -x EXT (exclude 1); the two do not mix. */
int pop_compress_ext(struct pop_opts *o, const char *ext, int exclude, const char *prog);
/* Is the regular file name (no directory) one o compresses? */
int pop_compress_picks(const struct pop_opts *o, const char *name);
/* Parse "HOST:FS[:COUNT]" into one map entry; returns 0 or -1. */
int pop_parse_idmap(const char *spec, struct pop_idmap *m);
/* Copy o->root into the unmounted volume on dev (as opened by
 * f2_io_open, so F2_IO_RECORD/F2_IO_FAULT apply) and checkpoint.
 * Messages go to err; returns 0 or a negative code. */
int pop_run(const char *dev, const struct pop_opts *o, FILE *err);

/* What pop_run_stats reports after a successful run. */
struct pop_stats {
	uint64_t files;			/* inodes made (hard links aside) */
	uint64_t bytes;			/* file data copied */
	uint64_t image_bytes;		/* end of the last segment in use */
	uint64_t free_bytes;		/* user blocks still free */
};
/* pop_run, and the stats into *s (may be NULL). */
int pop_run_stats(const char *dev, const struct pop_opts *o, FILE *err, struct pop_stats *s);
#endif
