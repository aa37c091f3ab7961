/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inomap.h - what the tree walk remembers per inode: links found in
 * dentries, the inode's own i_links, its kind and state.  An open
 * addressing hash keyed by ino, 16 bytes an inode, filled up to 85%.
 */
#ifndef FSCK_INOMAP_H
#define FSCK_INOMAP_H
#include <stdint.h>

#define INO_DIR		0x01	/* a directory */
#define INO_WALKED	0x02	/* node tree walked */
#define INO_BAD		0x04	/* unreadable or failed its checks */
#define INO_ORPHAN	0x08	/* on the checkpoint's orphan list */
#define INO_SPECIAL	0x10	/* reached without a dentry (root, quota) */
#define INO_RECON	0x20	/* unreachable, reconnected under lost+found */

struct ino_rec {
	uint32_t ino;
	uint32_t found;		/* dentries naming it */
	uint32_t links;		/* i_links on disk */
	uint32_t subdirs : 23;	/* directories among its entries (saturates) */
	uint32_t flags : 6;	/* INO_* */
	uint32_t ftype : 3;	/* enum f2_ftype from the mode */
};
#define INO_SUBDIRS_MAX	0x7FFFFFu

struct inomap {
	struct ino_rec *tab;
	uint32_t cap, n;
};

int inomap_init(struct inomap *m);
void inomap_free(struct inomap *m);
/* The record of ino, created zeroed if absent (*created set); NULL on ENOMEM. */
struct ino_rec *inomap_get(struct inomap *m, uint32_t ino, int *created);
struct ino_rec *inomap_find(const struct inomap *m, uint32_t ino);
#endif
