// SPDX-License-Identifier: GPL-2.0-or-later
/* features.c - the feature-flag table: names, bits and dependencies. */
#include <stdio.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/format.h"

const struct f2_feature f2_features[] = {
	{ "encrypt", F2_FEAT_ENCRYPT, 0, 1 },
	{ "blkzoned", F2_FEAT_BLKZONED, 0, 0 },
	{ "atomic_write", F2_FEAT_ATOMIC_WRITE, 0, 0 },
	{ "extra_attr", F2_FEAT_EXTRA_ATTR, 0, 1 },
	{ "project_quota", F2_FEAT_PRJQUOTA, F2_FEAT_EXTRA_ATTR, 1 },
	{ "inode_checksum", F2_FEAT_INODE_CHKSUM, F2_FEAT_EXTRA_ATTR, 1 },
	{ "flexible_inline_xattr", F2_FEAT_FLEX_INLINE_XATTR, F2_FEAT_EXTRA_ATTR, 1 },
	{ "quota", F2_FEAT_QUOTA_INO, 0, 1 },
	{ "inode_crtime", F2_FEAT_INODE_CRTIME, F2_FEAT_EXTRA_ATTR, 1 },
	{ "lost_found", F2_FEAT_LOST_FOUND, 0, 1 },
	{ "verity", F2_FEAT_VERITY, 0, 1 },
	{ "sb_checksum", F2_FEAT_SB_CHKSUM, 0, 1 },
	{ "casefold", F2_FEAT_CASEFOLD, 0, 1 },
	{ "compression", F2_FEAT_COMPRESSION, F2_FEAT_EXTRA_ATTR, 1 },
	{ "ro", F2_FEAT_RO, 0, 1 },
	{ NULL, 0, 0, 0 },
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
