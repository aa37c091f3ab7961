/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dump.h - the parts of dump.f2fs and what they share. */
#ifndef DUMP_DUMP_H
#define DUMP_DUMP_H
#include <stdint.h>
#include "f2/fs.h"
#include "out.h"

/* Numbers of problems met while printing or extracting (exit status). */
struct dump_ctx {
	struct f2_fs *fs;
	struct out *o;
	const char *prog;
	unsigned errors, warnings;
};

void dump_error(struct dump_ctx *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dump_warn(struct dump_ctx *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* meta.c: ranges are [start, end); end UINT64_MAX means "to the last". */
void dump_nat(struct dump_ctx *d, uint64_t start, uint64_t end);
void dump_sit(struct dump_ctx *d, uint64_t start, uint64_t end);
void dump_ssa(struct dump_ctx *d, uint64_t start, uint64_t end);
void dump_block(struct dump_ctx *d, uint64_t blkaddr);
void dump_map(struct dump_ctx *d);

/* tree.c */
void dump_inode(struct dump_ctx *d, uint32_t ino);
void dump_ls(struct dump_ctx *d, const char *path);
void dump_stat(struct dump_ctx *d, const char *path);
/* Mode as "drwxr-xr-x". */
void mode_string(uint16_t mode, char out[11]);

/* extract.c */
struct extract_opts {
	const char *path;	/* in the image */
	const char *outdir;
	int xattrs;		/* 0 none, 1 user. only, 2 all */
	int owners;		/* restore uid/gid (default: when root) */
	int verbose;
};
void dump_extract(struct dump_ctx *d, const struct extract_opts *eo);

/* metaimage.c: --metadata-image; 0 or a negative code (reported). */
struct metaimage_opts {
	const char *output, *device;
	int scramble;		/* --scramble-names */
	int force;		/* replace an existing output file */
};
int dump_metaimage(struct dump_ctx *d, const struct metaimage_opts *mo);
#endif
