/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/locate.h - where an on-disk structure of an opened volume lives, for
 * the tools that change raw bytes (inject.f2fs; the tests' f2field): the
 * block, the byte offset of the structure in it, and the checksum that
 * covers the block.  Nothing here writes.
 *
 * A NAT or SIT entry has up to three homes: the two copies of its block
 * and the checkpoint's journal, which takes precedence while it holds the
 * entry.  copy 0 is the one in effect (journal, else the copy the version
 * bitmap selects), 1 and 2 the first and second copy's block.
 */
#ifndef F2_LOCATE_H
#define F2_LOCATE_H
#include <stdint.h>

struct f2_fs;

enum f2_spot_csum {
	F2_CSUM_NONE,		/* nothing checks the block */
	F2_CSUM_INODE,		/* an inode block: inode_checksum when enabled */
};

enum f2_spot_home {
	F2_HOME_BLOCK,		/* its own block (NAT/SIT copy, SSA, node, dentry) */
	F2_HOME_JOURNAL,	/* the checkpoint's NAT or SIT journal */
	F2_HOME_CP_SUM,		/* the checkpoint's copy of a current segment's summary */
	F2_HOME_INLINE,		/* an inline dentry area of a directory inode */
};

struct f2_spot {
	uint64_t blkaddr;	/* the block */
	uint32_t off;		/* byte offset of the structure in it */
	uint8_t csum;		/* enum f2_spot_csum */
	uint8_t home;		/* enum f2_spot_home */
	uint8_t copy;		/* NAT/SIT: 1 or 2 for a block copy, 0 for the journal */
};

/* The NAT entry of nid (struct f2_nat_entry). */
int f2_locate_nat(struct f2_fs *fs, uint32_t nid, int copy, struct f2_spot *s);
/* The SIT entry of main-area segment segno (struct f2_sit_entry). */
int f2_locate_sit(struct f2_fs *fs, uint32_t segno, int copy, struct f2_spot *s);
/*
 * Summary entry (0..511) of segment segno, or with F2_SUM_AT_FOOTER its
 * block's footer: in the checkpoint pack while segno is a current segment
 * whose summary the pack holds (that copy is the one read), else the SSA.
 */
int f2_locate_sum(struct f2_fs *fs, uint32_t segno, int entry, struct f2_spot *s);
/* The block of node nid through the NAT (off 0); F2_CSUM_INODE for an
 * inode when the volume has inode_checksum. */
int f2_locate_node(struct f2_fs *fs, uint32_t nid, struct f2_spot *s);

/* A directory entry: s is its block (or the inode, inline); the slot's
 * bitmap byte, struct f2_dir_entry and first name byte are at the offsets. */
struct f2_dent_spot {
	struct f2_spot s;
	uint32_t slot;
	uint32_t bitmap_off;	/* byte holding the slot's bit (bit slot % 8) */
	uint32_t dentry_off;	/* struct f2_dir_entry of the slot */
	uint32_t name_off;	/* its first 8-byte name slot */
	uint32_t slots_free;	/* name bytes the entry may hold (its slots * 8) */
	uint32_t dir;		/* the directory holding it */
};

#define F2_DENT_CHILD	0	/* the entry naming ino in its parent (i_pino) */
#define F2_DENT_DOT	1	/* "." of directory ino */
#define F2_DENT_DOTDOT	2	/* ".." of directory ino */
/* -ENOENT when there is no such entry, F2_ECORRUPT when the inode or
 * directory cannot be read (the reason in fs->why). */
int f2_locate_dentry(struct f2_fs *fs, uint32_t ino, int which, struct f2_dent_spot *d);
#endif /* F2_LOCATE_H */
