// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_engine.c - the write engine on an image made by our mkfs:
 *   test_engine write IMG   creates a tree through the engine (files at
 *                           the inline/direct/indirect/double-indirect
 *                           boundaries, holes, a 3000-entry directory with
 *                           long names, symlinks, hard links, devices, a
 *                           fifo, inline and node xattrs), checkpoints,
 *                           removes part of it, checkpoints again;
 *   test_engine check IMG   reads it all back through the read path;
 *   test_engine orphan IMG  an orphan kept by a checkpoint, then removed;
 *   test_engine sparse IMG  the repair iterator over a directory block
 *                           only cached and over a sparse directory.
 * bats (tests/engine/engine.bats) runs both and the reference fsck.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/io.h"
#include "f2/repair.h"
#include "unit.h"

#define NBIG	3000
#define DIND	(923ull + 2 * 1018 + 2ull * 1018 * 1018)	/* first dind block */

static const struct { const char *name; uint64_t size; } files[] = {
	{ "empty", 0 }, { "tiny", 100 }, { "inline_max", 3400 }, { "just_over", 3600 },
	{ "one_block", 4096 }, { "direct_end", 923 * 4096 }, { "dnode1", 923 * 4096 + 1 },
	{ "indirect", (923 + 2 * 1018 + 5) * 4096ull + 17 },
};

static uint8_t pattern(uint64_t off, uint32_t seed)
{
	return (uint8_t)((off * 2654435761u >> 7) ^ seed ^ (off >> 12));
}

static void fill(uint8_t *buf, uint64_t off, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = pattern(off + i, seed);
}

static struct f2_wattr attr(uint16_t mode)
{
	struct f2_wattr a = { .mode = mode, .uid = 1000, .gid = 100, .atime = 1700000000,
			      .mtime = 1700000000, .ctime = 1700000000 };
	return a;
}

static int write_file(struct f2_engine *w, uint32_t ino, uint64_t size, uint32_t seed)
{
	static uint8_t buf[1 << 20];

	for (uint64_t off = 0; off < size;) {
		size_t n = size - off < sizeof(buf) ? (size_t)(size - off) : sizeof(buf);
		int err;

		fill(buf, off, n, seed);
		err = f2_engine_write(w, ino, off, buf, n);
		if (err)
			return err;
		off += n;
	}
	return 0;
}

#define OK(x) do { int e_ = (x); if (e_) { fprintf(stderr, "%s:%d: %s: %s (%s)\n", \
	__FILE__, __LINE__, #x, f2_strerror(e_), f2_engine_why(w)); return 1; } } while (0)

/* The tree of do_write(), in three checkpointed rounds; 1 on the first
 * failing engine call (the caller closes everything either way). */
static int write_rounds(struct f2_engine *w)
{
	struct f2_wattr a;
	uint32_t d, ino, big, x, ln;
	char name[2100];
	uint8_t blk[4096], val[3000];

	a = attr(S_IFDIR | 0755);
	OK(f2_engine_create(w, F2_ROOT_INO, "d", 1, &a, &d));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		a = attr(S_IFREG | 0644);
		OK(f2_engine_create(w, d, files[i].name, strlen(files[i].name), &a, &ino));
		OK(write_file(w, ino, files[i].size, (uint32_t)i));
	}
	/* sparse: one block past the double-indirect boundary, one in the middle */
	a = attr(S_IFREG | 0600);
	OK(f2_engine_create(w, d, "sparse", 6, &a, &ino));
	fill(blk, 0, sizeof(blk), 99);
	OK(f2_engine_write(w, ino, 5000 * 4096ull, blk, sizeof(blk)));
	OK(f2_engine_write(w, ino, (DIND + 3) * 4096, blk, sizeof(blk)));
	OK(f2_engine_truncate(w, ino, (DIND + 10) * 4096));
	/* specials */
	a = attr(S_IFLNK | 0777);
	OK(f2_engine_symlink(w, d, "link", 4, &a, "tiny", &ino));
	memset(name, 'L', 2000);
	name[2000] = 0;
	OK(f2_engine_symlink(w, d, "longlink", 8, &a, name, &ino));
	a = attr(S_IFIFO | 0644);
	OK(f2_engine_create(w, d, "fifo", 4, &a, &ino));
	a = attr(S_IFCHR | 0600);
	a.rdev = (uint64_t)1 << 32 | 3;
	OK(f2_engine_create(w, d, "null", 4, &a, &ino));
	a = attr(S_IFBLK | 0600);
	a.rdev = (uint64_t)259 << 32 | 70000;
	OK(f2_engine_create(w, d, "bigdev", 6, &a, &ino));
	OK(f2_engine_lookup(w, d, "tiny", 4, &ino));
	OK(f2_engine_link(w, d, "tiny.hard", 9, ino));
	OK(f2_engine_link(w, F2_ROOT_INO, "tiny.hard2", 10, ino));
	/* xattrs: small ones inline, then enough to need the node */
	a = attr(S_IFREG | 0644);
	OK(f2_engine_create(w, d, "xattrs", 6, &a, &x));
	OK(f2_engine_setxattr(w, x, F2_XATTR_INDEX_USER, "a", 1, "1", 1));
	OK(f2_engine_setxattr(w, x, F2_XATTR_INDEX_SECURITY, "selinux", 7,
			   "u:object_r:system_file:s0", 26));
	memset(val, 'v', sizeof(val));
	OK(f2_engine_setxattr(w, x, F2_XATTR_INDEX_USER, "big", 3, val, 2000));
	OK(f2_engine_setxattr(w, x, F2_XATTR_INDEX_USER, "a", 1, "22", 2));
	/* a big directory with long names */
	a = attr(S_IFDIR | 0755);
	OK(f2_engine_create(w, F2_ROOT_INO, "big", 3, &a, &big));
	for (int i = 0; i < NBIG; i++) {
		int n = snprintf(name, sizeof(name), "entry-%05d-%.*s", i, i % 200,
				 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"
				 "mnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx"
				 "yzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghij"
				 "klmnopqrstuvwxyz");
		a = attr(S_IFREG | 0644);
		OK(f2_engine_create(w, big, name, (size_t)n, &a, &ino));
		if (i % 10 == 0) {
			fill(blk, 0, 64, (uint32_t)i);
			OK(f2_engine_write(w, ino, 0, blk, 64));
		}
	}
	OK(f2_engine_checkpoint(w));
	/* second round: remove things, make a subdir, checkpoint again */
	OK(f2_engine_unlink(w, d, "indirect", 8));
	OK(f2_engine_unlink(w, d, "tiny.hard", 9));
	for (int i = 0; i < NBIG; i += 3) {
		int n = snprintf(name, sizeof(name), "entry-%05d-%.*s", i, i % 200,
				 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"
				 "mnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx"
				 "yzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghij"
				 "klmnopqrstuvwxyz");
		OK(f2_engine_unlink(w, big, name, (size_t)n));
	}
	a = attr(S_IFDIR | 0700);
	OK(f2_engine_create(w, d, "sub", 3, &a, &ln));
	OK(f2_engine_create(w, ln, "gone", 4, &a, &ino));
	OK(f2_engine_unlink(w, ln, "gone", 4));
	CHECK(f2_engine_unlink(w, F2_ROOT_INO, "d", 1) == -ENOTEMPTY);
	OK(f2_engine_checkpoint(w));
	/* third round: a change small enough for the journals */
	a = attr(S_IFREG | 0644);
	OK(f2_engine_create(w, F2_ROOT_INO, "small", 5, &a, &ino));
	OK(f2_engine_write(w, ino, 0, "hello\n", 6));
	OK(f2_engine_checkpoint(w));
	return 0;
}

/* img opened for writing, its engine with opts o (NULL: defaults);
 * nonzero (a failure counted) when any step fails. */
static int open_rw(const char *img, const struct f2_engine_opts *o, struct f2_io **io,
		   struct f2_fs **fs, struct f2_engine **w)
{
	CHECK_EQ(f2_io_open(img, F2_IO_RDWR, io), 0);
	if (unit_failures)
		return 1;
	CHECK_EQ(f2_fs_open_io(*io, NULL, fs), 0);
	if (unit_failures)
		return 1;
	CHECK_EQ(f2_engine_open(*fs, o, w), 0);
	return unit_failures != 0;
}

static int do_write(const char *img)
{
	struct f2_io *io;
	struct f2_fs *fs;
	struct f2_engine *w;
	int rc;

	{
		struct f2_engine_opts o = { 0 };
		const char *c = getenv("TEST_ENGINE_CACHE");

		o.cache_blocks = c ? strtoul(c, NULL, 0) : 0;
		if (open_rw(img, &o, &io, &fs, &w))
			return 1;
	}
	rc = write_rounds(w);
	f2_engine_close(w);
	f2_fs_close(fs);
	f2_io_close(io);
	return rc || unit_failures ? 1 : 0;
}

struct cnt {
	int n, dirs;
};

static int count(void *ctx, const struct f2_dirent *d)
{
	struct cnt *c = ctx;

	c->n++;
	if (d->type == F2_FT_DIR)
		c->dirs++;
	return 0;
}

static int xa_found;
static int xa_fn(void *ctx, const struct f2_xattr *x)
{
	(void)ctx;
	if (x->index == F2_XATTR_INDEX_USER && x->name_len == 3 && x->value_len == 2000)
		xa_found |= 1;
	if (x->index == F2_XATTR_INDEX_USER && x->name_len == 1 && x->value_len == 2 &&
	    !memcmp(x->value, "22", 2))
		xa_found |= 2;
	if (x->index == F2_XATTR_INDEX_SECURITY && x->value_len == 26)
		xa_found |= 4;
	return 0;
}

static void check_file(struct f2_fs *fs, const char *path, uint64_t size, uint32_t seed)
{
	static uint8_t buf[1 << 16], want[1 << 16];
	struct f2_inode_ref ir;
	struct f2_file *f;

	CHECK_EQ(f2_path_lookup(fs, path, &ir), 0);
	CHECK_EQ(ir.size, size);
	if (f2_file_open_ref(fs, &ir, &f)) {
		CHECK(0);
		return;
	}
	for (uint64_t off = 0; off < size; off += sizeof(buf)) {
		long n = f2_file_pread(f, off, buf, sizeof(buf));
		size_t exp = size - off < sizeof(buf) ? (size_t)(size - off) : sizeof(buf);

		CHECK_EQ(n, exp);
		fill(want, off, exp, seed);
		if (n > 0 && memcmp(buf, want, exp)) {
			fprintf(stderr, "%s: contents differ near %llu\n", path,
				(unsigned long long)off);
			unit_failures++;
			break;
		}
	}
	f2_file_close(f);
}

static void check_file_bytes(struct f2_fs *fs, const char *path, const char *want, size_t n)
{
	struct f2_inode_ref ir;
	struct f2_file *f;
	char buf[64];

	CHECK_EQ(f2_path_lookup(fs, path, &ir), 0);
	CHECK_EQ(ir.size, n);
	if (f2_file_open_ref(fs, &ir, &f)) {
		CHECK(0);
		return;
	}
	CHECK_EQ(f2_file_pread(f, 0, buf, sizeof(buf)), n);
	CHECK(!memcmp(buf, want, n));
	f2_file_close(f);
}

/* nat_bits, when the checkpoint has them, must describe every NAT block. */
static void check_nat_bits(struct f2_fs *fs)
{
	uint32_t bytes = fs->nat_blocks / 8, blocks = (2 * bytes + 8 + 4095) / 4096, crc;
	uint64_t start = fs->packs[fs->cp_pack].start + 512 - blocks;
	uint8_t *bits;

	if (!(fs->cp_flags & F2_CP_NAT_BITS))
		return;
	bits = calloc(blocks, 4096);
	for (uint32_t i = 0; i < blocks; i++)
		CHECK_EQ(f2_fs_read_block(fs, start + i, bits + i * 4096), 0);
	memcpy(&crc, fs->cp_raw + f2_le32(fs->cp->checksum_offset), 4);
	CHECK_EQ(f2_le64(*(le64 *)bits), fs->cp_ver | (uint64_t)f2_le32(crc) << 32);
	for (uint32_t b = 0; b < fs->nat_blocks && b < fs->max_nid / 455; b++) {
		uint32_t used = b == 0;
		int full = !!(bits[8 + b / 8] & (1u << (b % 8)));
		int empty = !!(bits[8 + bytes + b / 8] & (1u << (b % 8)));

		for (uint32_t i = b == 0; i < 455; i++) {
			struct f2_nat_info ni;

			if (f2_nat_lookup(fs, b * 455 + i, &ni) == 0 && ni.blkaddr)
				used++;
		}
		if (empty != (used == 0) || full != (used == 455)) {
			fprintf(stderr, "nat_bits: block %u has %u used, bits full %d empty %d\n",
				b, used, full, empty);
			unit_failures++;
			break;
		}
	}
	free(bits);
}

static int do_check(const char *img)
{
	struct f2_fs *fs;
	struct f2_inode_ref ir;
	struct f2_file *f;
	struct cnt c = { 0, 0 };
	char path[64], tgt[4096];
	uint8_t blk[4096], want[4096];
	int hole;

	CHECK_EQ(f2_fs_open(img, NULL, &fs), 0);
	if (unit_failures)
		return 1;
	CHECK(fs->cp_flags & F2_CP_NAT_BITS);
	check_nat_bits(fs);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "/d/%s", files[i].name);
		if (!strcmp(files[i].name, "indirect")) {
			CHECK(f2_path_lookup(fs, path, &ir) == -ENOENT);
			continue;
		}
		check_file(fs, path, files[i].size, (uint32_t)i);
	}
	check_file_bytes(fs, "/small", "hello\n", 6);
	CHECK_EQ(f2_path_lookup(fs, "/d/tiny", &ir), 0);
	CHECK(ir.node.i.i_inline & F2_INLINE_DATA);
	CHECK_EQ(f2_le32(ir.node.i.i_links), 2);
	CHECK_EQ(f2_path_lookup(fs, "/tiny.hard2", &ir), 0);
	CHECK_EQ(f2_path_lookup(fs, "/d/sparse", &ir), 0);
	CHECK_EQ(ir.size, (DIND + 10) * 4096);
	CHECK_EQ(f2_le64(ir.node.i.i_blocks), 1 + 2 + 2 + 3);	/* inode, data, nodes */
	if (!f2_file_open_ref(fs, &ir, &f)) {
		fill(want, 0, sizeof(want), 99);
		CHECK_EQ(f2_file_read_block(f, 5000, blk, &hole), 0);
		CHECK(!hole && !memcmp(blk, want, sizeof(blk)));
		CHECK_EQ(f2_file_read_block(f, DIND + 3, blk, &hole), 0);
		CHECK(!hole && !memcmp(blk, want, sizeof(blk)));
		CHECK_EQ(f2_file_read_block(f, DIND + 2, blk, &hole), 0);
		CHECK(hole);
		f2_file_close(f);
	}
	CHECK_EQ(f2_path_lookup(fs, "/d/longlink", &ir), 0);
	CHECK_EQ(f2_symlink_read(fs, &ir, tgt, sizeof(tgt)), 0);
	CHECK_EQ(strlen(tgt), 2000);
	CHECK_EQ(f2_path_lookup(fs, "/d/link", &ir), 0);
	CHECK_EQ(f2_symlink_read(fs, &ir, tgt, sizeof(tgt)), 0);
	CHECK(!strcmp(tgt, "tiny"));
	CHECK_EQ(f2_path_lookup(fs, "/d/fifo", &ir), 0);
	CHECK(S_ISFIFO(ir.mode));
	CHECK_EQ(f2_path_lookup(fs, "/d/null", &ir), 0);
	CHECK(S_ISCHR(ir.mode));
	CHECK_EQ(f2_le32(ir.node.i.i_addr[ir.extra_words]), 0x103);
	CHECK_EQ(f2_path_lookup(fs, "/d/xattrs", &ir), 0);
	CHECK(ir.node.i.i_xattr_nid != 0);
	CHECK_EQ(f2_xattr_iter(fs, &ir, xa_fn, NULL), 0);
	CHECK_EQ(xa_found, 7);
	CHECK_EQ(f2_path_lookup(fs, "/big", &ir), 0);
	CHECK_EQ(f2_dir_iter(fs, &ir, count, &c), 0);
	CHECK_EQ(c.n, 2 + NBIG - (NBIG + 2) / 3);
	CHECK(f2_le32(ir.node.i.i_current_depth) > 1);
	CHECK_EQ(f2_path_lookup(fs, "/big/entry-00010-abcdefghij", &ir), 0);
	CHECK_EQ(ir.size, 64);
	CHECK(f2_path_lookup(fs, "/big/entry-00009-abcdefghi", &ir) == -ENOENT);
	CHECK_EQ(f2_path_lookup(fs, "/d", &ir), 0);
	CHECK_EQ(f2_le32(ir.node.i.i_links), 3);
	CHECK_EQ(f2_path_lookup(fs, "/d/sub", &ir), 0);
	c.n = 0;
	CHECK_EQ(f2_dir_iter(fs, &ir, count, &c), 0);
	CHECK_EQ(c.n, 2);
	f2_fs_close(fs);
	UNIT_DONE();
}

static int orphan_fn(void *ctx, uint32_t ino)
{
	uint32_t *want = ctx;

	if (ino == want[0])
		want[1]++;
	else
		want[2]++;
	return 0;
}

/* An orphan survives a checkpoint and a reopen, then goes away. */
static int do_orphan(const char *img)
{
	struct f2_io *io;
	struct f2_fs *fs;
	struct f2_engine *w;
	struct f2_wattr a = attr(S_IFREG | 0644);
	uint32_t ino, seen[3] = { 0, 0, 0 };

	for (int round = 0; round < 2; round++) {
		if (open_rw(img, NULL, &io, &fs, &w))
			return 1;
		if (round == 0) {
			OK(f2_engine_create(w, F2_ROOT_INO, "orphan", 6, &a, &ino));
			OK(f2_engine_orphan_add(w, ino));
		} else {
			OK(f2_engine_lookup(w, F2_ROOT_INO, "orphan", 6, &ino));
			CHECK_EQ(f2_engine_orphan_del(w, ino), 0);
		}
		OK(f2_engine_checkpoint(w));
		f2_engine_close(w);
		f2_fs_close(fs);
		f2_io_close(io);
		CHECK_EQ(f2_fs_open(img, NULL, &fs), 0);
		seen[0] = ino;
		seen[1] = seen[2] = 0;
		CHECK_EQ(f2_cp_orphans(fs, orphan_fn, seen), 0);
		CHECK_EQ(seen[1], round == 0);
		CHECK_EQ(seen[2], 0);
		CHECK_EQ(!!(fs->cp_flags & F2_CP_ORPHAN_PRESENT), round == 0);
		f2_fs_close(fs);
	}
	UNIT_DONE();
}

/* ---- sparse: a directory's blocks past its inode's addresses ----------- */
struct seen {
	unsigned n;
	uint64_t last;
};

static int count_fn(void *arg, struct f2_repair_slot *s)
{
	struct seen *c = arg;

	if (f2_le16(s->de[s->slot].name_len))	/* not a name's second slot */
		c->n++;
	c->last = s->bidx;
	return 0;
}

static int dir_blocks(struct f2_engine *w, uint32_t dir, uint64_t *nb)
{
	struct f2_node *n;

	OK(f2_engine_repair_node(w, dir, dir, 0, &n));
	*nb = (f2_le64(n->i.i_size) + 4095) / 4096;
	return 0;
}

/*
 * Long names added until the directory has a block past the inode's 923
 * addresses (one under a direct node not written yet): the repair
 * iterator sees every entry, the new block included; with i_size then
 * set far past the last block (a sparse directory: the kernel punches the
 * blocks that empty) it sees the same, without reading each hole.
 */
static int do_sparse(const char *img)
{
	struct f2_io *io;
	struct f2_fs *fs;
	struct f2_engine *w;
	struct f2_wattr a = attr(S_IFDIR | 0755);
	struct seen c = { 0, 0 };
	struct f2_node *n;
	uint32_t dir;
	unsigned added = 0;
	uint64_t nb = 0;
	char name[256];

	if (open_rw(img, NULL, &io, &fs, &w))
		return 1;
	OK(f2_engine_create(w, F2_ROOT_INO, "sparse", 6, &a, &dir));
	while (!unit_failures && added < 50000 && nb <= 923) {
		snprintf(name, sizeof(name), "%06u-%0248u", added, 0);
		OK(f2_engine_repair_dir_add(w, dir, (const uint8_t *)name, 255, dir,
					    F2_FT_REG_FILE));
		if (++added % 64 == 0 && dir_blocks(w, dir, &nb))
			return 1;
	}
	CHECK(nb > 923);
	OK(f2_engine_repair_dir_iter(w, dir, count_fn, &c));
	CHECK_EQ(c.n, added + 2);	/* and "." and ".." */
	CHECK_EQ(c.last, nb - 1);
	OK(f2_engine_repair_node(w, dir, dir, 0, &n));
	if (unit_failures)
		return 1;
	f2_set_le64(n->i.i_size, 1ull << 41);
	c.n = 0;
	OK(f2_engine_repair_dir_iter(w, dir, count_fn, &c));
	CHECK_EQ(c.n, added + 2);
	CHECK_EQ(c.last, nb - 1);
	f2_engine_close(w);
	f2_fs_close(fs);
	f2_io_close(io);
	UNIT_DONE();
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "orphan"))
		return do_orphan(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "sparse"))
		return do_sparse(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "write"))
		return do_write(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "check"))
		return do_check(argv[2]);
	fprintf(stderr, "usage: test_engine write|check|orphan|sparse IMG\n");
	return 2;
}
