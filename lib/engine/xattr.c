// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/xattr.c - extended attributes through the engine: the inline area
 * at the end of the inode and the xattr node form one buffer (header,
 * 4-byte aligned entries, a zero word), split at the inline size as the
 * kernel writes it; the node is made only when the inline area is full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/errors.h"
#include "f2/node.h"
#include "internal.h"

#define HDR		sizeof(struct f2_xattr_header)

int f2_xattr_split(const char *full, uint8_t *index, const char **suffix)
{
	static const struct { const char *p; uint8_t i; } map[] = {
		{ "user.", F2_XATTR_INDEX_USER },
		{ "trusted.", F2_XATTR_INDEX_TRUSTED },
		{ "security.", F2_XATTR_INDEX_SECURITY },
	};

	for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
		size_t n = strlen(map[k].p);

		if (!strncmp(full, map[k].p, n) && full[n]) {
			*index = map[k].i;
			*suffix = full + n;
			return 0;
		}
	}
	return F2_EUNSUPP;
}

int f2_engine_setxattr(struct f2_engine *w, uint32_t ino, uint8_t index, const char *name,
		    size_t nlen, const void *value, size_t vlen)
{
	struct eng_blk *inode, *xb = NULL;
	struct eng_ilayout l;
	size_t inl, total, off, out, need;
	uint32_t xnid;
	uint8_t *buf, *nbuf;
	int err = eng_maybe_writeback(w);

	if (err || (err = eng_inode_get(w, ino, &inode)))
		return err;
	if (!nlen || nlen > 255 || vlen > F2_XATTR_BLOCK_SIZE)
		return eng_fail(w, F2_ERANGE, "ino %u: xattr name %zu / value %zu bytes", ino,
			       nlen, vlen);
	eng_inode_layout(eng_node(inode), w->fs->features, &l);
	inl = (eng_node(inode)->i.i_inline & F2_INLINE_XATTR) ? l.xwords * 4u : 0;
	total = inl + F2_XATTR_BLOCK_SIZE;
	buf = calloc(2, total + 8);
	if (!buf)
		return -ENOMEM;
	nbuf = buf + total + 8;
	memcpy(buf, &eng_node(inode)->i.i_addr[F2_ADDRS_PER_INODE - l.xwords], inl);
	xnid = f2_le32(eng_node(inode)->i.i_xattr_nid);
	if (xnid) {
		err = eng_node_get(w, xnid, ino, &xb);
		if (err)
			goto out;
		memcpy(buf + inl, xb->data, F2_XATTR_BLOCK_SIZE);
	}
	/* copy every other entry, then the new one */
	out = HDR;
	for (off = HDR; off + 4 <= total;) {
		const struct f2_xattr_entry *e = (const void *)(buf + off);
		size_t size;

		if (!memcmp(buf + off, "\0\0\0\0", 4))
			break;
		size = F2_XATTR_ALIGN(sizeof(*e) + e->name_len + f2_le16(e->value_size));
		if (off + size > total || !e->name_len) {
			err = eng_fail(w, F2_ECORRUPT, "ino %u: xattr entry at byte %zu malformed",
				      ino, off);
			goto out;
		}
		if (!(e->name_index == index && e->name_len == nlen &&
		      !memcmp(e->name, name, nlen))) {
			memcpy(nbuf + out, e, size);
			out += size;
		}
		off += size;
	}
	need = F2_XATTR_ALIGN(sizeof(struct f2_xattr_entry) + nlen + vlen);
	if (out + need + 4 > total) {
		err = eng_fail(w, F2_ERANGE, "ino %u: no room for xattr '%.*s' (%zu bytes)", ino,
			      (int)nlen, name, vlen);
		goto out;
	}
	{
		struct f2_xattr_entry *e = (void *)(nbuf + out);

		e->name_index = index;
		e->name_len = (uint8_t)nlen;
		f2_set_le16(e->value_size, (uint16_t)vlen);
		memcpy(e->name, name, nlen);
		memcpy(e->name + nlen, value, vlen);
		out += need;
	}
	f2_set_le32(((struct f2_xattr_header *)nbuf)->magic, F2_XATTR_MAGIC);
	f2_set_le32(((struct f2_xattr_header *)nbuf)->refcount, 1);
	if (out + 4 > inl && !xnid) {
		err = eng_node_new(w, ino, F2_NODE_OFS_XATTR,
				  S_ISDIR(f2_le16(eng_node(inode)->i.i_mode)), &xnid, &xb);
		if (err)
			goto out;
		f2_set_le32(eng_node(inode)->i.i_xattr_nid, xnid);
		f2_set_le64(eng_node(inode)->i.i_blocks, f2_le64(eng_node(inode)->i.i_blocks) + 1);
	}
	memcpy(&eng_node(inode)->i.i_addr[F2_ADDRS_PER_INODE - l.xwords], nbuf, inl);
	inode->dirty = 1;
	if (xb) {
		memcpy(xb->data, nbuf + inl, F2_XATTR_BLOCK_SIZE);
		xb->dirty = 1;
	}
out:
	free(buf);
	return err;
}
