/* SPDX-License-Identifier: GPL-2.0-or-later */
/* f2/features.h - superblock feature flags by name. */
#ifndef F2_FEATURES_H
#define F2_FEATURES_H
#include <stddef.h>
#include <stdint.h>

struct f2_feature {
	const char *name;	/* as given to mkfs -O and printed by dump */
	uint32_t bit;
	uint32_t requires;	/* other bits this one needs */
	int settable;		/* accepted by mkfs -O */
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
#endif
