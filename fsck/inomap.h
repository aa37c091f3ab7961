/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inomap.h - what the tree walk remembers per inode: links found in
 * dentries, the inode's own i_links, its kind and state.  A map keyed by
 * ino (f2/map.h) with the records inline: a 4-byte key and a 12-byte
 * record, 16 bytes an inode, filled up to 85%.
 */
#ifndef FSCK_INOMAP_H
#define FSCK_INOMAP_H
#include <stdint.h>
#include "f2/map.h"

#define INO_DIR		0x01	/* a directory */
#define INO_WALKED	0x02	/* node tree walked */
#define INO_BAD		0x04	/* unreadable or failed its checks */
#define INO_ORPHAN	0x08	/* on the checkpoint's orphan list */
#define INO_SPECIAL	0x10	/* reached without a dentry (root, quota) */
#define INO_RECON	0x20	/* unreachable, reconnected under lost+found */

struct ino_rec {
	uint16_t found;		/* dentries naming it: read with ino_found() */
	uint16_t links;		/* i_links on disk: read with ino_links() */
	uint32_t subdirs : 22;	/* directories among its entries (saturates) */
	uint32_t present : 1;	/* (dense table) the record exists */
	uint32_t flags : 6;	/* INO_* */
	uint32_t ftype : 3;	/* enum f2_ftype from the mode */
};
_Static_assert(sizeof(struct ino_rec) == 8, "ino_rec: 8 bytes, 12 with its key");
/* found and links both INO_BIG: the counts are in inomap.big (either
 * reached INO_BIG: a file of 65535 links or names) */
#define INO_BIG		0xFFFFu
#define INO_SUBDIRS_MAX	0x3FFFFFu

/* Records of inos below dlimit sit in a table indexed by ino (8 bytes an
 * ino in the range, used or not); the others, and all before
 * inomap_densify, in the hash map (about 14 bytes a record, 1.5 times
 * that while it doubles).  With a million files whose nids are dense
 * the table needs 8 MB where a map of 16-byte slots peaked at 48 MB. */
struct inomap {
	struct f2_map map;	/* ino -> struct ino_rec */
	struct ino_rec *dense;	/* dlimit records, or NULL */
	uint32_t dlimit;
	size_t dn;		/* records present in dense */
	struct f2_map big;	/* ino -> struct ino_big: counts past 65534 */
};
struct ino_big {
	uint32_t found, links;
};

/* Allocates on first use: never fails. */
static inline int inomap_init(struct inomap *m)
{
	f2_map_init(&m->map, sizeof(struct ino_rec), F2_MAP_KEY32);
	f2_map_init(&m->big, sizeof(struct ino_big), F2_MAP_KEY32);
	m->dense = NULL;
	m->dlimit = 0;
	m->dn = 0;
	return 0;
}
void inomap_free(struct inomap *m);
/* Move to a table for inos below limit, when that costs no more than the
 * map would for nused records: 1 if done, 0 if not (too sparse, or no
 * memory: the map stays, which works as well). */
int inomap_densify(struct inomap *m, uint32_t limit, uint64_t nused);
static inline size_t inomap_count(const struct inomap *m)
{
	return m->dn + m->map.n;
}
/* The record of ino, created zeroed if absent (*created set); NULL on ENOMEM
 * and for ino 0. */
static inline struct ino_rec *inomap_get(struct inomap *m, uint32_t ino, int *created)
{
	if (!ino) {
		if (created)
			*created = 0;
		return NULL;
	}
	if (ino < m->dlimit) {
		struct ino_rec *r = &m->dense[ino];
		int fresh = !r->present;

		if (fresh) {
			*r = (struct ino_rec){ .present = 1 };
			m->dn++;
		}
		if (created)
			*created = fresh;
		return r;
	}
	return (struct ino_rec *)f2_map_insert(&m->map, ino, created);
}
static inline struct ino_rec *inomap_find(const struct inomap *m, uint32_t ino)
{
	if (ino && ino < m->dlimit)
		return m->dense[ino].present ? &m->dense[ino] : NULL;
	return (struct ino_rec *)f2_map_find(&m->map, ino);
}
/* The counts of ino's record r. */
static inline uint32_t ino_found(const struct inomap *m, uint32_t ino, const struct ino_rec *r)
{
	const struct ino_big *b;

	if (r->found != INO_BIG)
		return r->found;
	b = (const struct ino_big *)f2_map_find(&m->big, ino);
	return b ? b->found : INO_BIG;
}
static inline uint32_t ino_links(const struct inomap *m, uint32_t ino, const struct ino_rec *r)
{
	const struct ino_big *b;

	if (r->found != INO_BIG)
		return r->links;
	b = (const struct ino_big *)f2_map_find(&m->big, ino);
	return b ? b->links : INO_BIG;
}
/* Set them: 0, or -ENOMEM (nothing changed). */
int ino_set_counts(struct inomap *m, uint32_t ino, struct ino_rec *r, uint32_t found,
		   uint32_t links);
static inline int ino_set_links(struct inomap *m, uint32_t ino, struct ino_rec *r, uint32_t v)
{
	if (r->found != INO_BIG && v < INO_BIG) {
		r->links = (uint16_t)v;
		return 0;
	}
	return ino_set_counts(m, ino, r, ino_found(m, ino, r), v);
}
static inline int ino_add_found(struct inomap *m, uint32_t ino, struct ino_rec *r)
{
	if (r->found + 1u < INO_BIG) {
		r->found++;
		return 0;
	}
	return ino_set_counts(m, ino, r, ino_found(m, ino, r) + 1, ino_links(m, ino, r));
}
/* Every record in no particular order: start with *pos = 0; NULL at the end. */
struct ino_rec *inomap_next(const struct inomap *m, size_t *pos, uint32_t *ino);
#endif
