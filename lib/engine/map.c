// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/map.c - the engine's hash map from 64-bit keys to pointers (open
 * addressing, linear probing, backward-shift deletion), used for the dirty
 * NAT and SIT entries and the block cache.
 */
#include <errno.h>
#include <stdlib.h>
#include "internal.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void *eng_map_get(const struct eng_map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->vals[i])
			return NULL;
		if (m->keys[i] == key)
			return m->vals[i];
	}
}

static int grow(struct eng_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	void **vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t j = 0; j < m->cap; j++) {
		size_t i;

		if (!m->vals[j])
			continue;
		for (i = slot_of(m->keys[j], cap); vals[i]; i = (i + 1) & (cap - 1))
			;
		keys[i] = m->keys[j];
		vals[i] = m->vals[j];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int eng_map_put(struct eng_map *m, uint64_t key, void *val)
{
	size_t i;

	if ((m->n + 1) * 4 > m->cap * 3) {
		int err = grow(m);

		if (err)
			return err;
	}
	for (i = slot_of(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return 0;
}

void *eng_map_del(struct eng_map *m, uint64_t key)
{
	size_t i, j, mask = m->cap - 1;
	void *v;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap);; i = (i + 1) & mask) {
		if (!m->vals[i])
			return NULL;
		if (m->keys[i] == key)
			break;
	}
	v = m->vals[i];
	m->vals[i] = NULL;
	m->n--;
	/* shift back the entries of the probe run that follows */
	for (j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
		size_t h = slot_of(m->keys[j], m->cap);

		if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
	return v;
}

void eng_map_free(struct eng_map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
}

void **eng_map_values(const struct eng_map *m)
{
	void **out = malloc((m->n ? m->n : 1) * sizeof(*out));
	size_t k = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			out[k++] = m->vals[i];
	return out;
}
