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
		/* POSIX ACLs are stored with an empty name: name_len 0 is fine */
		if (off + size > total) {
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

/* On-disk ACL (fs/f2fs layout): a version-1 header, then short entries
 * (tag, perm) for the owner, owning group, mask and other, and full
 * entries (tag, perm, id) for named users and groups. */
#define F2_ACL_VERSION		1
#define POSIX_ACL_VERSION	2
#define ACL_USER_OBJ		0x01
#define ACL_USER		0x02
#define ACL_GROUP_OBJ		0x04
#define ACL_GROUP		0x08
#define ACL_MASK		0x10
#define ACL_OTHER		0x20


long f2_acl_to_posix(const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
	size_t o = 4, i = 4;

	if (len < 4 || (uint32_t)(in[0] | in[1] << 8 | in[2] << 16 | (uint32_t)in[3] << 24) !=
	    F2_ACL_VERSION || cap < 4)
		return F2_ECORRUPT;
	f2_put_le32(out, POSIX_ACL_VERSION);
	while (i < len) {
		uint16_t tag, perm;
		uint32_t id = 0xFFFFFFFFu;

		if (len - i < 4)
			return F2_ECORRUPT;
		tag = (uint16_t)(in[i] | in[i + 1] << 8);
		perm = (uint16_t)(in[i + 2] | in[i + 3] << 8);
		switch (tag) {
		case ACL_USER_OBJ: case ACL_GROUP_OBJ: case ACL_MASK: case ACL_OTHER:
			i += 4;
			break;
		case ACL_USER: case ACL_GROUP:
			if (len - i < 8)
				return F2_ECORRUPT;
			id = (uint32_t)in[i + 4] | (uint32_t)in[i + 5] << 8 |
			     (uint32_t)in[i + 6] << 16 | (uint32_t)in[i + 7] << 24;
			i += 8;
			break;
		default:
			return F2_ECORRUPT;
		}
		if (cap - o < 8)
			return F2_ERANGE;
		f2_put_le16(out + o, tag);
		f2_put_le16(out + o + 2, perm);
		f2_put_le32(out + o + 4, id);
		o += 8;
	}
	return (long)o;
}
