// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * features.c - the feature-flag table: names, bits and dependencies, and
 * which bits this version implements.  Linux 6.1 and 6.12 define the
 * fifteen bits 0x1..0x4000, all implemented; later kernels add
 * device_alias (0x8000: a file aliasing a whole device, its blocks given
 * by its extent alone) and packed_ssa (0x10000: 4 KiB summary blocks
 * packed into larger blocks), which are not.
 */
#include <stdio.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/format.h"

/* An implemented feature: name, bit, the bits it needs, mkfs -O takes it */
#define IMPL(n, b, r, s)	{ n, b, r, s, F2_FSUP_FULL, NULL }

const struct f2_feature f2_features[] = {
	IMPL("encrypt", F2_FEAT_ENCRYPT, 0, 1),
	IMPL("blkzoned", F2_FEAT_BLKZONED, 0, 0),
	IMPL("atomic_write", F2_FEAT_ATOMIC_WRITE, 0, 0),
	IMPL("extra_attr", F2_FEAT_EXTRA_ATTR, 0, 1),
	IMPL("project_quota", F2_FEAT_PRJQUOTA, F2_FEAT_EXTRA_ATTR, 1),
	IMPL("inode_checksum", F2_FEAT_INODE_CHKSUM, F2_FEAT_EXTRA_ATTR, 1),
	IMPL("flexible_inline_xattr", F2_FEAT_FLEX_INLINE_XATTR, F2_FEAT_EXTRA_ATTR, 1),
	IMPL("quota", F2_FEAT_QUOTA_INO, 0, 1),
	IMPL("inode_crtime", F2_FEAT_INODE_CRTIME, F2_FEAT_EXTRA_ATTR, 1),
	IMPL("lost_found", F2_FEAT_LOST_FOUND, 0, 1),
	IMPL("verity", F2_FEAT_VERITY, 0, 1),
	IMPL("sb_checksum", F2_FEAT_SB_CHKSUM, 0, 1),
	IMPL("casefold", F2_FEAT_CASEFOLD, 0, 1),
	IMPL("compression", F2_FEAT_COMPRESSION, F2_FEAT_EXTRA_ATTR, 1),
	IMPL("ro", F2_FEAT_RO, 0, 1),
	{ "device_alias", F2_FEAT_DEVICE_ALIAS, 0, 0, F2_FSUP_NONE,
	  "a device alias file's blocks are given by its extent alone" },
	/* summaries stay 4 KiB: with 4 KiB blocks the SSA is as without it */
	{ "packed_ssa", F2_FEAT_PACKED_SSA, 0, 0, F2_FSUP_READ,
	  "summary blocks packed 4 KiB apart: the same layout with 4 KiB blocks" },
	{ NULL, 0, 0, 0, 0, NULL },
};

const struct f2_feature *f2_feature_by_name(const char *name)
{
	for (const struct f2_feature *f = f2_features; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

const struct f2_feature *f2_feature_by_bit(uint32_t bit)
{
	for (const struct f2_feature *f = f2_features; f->name; f++)
		if (f->bit == bit)
			return f;
	return NULL;
}

int f2_features_parse(const char *list, uint32_t *set, uint32_t *clear,
		      const char **bad, size_t *bad_len)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ", ");
		int neg = (*p == '^');
		char name[32];
		const struct f2_feature *f = NULL;

		if (n - neg < sizeof(name)) {
			memcpy(name, p + neg, n - neg);
			name[n - neg] = 0;
			f = f2_feature_by_name(name);
		}
		if (n && (!f || !f->settable)) {
			*bad = p;
			*bad_len = n;
			return F2_EBADOPT;
		}
		if (f) {
			if (neg) {
				*clear |= f->bit;
				*set &= ~f->bit;
			} else {
				*set |= f->bit;
				*clear &= ~f->bit;
			}
		}
		p += n;
		p += strspn(p, ", ");
	}
	return 0;
}

int f2_features_check(uint32_t features, const struct f2_feature **which)
{
	for (const struct f2_feature *f = f2_features; f->name; f++) {
		if ((features & f->bit) && (features & f->requires) != f->requires) {
			*which = f;
			return F2_EBADOPT;
		}
	}
	return 0;
}

size_t f2_features_format(uint32_t features, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = 0;
	for (const struct f2_feature *f = f2_features; f->name; f++) {
		if (!(features & f->bit))
			continue;
		int n = snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				 len ? "," : "", f->name);
		if (n > 0)
			len += (size_t)n;
	}
	for (uint32_t bit = 1; bit; bit <<= 1) {
		if ((features & bit) && !f2_feature_by_bit(bit)) {
			int n = snprintf(buf + len, len < size ? size - len : 0,
					 "%sunknown(0x%x)", len ? "," : "", bit);
			if (n > 0)
				len += (size_t)n;
		}
	}
	return len;
}

uint32_t f2_features_unsupported(uint32_t features)
{
	for (const struct f2_feature *f = f2_features; f->name; f++)
		if (f->support == F2_FSUP_FULL)
			features &= ~f->bit;
	return features;
}

uint32_t f2_features_unreadable(uint32_t features)
{
	for (const struct f2_feature *f = f2_features; f->name; f++)
		if (f->support != F2_FSUP_NONE)
			features &= ~f->bit;
	return features;
}

size_t f2_features_describe(uint32_t bits, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = 0;
	for (uint32_t bit = 1; bit; bit <<= 1) {
		const struct f2_feature *f = f2_feature_by_bit(bit);
		int n;

		if (!(bits & bit))
			continue;
		if (f)
			n = snprintf(buf + len, len < size ? size - len : 0, "%s%s (0x%x)",
				     len ? ", " : "", f->name, bit);
		else
			n = snprintf(buf + len, len < size ? size - len : 0, "%s0x%x",
				     len ? ", " : "", bit);
		if (n > 0)
			len += (size_t)n;
	}
	return len;
}

size_t f2_feature_unsupported_text(uint32_t bit, char *buf, size_t size)
{
	const struct f2_feature *f = f2_feature_by_bit(bit);
	char name[64];
	int n;

	f2_features_describe(bit, name, sizeof(name));
	n = snprintf(buf, size, "feature %s is not implemented by this version; %s (%s)", name,
		     f2_features_unreadable(bit) ? "what it changes is not read" :
		     "read as without it", f ? f->note : "unknown to Linux 6.12");
	return n > 0 ? (size_t)n : 0;
}

int f2_features_writable(uint32_t features, char *why, size_t why_len)
{
	uint32_t bits = f2_features_unsupported(features);
	char names[256];

	if (!bits)
		return 0;
	f2_features_describe(bits, names, sizeof(names));
	snprintf(why, why_len, "%s %s %s not supported by this version: it does not write "
		 "to such a volume", bits & (bits - 1) ? "features" : "feature", names,
		 bits & (bits - 1) ? "are" : "is");
	return F2_EUNSUPP;
}
