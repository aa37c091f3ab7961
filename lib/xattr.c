// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xattr.c - extended attributes: the inline area at the end of the inode
 * followed by the xattr node, walked as one buffer of 4-byte aligned
 * entries ending with a zero word.  Every entry is bounded by the buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/file.h"

const char *f2_xattr_prefix(uint8_t index)
{
	switch (index) {
	case F2_XATTR_INDEX_USER: return "user.";
	case F2_XATTR_INDEX_TRUSTED: return "trusted.";
	case F2_XATTR_INDEX_SECURITY: return "security.";
	case F2_XATTR_INDEX_POSIX_ACL_ACCESS: return "system.posix_acl_access";
	case F2_XATTR_INDEX_POSIX_ACL_DEFAULT: return "system.posix_acl_default";
	case F2_XATTR_INDEX_ADVISE: return "system.advise";
	}
	return NULL;
}

int f2_xattr_iter(struct f2_fs *fs, const struct f2_inode_ref *ir,
		  int (*fn)(void *ctx, const struct f2_xattr *x), void *ctx)
{
	size_t inl = (ir->node.i.i_inline & F2_INLINE_XATTR) ? ir->inline_xattr_words * 4u : 0;
	uint32_t xnid = f2_le32(ir->node.i.i_xattr_nid);
	size_t total = inl + (xnid ? F2_XATTR_BLOCK_SIZE : 0), off;
	uint8_t *buf;
	int err = 0;

	if (!total)
		return 0;
	buf = calloc(1, total + 4);	/* + a zero word: the walk always ends */
	if (!buf)
		return -ENOMEM;
	memcpy(buf, f2_inline_xattr(ir), inl);
	if (xnid) {
		struct f2_node *n = malloc(sizeof(*n));

		if (!n) {
			free(buf);
			return -ENOMEM;
		}
		err = f2_node_read(fs, xnid, ir->ino, n, NULL);
		if (!err)
			memcpy(buf + inl, n, F2_XATTR_BLOCK_SIZE);
		else
			f2_fs_fail(fs, err, "ino %u: xattr node: %s", ir->ino, fs->why);
		free(n);
		if (err) {
			/* the inline part alone is still readable */
			if (!inl) {
				free(buf);
				return err;
			}
			total = inl;
		}
	}
	off = sizeof(struct f2_xattr_header);
	while (off + 4 <= total) {
		const struct f2_xattr_entry *e = (const void *)(buf + off);
		struct f2_xattr x;
		size_t size;
		int r;

		if (!memcmp(buf + off, "\0\0\0\0", 4))
			break;
		size = F2_XATTR_ALIGN(sizeof(*e) + e->name_len + f2_le16(e->value_size));
		if (off + size > total || !e->name_len) {
			r = f2_fs_fail(fs, F2_ECORRUPT,
				       "ino %u: xattr entry at byte %zu (name length %u, value %u) "
				       "runs past the xattr area of %zu bytes", ir->ino, off,
				       e->name_len, f2_le16(e->value_size), total);
			free(buf);
			return r;
		}
		x.index = e->name_index;
		x.name_len = e->name_len;
		x.value_len = f2_le16(e->value_size);
		x.name = e->name;
		x.value = (const uint8_t *)e->name + e->name_len;
		r = fn(ctx, &x);
		if (r) {
			free(buf);
			return r;
		}
		off += size;
	}
	free(buf);
	return err;
}
