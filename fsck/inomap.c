// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inomap.c - the per-inode records of the tree walk: moving them from the
 * hash map into a table indexed by ino, and walking both (inomap.h).
 */
#include <errno.h>
#include <stdlib.h>
#include "inomap.h"

void inomap_free(struct inomap *m)
{
	f2_map_free(&m->map);
	f2_map_free(&m->big);
	free(m->dense);
	m->dense = NULL;
	m->dlimit = 0;
	m->dn = 0;
}

int inomap_densify(struct inomap *m, uint32_t limit, uint64_t nused)
{
	struct ino_rec *t;
	struct f2_map rest;
	uint64_t key;
	size_t pos = 0;
	int created;

	/* a table of limit records against at least 14 bytes a record */
	if (m->dense || limit < 2 || (uint64_t)limit * sizeof(*t) > nused * 14 + (1u << 20))
		return 0;
	t = calloc(limit, sizeof(*t));
	if (!t)
		return 0;
	f2_map_init(&rest, sizeof(struct ino_rec), F2_MAP_KEY32);
	for (struct ino_rec *r; (r = f2_map_next(&m->map, &pos, &key));) {
		struct ino_rec *to;

		if (key < limit) {
			t[key] = *r;
			t[key].present = 1;
			m->dn++;
			continue;
		}
		to = f2_map_insert(&rest, key, &created);
		if (!to) {
			f2_map_free(&rest);
			free(t);
			m->dn = 0;
			return 0;
		}
		*to = *r;
	}
	f2_map_free(&m->map);
	m->map = rest;
	m->dense = t;
	m->dlimit = limit;
	return 1;
}

int ino_set_counts(struct inomap *m, uint32_t ino, struct ino_rec *r, uint32_t found,
		   uint32_t links)
{
	struct ino_big *b;

	if (r->found != INO_BIG && found < INO_BIG && links < INO_BIG) {
		r->found = (uint16_t)found;
		r->links = (uint16_t)links;
		return 0;
	}
	b = f2_map_insert(&m->big, ino, NULL);
	if (!b)
		return -ENOMEM;
	b->found = found;
	b->links = links;
	r->found = r->links = INO_BIG;
	return 0;
}

struct ino_rec *inomap_next(const struct inomap *m, size_t *pos, uint32_t *ino)
{
	uint64_t key = 0;
	size_t hpos;
	struct ino_rec *r;

	for (; *pos < m->dlimit; (*pos)++) {
		if (m->dense[*pos].present) {
			*ino = (uint32_t)*pos;
			return &m->dense[(*pos)++];
		}
	}
	hpos = *pos - m->dlimit;
	r = (struct ino_rec *)f2_map_next(&m->map, &hpos, &key);
	*pos = hpos + m->dlimit;
	*ino = (uint32_t)key;
	return r;
}
