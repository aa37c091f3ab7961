// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reach.c - which kept inodes the directories name, from the root down
 * (f2/rescue.h): each reached directory's dentries are read, inline from
 * its inode or from the data blocks its kept nodes address.  An inode
 * nothing names is a file deleted before the loss, or one whose name was
 * lost; the caller's stale test (a surviving NAT copy no longer names its
 * block) tells the first, which is left out; the others the checker
 * reconnects under lost+found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/bitmap.h"
#include "f2/file.h"
#include "f2/rescue.h"
#include "internal.h"

struct reach {
	struct f2_rescue *r;
	uint32_t *queue, head, tail;
	uint32_t *by_ino;	/* r->data indexes of directories, by owner ino */
	size_t nby;
};

static uint32_t owner(const struct f2_rescue *r, size_t i)
{
	return r->n[r->data[i].nid].ino;
}

static int cmp_owner(const void *a, const void *b, void *arg)
{
	const struct f2_rescue *r = arg;
	uint32_t x = owner(r, *(const uint32_t *)a), y = owner(r, *(const uint32_t *)b);

	return x < y ? -1 : x > y;
}

/* Every entry of one dentry area: the inodes it names are reached. */
static void names(struct reach *s, const uint8_t *bitmap, const struct f2_dir_entry *de,
		  const uint8_t (*nm)[F2_SLOT_LEN], uint32_t max)
{
	struct f2_rescue *r = s->r;

	for (uint32_t i = 0; i < max; i++) {
		uint32_t ino = f2_le32(de[i].ino), len = f2_le16(de[i].name_len);
		struct rs_node *n;

		if (!f2_test_bit_lsb(bitmap, i) || ino >= r->fs->max_nid)
			continue;
		if ((len == 1 && nm[i][0] == '.') || (len == 2 && nm[i][0] == '.' && nm[i][1] == '.'))
			continue;
		n = &r->n[ino];
		if (!n->kept || n->ino != ino || n->reached)
			continue;
		n->reached = 1;
		if (S_ISDIR(n->mode))
			s->queue[s->tail++] = ino;
	}
}

static void read_dir(struct reach *s, uint32_t dir, struct f2_node *blk)
{
	struct f2_rescue *r = s->r;
	struct f2_inode_ref *ir = r->ir;
	size_t lo = 0, hi = s->nby;

	if (f2_fs_read_block(r->fs, r->n[dir].blkaddr, blk) || f2_inode_parse(r->fs, dir, blk, ir))
		return;
	if (ir->node.i.i_inline & F2_INLINE_DENTRY) {
		struct f2_inline_dentry_geom g;
		const uint8_t *a = f2_inline_data(ir);

		f2_inline_dentry_geom(ir->inline_bytes, &g);
		names(s, a, (const void *)(a + g.dentry_off), (const void *)(a + g.name_off), g.nr);
		return;
	}
	while (lo < hi) {	/* the first data entry of dir */
		size_t mid = (lo + hi) / 2;

		if (owner(r, s->by_ino[mid]) < dir)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nby && owner(r, s->by_ino[lo]) == dir; lo++) {
		const struct f2_dentry_block *d = (const void *)blk;
		uint32_t a = r->data[s->by_ino[lo]].blkaddr;

		if (a == F2_NEW_ADDR || f2_fs_read_block(r->fs, a, blk))
			continue;
		names(s, d->dentry_bitmap, d->dentry, d->filename, F2_NR_DENTRY_IN_BLOCK);
	}
}

int rs_reach(struct f2_rescue *r)
{
	struct reach s = { r, NULL, 0, 0, NULL, 0 };
	struct f2_node *blk = malloc(sizeof(*blk));
	int err = -ENOMEM;

	s.queue = malloc((size_t)r->fs->max_nid * sizeof(*s.queue));
	s.by_ino = malloc((r->ndata ? r->ndata : 1) * sizeof(*s.by_ino));
	if (!blk || !s.queue || !s.by_ino)
		goto out;
	/* only directories' blocks are read: files' are never sorted */
	for (size_t i = 0; i < r->ndata; i++)
		if (r->n[r->data[i].nid].kept && S_ISDIR(r->n[owner(r, i)].mode))
			s.by_ino[s.nby++] = (uint32_t)i;
	qsort_r(s.by_ino, s.nby, sizeof(*s.by_ino), cmp_owner, r);
	if (r->n[F2_ROOT_INO].kept && r->n[F2_ROOT_INO].ino == F2_ROOT_INO) {
		r->n[F2_ROOT_INO].reached = 1;
		s.queue[s.tail++] = F2_ROOT_INO;
	}
	while (s.head < s.tail)
		read_dir(&s, s.queue[s.head++], blk);
	err = 0;
out:
	free(blk);
	free(s.queue);
	free(s.by_ino);
	return err;
}
