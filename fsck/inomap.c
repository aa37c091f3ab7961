// SPDX-License-Identifier: GPL-2.0-or-later
/* inomap.c - per-inode records in an open addressing hash (see inomap.h). */
#include <stdlib.h>
#include "inomap.h"

static uint32_t slot_of(uint32_t ino, uint32_t cap)
{
	return (ino * 2654435761u) & (cap - 1);
}

int inomap_init(struct inomap *m)
{
	m->cap = 1024;
	m->n = 0;
	m->tab = calloc(m->cap, sizeof(*m->tab));
	return m->tab ? 0 : -1;
}

void inomap_free(struct inomap *m)
{
	free(m->tab);
	m->tab = NULL;
}

struct ino_rec *inomap_find(const struct inomap *m, uint32_t ino)
{
	if (!ino)
		return NULL;	/* 0 marks an empty slot */
	for (uint32_t s = slot_of(ino, m->cap);; s = (s + 1) & (m->cap - 1)) {
		if (m->tab[s].ino == ino)
			return &m->tab[s];
		if (!m->tab[s].ino)
			return NULL;
	}
}

static int grow(struct inomap *m)
{
	struct ino_rec *old = m->tab;
	uint32_t oc = m->cap;

	m->tab = calloc((size_t)oc * 2, sizeof(*m->tab));
	if (!m->tab) {
		m->tab = old;
		return -1;
	}
	m->cap = oc * 2;
	for (uint32_t i = 0; i < oc; i++) {
		uint32_t s;

		if (!old[i].ino)
			continue;
		for (s = slot_of(old[i].ino, m->cap); m->tab[s].ino; s = (s + 1) & (m->cap - 1))
			;
		m->tab[s] = old[i];
	}
	free(old);
	return 0;
}

struct ino_rec *inomap_get(struct inomap *m, uint32_t ino, int *created)
{
	struct ino_rec *r = inomap_find(m, ino);
	uint32_t s;

	if (created)
		*created = 0;
	if (r || !ino)
		return r;
	if ((uint64_t)(m->n + 1) * 20 > (uint64_t)m->cap * 17 && grow(m))
		return NULL;
	for (s = slot_of(ino, m->cap); m->tab[s].ino; s = (s + 1) & (m->cap - 1))
		;
	m->tab[s].ino = ino;
	m->n++;
	if (created)
		*created = 1;
	return &m->tab[s];
}
