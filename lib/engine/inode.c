// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/inode.c - inodes through the engine: creation as the Linux 6.1
 * driver lays a new inode out (extra attributes, inline xattr area,
 * inline data or dentries, device numbers, file temperature from the
 * superblock's extension lists), hard links, unlink and deletion with
 * every block and node freed, and the orphan list.  The rule for a new
 * inode's extra area and inline xattr area is eng_inode_fields(), which
 * mkfs uses too (its own rule, ENG_INODE_MKFS).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "f2/errors.h"
#include "internal.h"

/* Does name end in ".ext" (case-insensitive)? */
static int has_ext(const char *name, size_t len, const char *ext)
{
	size_t el = strnlen(ext, F2_EXTENSION_LEN);

	if (!el)
		return 0;
	if (len < el + 2 || name[len - el - 1] != '.')
		return 0;
	return !strncasecmp(name + len - el, ext, el);
}

/* Cold (1) or hot (2) by the superblock's extension lists, else 0. */
static int temperature(const struct f2_super *sb, const char *name, size_t len)
{
	uint32_t n = f2_le32(sb->extension_count), hot = sb->hot_ext_count;
	char ext[F2_EXTENSION_LEN + 1];

	if (n > F2_MAX_EXTENSION)
		n = F2_MAX_EXTENSION;
	if (hot > n)
		hot = n;
	for (uint32_t i = 0; i < n; i++) {
		memcpy(ext, sb->extension_list[i], F2_EXTENSION_LEN);
		ext[F2_EXTENSION_LEN] = 0;
		if (has_ext(name, len, ext))
			return i < n - hot ? 1 : 2;
	}
	return 0;
}

static void encode_rdev(le32 *a, uint64_t rdev)
{
	uint32_t major = (uint32_t)(rdev >> 32), minor = (uint32_t)rdev;

	if (major < 256 && minor < 256) {
		f2_set_le32(a[0], major << 8 | minor);
		a[1] = 0;
	} else {
		a[0] = 0;
		f2_set_le32(a[1], (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12));
		a[2] = 0;
	}
}

/* Owner and the three times of a (crtime is set apart: not every inode
 * has room for it). */
static void set_owner_times(struct f2_inode *i, const struct f2_wattr *a)
{
	f2_set_le32(i->i_uid, a->uid);
	f2_set_le32(i->i_gid, a->gid);
	f2_set_le64(i->i_atime, a->atime);
	f2_set_le64(i->i_ctime, a->ctime);
	f2_set_le64(i->i_mtime, a->mtime);
	f2_set_le32(i->i_atime_nsec, a->atime_ns);
	f2_set_le32(i->i_ctime_nsec, a->ctime_ns);
	f2_set_le32(i->i_mtime_nsec, a->mtime_ns);
}

/* 0 when directory dir has no entry name (casefolded: none folding like
 * it), else -EEXIST naming the entry, or the error. */
static int name_free(struct f2_engine *w, uint32_t dir, const char *name, size_t len)
{
	char there[F2_NAME_LEN + 1];
	uint32_t found;
	int err = eng_dir_find(w, dir, (const uint8_t *)name, len, &found, 0, there);

	if (err)
		return err == -ENOENT ? 0 : err;
	if (strlen(there) == len && !memcmp(there, name, len))
		return eng_fail(w, -EEXIST, "'%.*s' exists in directory ino %u", (int)len, name,
			       dir);
	return eng_fail(w, -EEXIST, "'%.*s' folds like '%s', which exists in casefolded "
		       "directory ino %u", (int)len, name, there, dir);
}

/* Inode ino's link count changed by delta. */
static int add_links(struct f2_engine *w, uint32_t ino, int delta)
{
	struct eng_blk *b;
	int err = eng_inode_get(w, ino, &b);

	if (err)
		return err;
	f2_set_le32(eng_node(b)->i.i_links, f2_le32(eng_node(b)->i.i_links) + (uint32_t)delta);
	b->dirty = 1;
	return 0;
}

int f2_engine_lookup(struct f2_engine *w, uint32_t dir, const char *name, size_t len,
		  uint32_t *ino)
{
	int err = eng_maybe_writeback(w);

	return err ? err : eng_dir_find(w, dir, (const uint8_t *)name, len, ino, 0, NULL);
}

/* Bytes of the extra area the features need (mkfs's rule): up to the
 * last field any of them uses, i_projid at least. */
static uint16_t extra_isize_for(uint32_t feat)
{
	size_t end = offsetof(struct f2_inode, i_projid);

	if (feat & F2_FEAT_PRJQUOTA)
		end = offsetof(struct f2_inode, i_inode_checksum);
	if (feat & F2_FEAT_INODE_CHKSUM)
		end = offsetof(struct f2_inode, i_crtime);
	if (feat & F2_FEAT_INODE_CRTIME)
		end = offsetof(struct f2_inode, i_compr_blocks);
	if (feat & F2_FEAT_COMPRESSION)
		end = offsetof(struct f2_inode, i_extra_end);
	return (uint16_t)(end - offsetof(struct f2_inode, i_extra_isize));
}

void eng_inode_fields(struct f2_inode *i, uint32_t feat, enum eng_inode_rule rule,
		      const struct f2_wattr *a)
{
	int driver = rule == ENG_INODE_DRIVER;

	f2_set_le16(i->i_mode, a->mode);
	set_owner_times(i, a);
	f2_set_le32(i->i_generation, a->generation);
	f2_set_le32(i->i_flags, a->flags);
	i->i_inline = driver ? F2_INLINE_XATTR : 0;
	if (!(feat & F2_FEAT_EXTRA_ATTR))
		return;
	i->i_inline |= F2_EXTRA_ATTR;
	f2_set_le16(i->i_extra_isize, driver ? F2_EXTRA_ISIZE : extra_isize_for(feat));
	if (driver && (feat & F2_FEAT_FLEX_INLINE_XATTR))
		f2_set_le16(i->i_inline_xattr_size, F2_INLINE_XATTR_ADDRS);
	if (feat & F2_FEAT_INODE_CRTIME) {	/* both rules leave room for it */
		f2_set_le64(i->i_crtime, a->crtime);
		f2_set_le32(i->i_crtime_nsec, a->crtime_ns);
	}
}

void eng_inode_init(struct f2_engine *w, struct eng_blk *b, uint32_t dir, const char *name,
		   size_t len, const struct f2_wattr *a)
{
	uint32_t feat = w->fs->features;
	struct f2_inode *i;
	int isdir = S_ISDIR(a->mode), temp;

	i = &eng_node(b)->i;
	eng_inode_fields(i, feat, ENG_INODE_DRIVER, a);
	f2_set_le32(i->i_links, isdir ? 2 : 1);
	f2_set_le64(i->i_blocks, 1);
	f2_set_le32(i->i_pino, dir);
	f2_set_le32(i->i_namelen, (uint32_t)len);
	memcpy(i->i_name, name, len);
	if (S_ISREG(a->mode)) {
		temp = temperature(&w->fs->sb, name, len);
		if (temp == 1)
			i->i_advise |= F2_ADVISE_COLD;
		else if (temp == 2)
			i->i_advise |= F2_ADVISE_HOT;
	}
	if (S_ISREG(a->mode) || S_ISLNK(a->mode))
		i->i_inline |= F2_INLINE_DATA;
	if (S_ISCHR(a->mode) || S_ISBLK(a->mode)) {
		struct eng_ilayout l;

		eng_inode_layout(eng_node(b), feat, &l);
		encode_rdev(ENG_IADDR(eng_node(b), l.extra), a->rdev);
	}
}

/*
 * The i_flags of a new inode of mode a->mode in dir: a->flags, and the
 * casefold flag of dir for a directory (the kernel's F2FS_FL_INHERITED
 * masked by f2fs_mask_flags: files and symlinks do not keep it).
 */
static int new_flags(struct f2_engine *w, uint32_t dir, const struct f2_wattr *a,
		     uint32_t *flags)
{
	struct eng_blk *p;
	int err = eng_inode_get(w, dir, &p);

	if (err)
		return err;
	*flags = a->flags;
	if (!S_ISDIR(a->mode)) {
		if (a->flags & F2_CASEFOLD_FL)
			return eng_fail(w, -EINVAL, "only directories can be casefolded");
		return 0;
	}
	*flags |= f2_le32(eng_node(p)->i.i_flags) & F2_CASEFOLD_FL;
	if ((*flags & F2_CASEFOLD_FL) && !(w->fs->features & F2_FEAT_CASEFOLD))
		return eng_fail(w, F2_EUNSUPP, "casefolded directory on a volume without the "
			       "casefold feature");
	return 0;
}

int f2_engine_create(struct f2_engine *w, uint32_t dir, const char *name, size_t len,
		  const struct f2_wattr *a, uint32_t *out)
{
	struct f2_wattr na = *a;
	uint32_t ino;
	struct eng_blk *b;
	int err, isdir = S_ISDIR(a->mode);

	err = eng_maybe_writeback(w);
	if (err)
		return err;
	if (!len || len > F2_NAME_LEN || memchr(name, '/', len) || memchr(name, 0, len))
		return eng_fail(w, -EINVAL, "invalid name '%.*s'", (int)len, name);
	if (!eng_ftype(a->mode))
		return eng_fail(w, -EINVAL, "mode 0%o has no file type", a->mode);
	err = name_free(w, dir, name, len);
	if (!err)
		err = new_flags(w, dir, a, &na.flags);
	if (err)
		return err;
	err = eng_node_new(w, 0, 0, isdir, &ino, &b);
	if (err)
		return err;
	eng_inode_init(w, b, dir, name, len, &na);
	if (isdir) {
		err = eng_dir_init(w, b, dir);
		if (err)
			return err;
	}
	err = eng_dir_add(w, dir, (const uint8_t *)name, len, ino, eng_ftype(a->mode));
	if (err)
		return err;
	if (isdir) {
		err = add_links(w, dir, 1);	/* the new ".." */
		if (err)
			return err;
	}
	*out = ino;
	return 0;
}

int f2_engine_create_unnamed(struct f2_engine *w, uint32_t parent, const struct f2_wattr *a,
			     uint32_t *out)
{
	struct eng_blk *b;
	uint32_t ino;
	int err;

	if (!S_ISREG(a->mode))
		return eng_fail(w, -EINVAL, "an unnamed inode is a regular file");
	err = eng_maybe_writeback(w);
	if (!err)
		err = eng_node_new(w, 0, 0, 0, &ino, &b);
	if (err)
		return err;
	eng_inode_init(w, b, parent, "", 0, a);
	eng_node(b)->i.i_inline &= (uint8_t)~F2_INLINE_DATA;
	*out = ino;
	return 0;
}

int f2_engine_setattr(struct f2_engine *w, uint32_t ino, const struct f2_wattr *a)
{
	struct eng_blk *b;
	struct f2_inode *i;
	int err = eng_maybe_writeback(w);

	if (err || (err = eng_inode_get(w, ino, &b)))
		return err;
	i = &eng_node(b)->i;
	f2_set_le16(i->i_mode, (uint16_t)((f2_le16(i->i_mode) & S_IFMT) | (a->mode & 07777)));
	set_owner_times(i, a);
	if ((i->i_inline & F2_EXTRA_ATTR) && (w->fs->features & F2_FEAT_INODE_CRTIME) &&
	    f2_le16(i->i_extra_isize) >= offsetof(struct f2_inode, i_compr_blocks) -
					   offsetof(struct f2_inode, i_extra_isize)) {
		f2_set_le64(i->i_crtime, a->crtime);
		f2_set_le32(i->i_crtime_nsec, a->crtime_ns);
	}
	b->dirty = 1;
	return 0;
}

int f2_engine_symlink(struct f2_engine *w, uint32_t dir, const char *name, size_t len,
		   const struct f2_wattr *a, const char *target, uint32_t *ino)
{
	struct f2_wattr la = *a;
	size_t tl = strlen(target);
	int err;

	if (!tl || tl >= F2_BLKSIZE)
		return eng_fail(w, F2_ERANGE, "symlink target of %zu bytes", tl);
	la.mode = (uint16_t)(S_IFLNK | (a->mode & 07777));
	err = f2_engine_create(w, dir, name, len, &la, ino);
	return err ? err : f2_engine_write(w, *ino, 0, target, tl);
}

int f2_engine_link(struct f2_engine *w, uint32_t dir, const char *name, size_t len, uint32_t ino)
{
	struct eng_blk *b;
	uint16_t mode;
	int err = eng_maybe_writeback(w);

	if (err || (err = eng_inode_get(w, ino, &b)))
		return err;
	mode = f2_le16(eng_node(b)->i.i_mode);
	if (S_ISDIR(mode))
		return eng_fail(w, -EPERM, "ino %u: hard link to a directory", ino);
	err = name_free(w, dir, name, len);
	if (err)
		return err;
	err = eng_dir_add(w, dir, (const uint8_t *)name, len, ino, eng_ftype(mode));
	if (err)
		return err;
	return add_links(w, ino, 1);
}

int f2_engine_delete_inode(struct f2_engine *w, uint32_t ino)
{
	struct eng_blk *b;
	uint32_t xnid;
	int err = eng_truncate_blocks(w, ino, 0);

	if (err || (err = eng_inode_get(w, ino, &b)))
		return err;
	xnid = f2_le32(eng_node(b)->i.i_xattr_nid);
	if (xnid && (err = eng_node_free(w, xnid)))
		return err;
	eng_dir_forget(w, ino);
	f2_engine_orphan_del(w, ino);
	return eng_node_free(w, ino);
}

int f2_engine_unlink(struct f2_engine *w, uint32_t dir, const char *name, size_t len)
{
	struct eng_blk *b;
	uint32_t ino, links;
	uint16_t mode;
	int err = eng_maybe_writeback(w);

	if (err || (err = eng_dir_find(w, dir, (const uint8_t *)name, len, &ino, 0, NULL)))
		return err;
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return eng_fail(w, -EINVAL, "cannot unlink '%.*s'", (int)len, name);
	err = eng_inode_get(w, ino, &b);
	if (err)
		return err;
	mode = f2_le16(eng_node(b)->i.i_mode);
	if (S_ISDIR(mode)) {
		err = eng_dir_is_empty(w, ino);
		if (err < 0)
			return err;
		if (!err)
			return eng_fail(w, -ENOTEMPTY, "directory ino %u not empty", ino);
	}
	err = eng_dir_find(w, dir, (const uint8_t *)name, len, &ino, 1, NULL);
	if (err)
		return err;
	if (S_ISDIR(mode)) {
		err = add_links(w, dir, -1);	/* its ".." is gone */
		return err ? err : f2_engine_delete_inode(w, ino);
	}
	err = eng_inode_get(w, ino, &b);
	if (err)
		return err;
	links = f2_le32(eng_node(b)->i.i_links);
	if (links > 1) {
		f2_set_le32(eng_node(b)->i.i_links, links - 1);
		b->dirty = 1;
		return 0;
	}
	return f2_engine_delete_inode(w, ino);
}

/* ---- orphans ------------------------------------------------------------ */
int f2_engine_orphan_add(struct f2_engine *w, uint32_t ino)
{
	for (size_t i = 0; i < w->norphans; i++)
		if (w->orphans[i] == ino)
			return 0;
	if (w->norphans == w->orphan_cap) {
		size_t cap = w->orphan_cap ? w->orphan_cap * 2 : 64;
		uint32_t *o = realloc(w->orphans, cap * sizeof(*o));

		if (!o)
			return -ENOMEM;
		w->orphans = o;
		w->orphan_cap = cap;
	}
	w->orphans[w->norphans++] = ino;
	return 0;
}

int f2_engine_orphan_del(struct f2_engine *w, uint32_t ino)
{
	for (size_t i = 0; i < w->norphans; i++)
		if (w->orphans[i] == ino) {
			w->orphans[i] = w->orphans[--w->norphans];
			return 0;
		}
	return -ENOENT;
}
