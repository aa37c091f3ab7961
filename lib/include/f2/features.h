/* SPDX-License-Identifier: GPL-2.0-or-later */
/* f2/features.h - superblock feature flags by name. */
#ifndef F2_FEATURES_H
#define F2_FEATURES_H
#include <stddef.h>
#include <stdint.h>

/* What this version does with a volume that has the feature. */
enum f2_feat_support {
	F2_FSUP_FULL = 0,	/* implemented: read and written */
	F2_FSUP_READ,		/* not implemented, but what the read path reads is
				 * laid out as without it: readers go on, writers refuse */
	F2_FSUP_NONE,		/* not implemented and it changes what is read:
				 * writers refuse, fsck cannot check */
};

struct f2_feature {
	const char *name;	/* as given to mkfs -O and printed by dump */
	uint32_t bit;
	uint32_t requires;	/* other bits this one needs */
	int settable;		/* accepted by mkfs -O */
	uint8_t support;	/* enum f2_feat_support */
	const char *note;	/* what it changes (not implemented ones) */
};

/* The table, terminated by a NULL name. */
extern const struct f2_feature f2_features[];

const struct f2_feature *f2_feature_by_name(const char *name);
const struct f2_feature *f2_feature_by_bit(uint32_t bit);
/*
 * Parse a comma-separated list ("extra_attr,^verity") into set and clear.
 * Unknown or unsettable names give F2_EBADOPT with *bad pointing into list.
 */
int f2_features_parse(const char *list, uint32_t *set, uint32_t *clear,
		      const char **bad, size_t *bad_len);
/* Check dependencies: returns 0 or F2_EBADOPT with *which = missing pair. */
int f2_features_check(uint32_t features, const struct f2_feature **which);
/* Write names of all bits in features into buf, comma separated. */
size_t f2_features_format(uint32_t features, char *buf, size_t size);

/* The bits of features this version does not implement: later kernels'
 * (named in the table) and bits no table names. */
uint32_t f2_features_unsupported(uint32_t features);
/* Of those, the ones that change what the read path reads (F2_FSUP_NONE
 * and every bit the table does not name). */
uint32_t f2_features_unreadable(uint32_t features);
/* bits as "device_alias (0x8000), 0x80000000": a name where the table
 * has one, always the hex value. */
size_t f2_features_describe(uint32_t bits, char *buf, size_t size);
/* One bit this version does not implement, for a reader's message:
 * "feature packed_ssa (0x10000) is not implemented by this version; read
 * as without it (...)", or "...; what it changes is not read (...)". */
size_t f2_feature_unsupported_text(uint32_t bit, char *buf, size_t size);
/*
 * The one test every writer makes before it writes (f2_fs_open_rw(), the
 * write engine): 0, or F2_EUNSUPP with why[] naming the bits this version
 * does not implement.
 */
int f2_features_writable(uint32_t features, char *why, size_t why_len);
#endif
