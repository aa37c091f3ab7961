/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metaimage.h - what metaimage.c (the image writer) and scramble.c (new
 * names for the entries of one directory) share.
 */
#ifndef DUMP_METAIMAGE_H
#define DUMP_METAIMAGE_H
#include <stddef.h>
#include <stdint.h>
#include "f2/format.h"
#include "f2/map.h"

/* One dentry area, in a dentry block or an inode's inline area. */
struct scr_area {
	uint8_t *bitmap;
	struct f2_dir_entry *de;
	uint8_t (*names)[F2_SLOT_LEN];
	uint32_t max;			/* slots */
};

/* How a directory hashes its names. */
struct scr_rules {
	int cf;				/* hashed by their fold (a known encoding) */
	int strict;			/* the encoding's strict flag */
	int lower;			/* casefolded: new names in lower case only */
};

/* Counts over the whole image. */
struct scr_stats {
	uint64_t renamed;		/* entries given a new name */
	uint64_t kept;			/* entries left as they were (see scramble.c) */
};

/* Told each rename: the entry for ino in the directory was old, is now
 * new (both len bytes). */
typedef void (*scr_renamed_fn)(void *ctx, uint32_t ino, const uint8_t *old, const uint8_t *new,
			       uint32_t len);

/* The names of one directory while it is scrambled. */
struct scr_dir {
	uint32_t ino;
	struct scr_rules rules;
	struct f2_map taken;		/* key of every old name and every new one */
	struct f2_map folds;		/* casefolded: old fold -> its new name */
	uint8_t *arena;			/* the new names folds points to */
	size_t arena_len, arena_cap;
	struct scr_stats *st;
	scr_renamed_fn renamed;
	void *ctx;
};

void scr_dir_init(struct scr_dir *sd, uint32_t ino, const struct scr_rules *rules,
		  struct scr_stats *st, scr_renamed_fn renamed, void *ctx);
void scr_dir_free(struct scr_dir *sd);
/* First pass over every area of the directory: its old names are taken,
 * so no new name repeats one.  0 or -ENOMEM. */
int scr_note(struct scr_dir *sd, const struct scr_area *a);
/* Second pass: rename the entries of a, which sits in a bucket of a level
 * with nbuckets buckets (1 for inline dentries).  0 or -ENOMEM. */
int scr_rename(struct scr_dir *sd, struct scr_area *a, uint64_t nbuckets);

/* A name of len bytes for ino that holds no old name: [a-zA-Z0-9_], only
 * lower case when lower (a casefolded parent), the same for the same
 * arguments (an i_name no entry names). */
void scr_make_name(uint32_t ino, uint32_t len, int lower, uint8_t *out);
#endif
