/* SPDX-License-Identifier: GPL-2.0-or-later */
/* populate.h - copy a host directory tree into an F2FS volume (mkfs --root). */
#ifndef MKFS_POPULATE_H
#define MKFS_POPULATE_H
#include <stdint.h>
#include <stdio.h>

#define POP_MAX_MAPS	16
#define POP_MAX_CASEFOLD 64

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
	int progress;			/* -1 auto (stderr is a tty), 0 off, 1 on */
	int quiet;
};

/* Add --casefold PATH to o; 0, or -1 (with a message on stderr, after
 * prog) when PATH is not a plain path ("." or ".." in it) or there are
 * too many. */
int pop_add_casefold(struct pop_opts *o, const char *path, const char *prog);
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
