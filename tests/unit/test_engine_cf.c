// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_engine_cf.c - casefolded directories through the write engine, on
 * an image made by our mkfs (tests/engine/casefold.bats makes it):
 *   test_engine_cf utf8 IMG     (-C utf8) names added, found by their fold,
 *                               refused when they fold like an entry,
 *                               removed by another spelling, +F inherited by
 *                               directories only, a lookup the hash misses
 *                               found by the scan, f2_engine_casefold_dir's
 *                               rules; then a checkpoint, read back
 *   test_engine_cf strict IMG   (-C utf8:strict) names the kernel refuses
 *   test_engine_cf plain IMG    (no casefold feature) +F refused
 * Every stored hash is checked against f2_dentry_hash_casefold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/casefold.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/io.h"
#include "f2/repair.h"
#include "unit.h"

#define NMANY	700

static struct f2_wattr attr(uint16_t mode)
{
	struct f2_wattr a = { .mode = mode, .atime = 1700000000, .mtime = 1700000000,
			      .ctime = 1700000000 };
	return a;
}

static int mk(struct f2_engine *w, uint32_t dir, const char *name, uint16_t mode, uint32_t *ino)
{
	struct f2_wattr a = attr(mode);
	uint32_t dummy;

	return f2_engine_create(w, dir, name, strlen(name), &a, ino ? ino : &dummy);
}

static int look(struct f2_engine *w, uint32_t dir, const char *name, uint32_t *ino)
{
	uint32_t dummy;

	return f2_engine_lookup(w, dir, name, strlen(name), ino ? ino : &dummy);
}

/* ---- damaging one hash through the repair iterator ---------------------- */
struct rehash {
	const char *name;
	uint32_t set;
	int done;
};

static int rehash_fn(void *arg, struct f2_repair_slot *s)
{
	struct rehash *r = arg;
	size_t l = f2_le16(s->de[s->slot].name_len);

	if (l != strlen(r->name) || memcmp(s->names[s->slot], r->name, l))
		return 0;
	f2_set_le32(s->de[s->slot].hash_code, r->set);
	r->done = 1;
	return 1;
}

/* ---- read-path checks after the checkpoint ------------------------------ */
struct hashes {
	int strict;
	unsigned n, bad;
};

static int hash_fn(void *ctx, const struct f2_dirent *d)
{
	struct hashes *h = ctx;
	uint32_t want;

	h->n++;
	if (f2_dentry_hash_casefold(d->name, d->name_len, h->strict, &want) < 0 ||
	    want != d->hash) {
		fprintf(stderr, "entry '%s': hash %08x, casefold hash %08x\n",
			(const char *)d->name, d->hash, want);
		h->bad++;
	}
	return 0;
}

static uint32_t iflags(struct f2_fs *fs, uint32_t ino)
{
	struct f2_inode_ref ir;

	if (f2_inode_read(fs, ino, &ir))
		return 0xffffffffu;
	return f2_le32(ir.node.i.i_flags);
}

static void read_back(const char *img, int strict, uint32_t cf, uint32_t sub, uint32_t file,
		      uint32_t link)
{
	struct f2_fs *fs;
	struct f2_inode_ref ir;
	struct f2_dirent d;
	struct hashes h = { strict, 0, 0 };

	CHECK_EQ(f2_fs_open(img, NULL, &fs), 0);
	if (!fs)
		return;
	CHECK_EQ(iflags(fs, cf) & F2_CASEFOLD_FL, F2_CASEFOLD_FL);
	CHECK_EQ(iflags(fs, sub) & F2_CASEFOLD_FL, F2_CASEFOLD_FL);
	CHECK_EQ(iflags(fs, file) & F2_CASEFOLD_FL, 0);
	CHECK_EQ(iflags(fs, link) & F2_CASEFOLD_FL, 0);
	CHECK_EQ(f2_inode_read(fs, cf, &ir), 0);
	CHECK_EQ(f2_dir_iter(fs, &ir, hash_fn, &h), 0);
	CHECK_EQ(h.bad, 0);
	CHECK(h.n > NMANY);
	CHECK(!(ir.node.i.i_inline & F2_INLINE_DENTRY));
	CHECK(ir.size > 2 * 4096);
	CHECK_EQ(f2_dir_lookup(fs, &ir, (const uint8_t *)"MANY-0123.TXT", 13, &d), 0);
	CHECK_EQ(strcmp((const char *)d.name, "many-0123.txt"), 0);
	CHECK_EQ(f2_path_lookup(fs, "/cf/SUB/DEEPER", &ir), 0);
	CHECK_EQ(f2_le32(ir.node.i.i_flags) & F2_CASEFOLD_FL, F2_CASEFOLD_FL);
	f2_fs_close(fs);
}

#define OKW(x) do { int e_ = (x); if (e_) { fprintf(stderr, "%s:%d: %s: %s (%s)\n", \
	__FILE__, __LINE__, #x, f2_strerror(e_), f2_engine_why(w)); unit_failures++; } } while (0)

static void utf8(struct f2_engine *w, const char *img, int strict)
{
	uint32_t cf, sub, deeper, plain, file, link, ino, ino2;
	struct f2_wattr a;
	struct rehash r = { "Hello.txt", 0, 0 };
	char name[64];

	OKW(mk(w, F2_ROOT_INO, "cf", S_IFDIR | 0755, &cf));
	OKW(f2_engine_casefold_dir(w, cf));
	OKW(mk(w, cf, "Hello.txt", S_IFREG | 0644, &file));
	OKW(mk(w, cf, "Straße", S_IFREG | 0644, NULL));
	OKW(mk(w, cf, "sub", S_IFDIR | 0755, &sub));
	OKW(mk(w, sub, "deeper", S_IFDIR | 0755, &deeper));
	/* a file asking for +F is refused: files never carry it */
	a = attr(S_IFREG | 0644);
	a.flags = F2_CASEFOLD_FL;
	CHECK_EQ(f2_engine_create(w, cf, "flagged", 7, &a, &ino), -EINVAL);
	a = attr(S_IFLNK | 0777);
	OKW(f2_engine_symlink(w, cf, "Link", 4, &a, "Hello.txt", &link));
	/* inline: found by their fold, refused when they fold alike */
	OKW(look(w, cf, "HELLO.TXT", &ino));
	CHECK_EQ(ino, file);
	OKW(look(w, cf, "STRASSE", NULL));
	CHECK_EQ(look(w, cf, "nosuchname", NULL), -ENOENT);
	CHECK_EQ(mk(w, cf, "hello.TXT", S_IFREG | 0644, NULL), -EEXIST);
	CHECK(strstr(f2_engine_why(w), "Hello.txt") != NULL);
	CHECK_EQ(f2_engine_link(w, cf, "STRASSE", 7, file), -EEXIST);
	/* past inline, past level 0 (2 blocks) */
	for (int i = 0; i < NMANY; i++) {
		snprintf(name, sizeof(name), "many-%04d.txt", i);
		OKW(mk(w, cf, name, S_IFREG | 0644, NULL));
	}
	OKW(look(w, cf, "MANY-0007.TXT", NULL));
	OKW(look(w, cf, "hElLo.TxT", &ino));
	CHECK_EQ(ino, file);
	CHECK_EQ(mk(w, cf, "MANY-0699.txt", S_IFREG | 0644, NULL), -EEXIST);
	CHECK_EQ(mk(w, cf, "SUB", S_IFDIR | 0755, NULL), -EEXIST);
	/* removed by another spelling */
	OKW(mk(w, cf, "Remove.Me", S_IFREG | 0644, &ino));
	OKW(f2_engine_unlink(w, cf, "REMOVE.ME", 9));
	CHECK_EQ(look(w, cf, "remove.me", NULL), -ENOENT);
	/* an entry in the wrong bucket (a foreign hash): the scan finds it,
	 * and a name folding like it is still refused */
	CHECK_EQ(f2_dentry_hash_casefold((const uint8_t *)"Hello.txt", 9, strict, &r.set), 0);
	r.set ^= 0x5a5a5a5bu;
	OKW(f2_engine_repair_dir_iter(w, cf, rehash_fn, &r));
	CHECK(r.done);
	OKW(look(w, cf, "HELLO.txt", &ino));
	CHECK_EQ(ino, file);
	CHECK_EQ(mk(w, cf, "hello.txt", S_IFREG | 0644, NULL), -EEXIST);
	CHECK_EQ(f2_dentry_hash_casefold((const uint8_t *)"Hello.txt", 9, strict, &r.set), 0);
	r.done = 0;
	OKW(f2_engine_repair_dir_iter(w, cf, rehash_fn, &r));
	CHECK(r.done);
	/* f2_engine_casefold_dir: entries casefolding leaves alone are kept;
	 * one it would change makes it -ENOTEMPTY */
	OKW(mk(w, F2_ROOT_INO, "plain", S_IFDIR | 0755, &plain));
	OKW(mk(w, plain, "lower", S_IFREG | 0644, NULL));
	OKW(f2_engine_casefold_dir(w, plain));
	OKW(look(w, plain, "LOWER", NULL));
	OKW(mk(w, F2_ROOT_INO, "upper", S_IFDIR | 0755, &ino2));
	OKW(mk(w, ino2, "Upper", S_IFREG | 0644, NULL));
	CHECK_EQ(f2_engine_casefold_dir(w, ino2), -ENOTEMPTY);
	CHECK_EQ(look(w, ino2, "UPPER", NULL), -ENOENT);
	/* not valid UTF-8: its own bytes only (not strict) */
	if (!strict) {
		OKW(mk(w, cf, "bad\xff\xfename", S_IFREG | 0644, &ino));
		OKW(look(w, cf, "bad\xff\xfename", &ino2));
		CHECK_EQ(ino, ino2);
		CHECK_EQ(look(w, cf, "BAD\xff\xfeNAME", NULL), -ENOENT);
	}
	OKW(f2_engine_checkpoint(w));
	read_back(img, strict, cf, sub, file, link);
	(void)deeper;
}

static void strict_refusals(struct f2_engine *w)
{
	uint32_t cf, ino;

	OKW(mk(w, F2_ROOT_INO, "cf", S_IFDIR | 0755, &cf));
	OKW(f2_engine_casefold_dir(w, cf));
	CHECK_EQ(mk(w, cf, "bad\xff\xfename", S_IFREG | 0644, NULL), -EINVAL);
	CHECK(strstr(f2_engine_why(w), "not valid UTF-8") != NULL);
	CHECK_EQ(mk(w, cf, "\xe2\x80\x8b", S_IFREG | 0644, NULL), -EINVAL);	/* empty fold */
	CHECK(strstr(f2_engine_why(w), "empty") != NULL);
	CHECK_EQ(look(w, cf, "bad\xff\xfename", NULL), -EINVAL);
	OKW(mk(w, cf, "ok", S_IFREG | 0644, &ino));
	/* outside casefolded directories any bytes go */
	OKW(mk(w, F2_ROOT_INO, "bad\xff\xfename", S_IFREG | 0644, NULL));
	OKW(f2_engine_checkpoint(w));
}

static void plain_refusals(struct f2_engine *w)
{
	struct f2_wattr a = attr(S_IFDIR | 0755);
	uint32_t d;

	OKW(mk(w, F2_ROOT_INO, "d", S_IFDIR | 0755, &d));
	CHECK_EQ(f2_engine_casefold_dir(w, d), F2_EUNSUPP);
	a.flags = F2_CASEFOLD_FL;
	CHECK_EQ(f2_engine_create(w, F2_ROOT_INO, "e", 1, &a, &d), F2_EUNSUPP);
	OKW(f2_engine_checkpoint(w));
}

int main(int argc, char **argv)
{
	struct f2_io *io = NULL;
	struct f2_fs *fs = NULL;
	struct f2_engine *w = NULL;

	if (argc != 3) {
		fprintf(stderr, "usage: test_engine_cf utf8|strict|plain IMG\n");
		return 2;
	}
	CHECK_EQ(f2_io_open(argv[2], F2_IO_RDWR, &io), 0);
	if (io)
		CHECK_EQ(f2_fs_open_io(io, NULL, &fs), 0);
	if (fs)
		CHECK_EQ(f2_engine_open(fs, NULL, &w), 0);
	if (!w)
		UNIT_DONE();
	if (!strcmp(argv[1], "utf8"))
		utf8(w, argv[2], 0);
	else if (!strcmp(argv[1], "strict"))
		strict_refusals(w);
	else if (!strcmp(argv[1], "plain"))
		plain_refusals(w);
	else
		return 2;
	f2_engine_close(w);
	f2_fs_close(fs);
	f2_io_close(io);
	UNIT_DONE();
}
