/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/quota.h - the quota files (feature quota: sb.qf_ino[]): the Linux
 * quota v2 format, revision 1, as the driver reads and writes it.
 *
 * A file of 1 KiB blocks: block 0 holds the header and the info; block 1
 * is the root of a four-level radix tree of blocks of 256 refs (block
 * numbers), indexed by the id's bytes from the most significant; the
 * refs of the last level name data blocks: a 16-byte header and 14
 * dquot entries of 72 bytes.  A data block with a free entry is on the
 * free entry list (info.free_entry, data header next/prev); emptied
 * blocks go on the free block list (info.free_blk).  An entry that is
 * all zeroes is unused, so the driver stores itime 1 in an id's entry
 * that would otherwise be all zeroes.
 *
 * f2_quota_parse() checks the header and walks the tree of a file read
 * into memory, every ref and count bounded before use; f2_quota_build()
 * lays a file out from a list of entries as the driver would insert them.
 */
#ifndef F2_QUOTA_H
#define F2_QUOTA_H
#include <stddef.h>
#include <stdint.h>
#include "f2/format.h"

#define F2_QT_BLKSIZE		1024u	/* quota file block */
#define F2_QT_REFS		(F2_QT_BLKSIZE / 4)	/* refs in a tree block */
#define F2_QT_DEPTH		4	/* tree levels */
#define F2_QT_ROOT		1u	/* the root tree block (0 is the header) */
#define F2_QT_ENTRIES		14u	/* dquot entries in a data block */
#define F2_QT_REVISION		1u	/* v2r1: 64-bit limits and usage */
#define F2_QT_GRACE		604800u	/* default grace times, 7 days */

/* Block 0, offset 0. */
struct f2_qt_header {
	le32 magic;		/* 0x00 per type: f2_quota_magic() */
	le32 version;		/* 0x04 F2_QT_REVISION */
} __attribute__((packed));
_Static_assert(sizeof(struct f2_qt_header) == 8, "f2_qt_header");

/* Block 0, offset 8. */
struct f2_qt_info {
	le32 bgrace;		/* 0x08 block grace time, seconds */
	le32 igrace;		/* 0x0c inode grace time */
	le32 flags;		/* 0x10 */
	le32 blocks;		/* 0x14 blocks in the file */
	le32 free_blk;		/* 0x18 head of the free block list, 0: none */
	le32 free_entry;	/* 0x1c head of the free entry list, 0: none */
} __attribute__((packed));
_Static_assert(sizeof(struct f2_qt_info) == 24, "f2_qt_info");
#define F2_QT_INFO_OFF		8u

/* Start of a data block. */
struct f2_qt_dblk {
	le32 next_free;		/* 0x00 free entry (or free block) list */
	le32 prev_free;		/* 0x04 */
	le16 entries;		/* 0x08 entries in use */
	le16 pad1;
	le32 pad2;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_qt_dblk) == 16, "f2_qt_dblk");

/* One id's entry (v2r1_disk_dqblk), after the data block header. */
struct f2_qt_dquot {
	le32 id;		/* 0x00 */
	le32 pad;		/* 0x04 */
	le64 ihardlimit;	/* 0x08 inodes */
	le64 isoftlimit;	/* 0x10 */
	le64 curinodes;		/* 0x18 */
	le64 bhardlimit;	/* 0x20 bytes */
	le64 bsoftlimit;	/* 0x28 */
	le64 curspace;		/* 0x30 bytes */
	le64 btime;		/* 0x38 end of the block grace period */
	le64 itime;		/* 0x40 end of the inode grace period */
} __attribute__((packed));
_Static_assert(sizeof(struct f2_qt_dquot) == 72, "f2_qt_dquot");
_Static_assert(sizeof(struct f2_qt_dblk) + F2_QT_ENTRIES * sizeof(struct f2_qt_dquot) <=
	       F2_QT_BLKSIZE, "quota data block");

/* The header and info of a file, in host order. */
struct f2_quota_hdr {
	uint32_t bgrace, igrace, flags;
	uint32_t blocks, free_blk, free_entry;
};

/* One id's entry, in host order. */
struct f2_quota_dq {
	uint32_t id;
	uint64_t ihard, isoft, inodes;	/* inode limits and usage */
	uint64_t bhard, bsoft, space;	/* space limits and usage, bytes */
	uint64_t btime, itime;		/* grace period ends */
};

/* Magic of quota type (0 user, 1 group, 2 project); 0 for another. */
uint32_t f2_quota_magic(int type);

/* Check the header of a quota file of type read into buf[len]: magic,
 * revision, blocks within the file, free lists within blocks.  Fills *h;
 * 0, or F2_EBADMAGIC / F2_ERANGE with the reason in why. */
int f2_quota_header(const void *buf, size_t len, int type, struct f2_quota_hdr *h,
		    char *why, size_t whylen);

/* Called for each entry the tree leads to, in ascending id order;
 * nonzero stops the walk and is returned by f2_quota_parse(). */
typedef int (*f2_quota_fn)(void *arg, const struct f2_quota_dq *dq);

/* f2_quota_header(), then the tree: refs within the header's blocks and
 * never the header or the root, no block reached twice, no data block
 * used as a tree block, data blocks with at most 14 entries, each leaf's
 * data block holding an entry for the leaf's id.  Entries found before a
 * fault have been given to fn.  0, fn's return, -ENOMEM, or F2_ECORRUPT
 * (F2_EBADMAGIC, F2_ERANGE) with the reason in why. */
int f2_quota_parse(const void *buf, size_t len, int type, struct f2_quota_hdr *h,
		   f2_quota_fn fn, void *arg, char *why, size_t whylen);

/* Lay out the quota file of type holding dq[0..n) (ids ascending, no
 * two equal) as the driver inserts them in that order: tree blocks as
 * each id's path needs them, then its entry in the data block with a
 * free entry (a new one when there is none), the last data block when
 * not full heading the free entry list.  bgrace, igrace and flags come
 * from h.  *out (malloc'd, *nblk blocks of F2_QT_BLKSIZE); 0, -EINVAL
 * for unsorted ids or a bad type, -ENOMEM. */
int f2_quota_build(int type, const struct f2_quota_hdr *h, const struct f2_quota_dq *dq,
		   size_t n, uint8_t **out, uint32_t *nblk);

struct f2_inode;
/* What the kernel charges inode in to: ids[0..2] (user, group, project:
 * i_projid with project_quota when its extra area holds it, else 0) and
 * *space, (i_blocks - 1) * 4096 bytes (its i_blocks leaves the inode
 * block out); one inode each. */
void f2_quota_charge(uint32_t features, const struct f2_inode *in, uint32_t ids[3],
		     uint64_t *space);

#endif /* F2_QUOTA_H */
