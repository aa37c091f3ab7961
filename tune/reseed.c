// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reseed.c - with inode_checksum every inode's checksum is seeded from the
 * volume uuid: a new uuid means a new checksum in every inode block.  The
 * NAT names them; each is read, checked to be the inode it claims, and
 * written back in place with the checksum under the new seed.  Blocks go
 * in address order (one pass over the main area).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "reseed.h"

struct inode_list {
	uint32_t *addr;
	size_t n, cap;
};

static int collect(void *ctx, const struct f2_nat_info *ni)
{
	struct inode_list *l = ctx;

	if (ni->nid != ni->ino || !ni->blkaddr)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		uint32_t *a = realloc(l->addr, cap * sizeof(*a));

		if (!a)
			return -12;
		l->addr = a;
		l->cap = cap;
	}
	l->addr[l->n++] = ni->blkaddr;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The block holds an inode whose extra area covers i_inode_checksum. */
static int has_csum(const struct f2_node *n)
{
	uint16_t extra = f2_le16(n->i.i_extra_isize);

	return f2_le32(n->footer.nid) == f2_le32(n->footer.ino) && f2_node_ofs(n) == 0 &&
	       (n->i.i_inline & F2_EXTRA_ATTR) && extra <= F2_EXTRA_ISIZE &&
	       extra >= offsetof(struct f2_inode, i_inode_checksum) + 4 -
			offsetof(struct f2_inode, i_extra_isize);
}

/* One inode block at addr: pass 0 checks its checksum, pass 1 rewrites it. */
static int reseed_one(struct f2_fs *fs, struct f2_io *io, uint32_t addr, uint32_t seed, int pass,
		      int dry_run, struct reseed_stats *st, char *why, size_t len)
{
	struct f2_node n;
	uint32_t now, want;
	int err;

	if (!f2_fs_in_main(fs, addr))
		return 0;	/* fsck's to judge; not an inode block to rewrite */
	err = f2_fs_read_block(fs, addr, &n);
	if (err) {
		snprintf(why, len, "reading block %u: %s", addr, f2_strerror(err));
		return err;
	}
	if (!has_csum(&n))
		return 0;
	now = f2_le32(n.i.i_inode_checksum);
	want = f2_inode_csum(seed, &n);
	if (pass == 0) {
		st->inodes++;
		if (now != want && now != f2_inode_csum(fs->csum_seed, &n)) {
			snprintf(why, len, "inode %u (block %u) has a bad checksum; run fsck.f2fs "
				 "first", f2_le32(n.footer.ino), addr);
			return F2_EBADCRC;
		}
		return 0;
	}
	if (now == want)
		return 0;
	st->rewritten++;
	f2_set_le32(n.i.i_inode_checksum, want);
	if (dry_run)
		return 0;
	err = f2_io_write_block(io, addr, &n);
	if (err)
		snprintf(why, len, "writing block %u: %s", addr, f2_strerror(err));
	return err;
}

/*
 * Pass 0 checks that every inode's checksum holds under the old seed (or
 * already under the new one: an earlier run was cut short): a bad one is
 * fsck's to judge, and nothing is written.  Pass 1 writes.
 */
int reseed_inodes(struct f2_fs *fs, struct f2_io *io, uint32_t seed, int dry_run,
		  struct reseed_stats *st, char *why, size_t len)
{
	struct inode_list l = { 0 };
	int err;

	memset(st, 0, sizeof(*st));
	why[0] = 0;
	err = f2_nat_iter(fs, collect, &l);
	if (err) {
		snprintf(why, len, "reading the NAT: %s", fs->why[0] ? fs->why : f2_strerror(err));
		goto out;
	}
	qsort(l.addr, l.n, sizeof(*l.addr), by_addr);
	for (int pass = 0; pass < 2 && !err; pass++)
		for (size_t i = 0; i < l.n && !err; i++)
			err = reseed_one(fs, io, l.addr[i], seed, pass, dry_run, st, why, len);
	if (!err && !dry_run)
		err = f2_io_flush(io);
	if (err && !why[0])
		snprintf(why, len, "flushing: %s", f2_strerror(err));
out:
	free(l.addr);
	return err;
}

