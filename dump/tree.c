// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tree.c - dump.f2fs views of files: one inode (-i), a directory listing
 * like ls -l (--ls) and one inode by path (--stat).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "f2/errors.h"
#include "f2/file.h"
#include "dump.h"
#include "fields.h"

void mode_string(uint16_t mode, char s[11])
{
	static const char rwx[] = "rwxrwxrwx";
	char t = '?';

	switch (mode & S_IFMT) {
	case S_IFREG: t = '-'; break;
	case S_IFDIR: t = 'd'; break;
	case S_IFLNK: t = 'l'; break;
	case S_IFCHR: t = 'c'; break;
	case S_IFBLK: t = 'b'; break;
	case S_IFIFO: t = 'p'; break;
	case S_IFSOCK: t = 's'; break;
	}
	s[0] = t;
	for (int i = 0; i < 9; i++)
		s[1 + i] = (mode & (0400 >> i)) ? rwx[i] : '-';
	if (mode & S_ISUID)
		s[3] = (mode & 0100) ? 's' : 'S';
	if (mode & S_ISGID)
		s[6] = (mode & 0010) ? 's' : 'S';
	if (mode & S_ISVTX)
		s[9] = (mode & 0001) ? 't' : 'T';
	s[10] = 0;
}

static void human(uint64_t v, char *buf, size_t n)
{
	static const char units[] = "BKMGTPE";
	double x = (double)v;
	int u = 0;

	while (x >= 1024 && u < 6) {
		x /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, n, "%" PRIu64, v);
	else
		snprintf(buf, n, x < 10 ? "%.1f%c" : "%.0f%c", x, units[u]);
}

/* Name for text output: control bytes and backslashes escaped. */
static void print_name(FILE *f, const uint8_t *name, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (name[i] < 0x20 || name[i] == 0x7f || name[i] == '\\')
			fprintf(f, "\\x%02x", name[i]);
		else
			fputc(name[i], f);
	}
}

static const char *ftype_name(uint8_t t)
{
	static const char *const n[] = { "unknown", "file", "dir", "chrdev", "blkdev",
					 "fifo", "socket", "symlink" };

	return t < F2_FT_MAX ? n[t] : "invalid";
}

struct ls_ctx {
	struct dump_ctx *d;
};

static void ls_line(struct dump_ctx *d, const struct f2_inode_ref *ir, const uint8_t *name,
		    size_t len, const struct f2_dirent *de)
{
	struct out *o = d->o;
	const struct f2_inode *i = &ir->node.i;
	char mode[11], size[32], when[32], target[F2_BLKSIZE];
	time_t t = (time_t)f2_le64(i->i_mtime);
	struct tm tm;
	int have_target = 0;

	mode_string(ir->mode, mode);
	if (S_ISLNK(ir->mode))
		have_target = !f2_symlink_read(d->fs, ir, target, sizeof(target));
	if (o->json) {
		out_obj_begin(o, NULL, NULL);
		out_str(o, "name", (const char *)name, len);
		out_u64(o, "ino", ir->ino);
		if (de) {
			out_str(o, "type", ftype_name(de->type), strlen(ftype_name(de->type)));
			out_u64(o, "hash", de->hash);
		}
		out_u64(o, "mode", ir->mode);
		out_u64(o, "links", f2_le32(i->i_links));
		out_u64(o, "uid", f2_le32(i->i_uid));
		out_u64(o, "gid", f2_le32(i->i_gid));
		out_u64(o, "size", ir->size);
		out_u64(o, "mtime", f2_le64(i->i_mtime));
		if (have_target)
			out_str(o, "target", target, strlen(target));
		out_obj_end(o);
		return;
	}
	if (o->human)
		human(ir->size, size, sizeof(size));
	else
		snprintf(size, sizeof(size), "%" PRIu64, ir->size);
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	fprintf(o->f, "%s %3u %5u %5u %8s %s ", mode, f2_le32(i->i_links), f2_le32(i->i_uid),
		f2_le32(i->i_gid), size, when);
	print_name(o->f, name, len);
	if (have_target) {
		fputs(" -> ", o->f);
		print_name(o->f, (const uint8_t *)target, strlen(target));
	}
	fputc('\n', o->f);
}

static int ls_entry(void *ctx, const struct f2_dirent *de)
{
	struct dump_ctx *d = ((struct ls_ctx *)ctx)->d;
	struct f2_inode_ref *ir = malloc(sizeof(*ir));

	if (!ir)
		return -12;
	if (f2_inode_read(d->fs, de->ino, ir)) {
		dump_error(d, "'%s': %s", (const char *)de->name, d->fs->why);
		if (d->o->json) {
			out_obj_begin(d->o, NULL, NULL);
			out_str(d->o, "name", (const char *)de->name, de->name_len);
			out_u64(d->o, "ino", de->ino);
			out_str(d->o, "error", d->fs->why, strlen(d->fs->why));
			out_obj_end(d->o);
		}
	} else {
		ls_line(d, ir, de->name, de->name_len, de);
	}
	free(ir);
	return 0;
}

void dump_ls(struct dump_ctx *d, const char *path)
{
	struct f2_inode_ref *ir = malloc(sizeof(*ir));
	struct ls_ctx c = { d };
	int err;

	if (!ir) {
		dump_error(d, "out of memory");
		return;
	}
	if (f2_path_lookup(d->fs, path, ir)) {
		dump_error(d, "%s: %s", path, d->fs->why);
		free(ir);
		return;
	}
	out_arr_begin(d->o, "dentries");
	if (S_ISDIR(ir->mode)) {
		err = f2_dir_iter(d->fs, ir, ls_entry, &c);
		if (err)
			dump_error(d, "%s: %s", path, err < -1000 ? d->fs->why : f2_strerror(err));
	} else {
		const char *base = strrchr(path, '/');

		base = base ? base + 1 : path;
		ls_line(d, ir, (const uint8_t *)base, strlen(base), NULL);
	}
	out_arr_end(d->o);
	free(ir);
}

static int xattr_line(void *ctx, const struct f2_xattr *x)
{
	struct dump_ctx *d = ctx;
	const char *p = f2_xattr_prefix(x->index);
	char name[300];

	snprintf(name, sizeof(name), "%s%.*s", p ? p : "?", (int)x->name_len, x->name);
	if (!p)
		snprintf(name, sizeof(name), "index%u.%.*s", x->index, (int)x->name_len, x->name);
	if (d->o->json) {
		out_obj_begin(d->o, NULL, NULL);
		out_str(d->o, "name", name, strlen(name));
		out_u64(d->o, "index", x->index);
		out_hex(d->o, "value", x->value, x->value_len);
		out_obj_end(d->o);
	} else {
		fprintf(d->o->f, "xattr %s = ", name);
		for (unsigned i = 0; i < x->value_len; i++)
			fprintf(d->o->f, "%02x", x->value[i]);
		fputc('\n', d->o->f);
	}
	return 0;
}

static int dent_line(void *ctx, const struct f2_dirent *de)
{
	struct dump_ctx *d = ctx;

	if (d->o->json) {
		out_obj_begin(d->o, NULL, NULL);
		out_str(d->o, "name", (const char *)de->name, de->name_len);
		out_u64(d->o, "ino", de->ino);
		out_u64(d->o, "file_type", de->type);
		out_u64(d->o, "hash", de->hash);
		out_i64(d->o, "block", de->block == UINT64_MAX ? -1 : (int64_t)de->block);
		out_u64(d->o, "slot", de->slot);
		out_obj_end(d->o);
	} else {
		fprintf(d->o->f, "dentry ino %u type %u hash 0x%08x block %" PRId64 " slot %u name ",
			de->ino, de->type, de->hash,
			de->block == UINT64_MAX ? -1 : (int64_t)de->block, de->slot);
		print_name(d->o->f, de->name, de->name_len);
		fputc('\n', d->o->f);
	}
	return 0;
}

static void show_inode(struct dump_ctx *d, struct f2_inode_ref *ir)
{
	struct out *o = d->o;
	int err;

	out_obj_begin(o, "inode", "Inode");
	out_u64(o, "ino", ir->ino);
	out_u64(o, "blkaddr", ir->blkaddr);
	print_inode(o, &ir->node);
	print_footer(o, &ir->node);
	out_u64(o, "encrypted", (uint64_t)ir->encrypted);
	out_u64(o, "casefolded", !!(f2_le32(ir->node.i.i_flags) & F2_CASEFOLD_FL));
	out_u64(o, "compressed", ir->cluster_blocks != 0);
	out_i64(o, "checksum_ok", ir->csum_ok);
	out_arr_begin(o, "xattrs");
	err = f2_xattr_iter(d->fs, ir, xattr_line, d);
	if (err)
		dump_error(d, "ino %u: xattrs: %s", ir->ino, d->fs->why);
	out_arr_end(o);
	if (S_ISDIR(ir->mode)) {
		out_arr_begin(o, "dentries");
		err = f2_dir_iter(d->fs, ir, dent_line, d);
		if (err)
			dump_error(d, "ino %u: %s", ir->ino, d->fs->why);
		out_arr_end(o);
	}
	if (S_ISLNK(ir->mode)) {
		char t[F2_BLKSIZE];

		if (!f2_symlink_read(d->fs, ir, t, sizeof(t)))
			out_str(o, "target", t, strlen(t));
		else
			dump_error(d, "%s", d->fs->why);
	}
	out_obj_end(o);
}

void dump_inode(struct dump_ctx *d, uint32_t ino)
{
	struct f2_inode_ref *ir = malloc(sizeof(*ir));

	if (!ir) {
		dump_error(d, "out of memory");
		return;
	}
	if (f2_inode_read(d->fs, ino, ir))
		dump_error(d, "%s", d->fs->why);
	else
		show_inode(d, ir);
	free(ir);
}

void dump_stat(struct dump_ctx *d, const char *path)
{
	struct f2_inode_ref *ir = malloc(sizeof(*ir));

	if (!ir) {
		dump_error(d, "out of memory");
		return;
	}
	if (f2_path_lookup(d->fs, path, ir))
		dump_error(d, "%s: %s", path, d->fs->why);
	else
		show_inode(d, ir);
	free(ir);
}
