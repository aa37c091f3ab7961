// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/map.c - the hash map of f2/map.h.  Slot i of cap holds a key and
 * its value; key 0 marks an empty slot, so a stored key 0 lives apart, in
 * the extra slot cap.  Empty slots are all zero bytes, so a new value is
 * zeroed already.  The loops are written once and instantiated for 4- and
 * 8-byte keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/map.h"

#define MIN_CAP		16
#define GOLDEN		0x9E3779B97F4A7C15ull

static inline unsigned char *slot(const struct f2_map *m, size_t i)
{
	return m->slots + i * m->stride;
}

static inline uint64_t key_at(const unsigned char *s, int k32)
{
	uint32_t k4;
	uint64_t k8;

	if (k32) {
		memcpy(&k4, s, sizeof(k4));
		return k4;
	}
	memcpy(&k8, s, sizeof(k8));
	return k8;
}

static inline void set_key(unsigned char *s, uint64_t key, int k32)
{
	uint32_t k4 = (uint32_t)key;

	if (k32)
		memcpy(s, &k4, sizeof(k4));
	else
		memcpy(s, &key, sizeof(key));
}

/* Fibonacci hashing of the key with its high half folded in: consecutive
 * keys (inode and node numbers) spread evenly over the table, and so do
 * keys that differ only in their high half (the engine's ino << 32 | fofs). */
static inline size_t home(const struct f2_map *m, uint64_t key)
{
	return (size_t)(((key ^ (key >> 32)) * GOLDEN) >> m->shift);
}

/* The slot holding key (nonzero, cap > 0) or else the empty slot ending
 * its probe run; inlined into every caller, once per key width. */
static inline __attribute__((always_inline)) unsigned char *
probe(const struct f2_map *m, uint64_t key, int k32)
{
	unsigned char *base = m->slots;
	size_t mask = m->cap - 1, stride = m->stride;

	for (size_t i = home(m, key);; i = (i + 1) & mask) {
		unsigned char *s = base + i * stride;
		uint64_t k = key_at(s, k32);

		if (k == key || !k)
			return s;
	}
}

static inline __attribute__((always_inline)) unsigned char *
probe_any(const struct f2_map *m, uint64_t key)
{
	return m->key32 ? probe(m, key, 1) : probe(m, key, 0);
}

static inline int is_empty(const struct f2_map *m, const unsigned char *s)
{
	return !key_at(s, m->key32);
}

/* Slots are whole 4-byte words: copied a word at a time, no call; 16
 * bytes (fsck's inodes, the maps of pointers) at once. */
static inline void copy_slot(unsigned char *dst, const unsigned char *src, size_t stride)
{
	if (stride == 16) {
		memcpy(dst, src, 16);
		return;
	}
	for (size_t j = 0; j < stride; j += 4)
		memcpy(dst + j, src + j, 4);
}

void f2_map_init(struct f2_map *m, size_t vsize, unsigned flags)
{
	uint32_t kbytes = (flags & F2_MAP_KEY32) ? 4 : 8;

	memset(m, 0, sizeof(*m));
	m->key32 = (flags & F2_MAP_KEY32) != 0;
	m->vsize = (uint32_t)vsize;
	m->voff = kbytes;
	m->stride = (uint32_t)((kbytes + vsize + kbytes - 1) / kbytes * kbytes);
}

void f2_map_free(struct f2_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
	m->shift = 0;
	m->zero = 0;
}

/* The value of key (nonzero, cap > 0), or NULL. */
static inline __attribute__((always_inline)) void *
lookup(const struct f2_map *m, uint64_t key, int k32)
{
	const unsigned char *base = m->slots;
	size_t mask = m->cap - 1, stride = m->stride;

	for (size_t i = home(m, key);; i = (i + 1) & mask) {
		const unsigned char *s = base + i * stride;
		uint64_t k = key_at(s, k32);

		if (k == key)
			return (void *)(s + m->voff);
		if (!k)
			return NULL;
	}
}

void *f2_map_find(const struct f2_map *m, uint64_t key)
{
	if (!key)
		return m->zero ? slot(m, m->cap) + m->voff : NULL;
	if (!m->cap)
		return NULL;
	if (m->key32)
		return key > UINT32_MAX ? NULL : lookup(m, key, 1);
	return lookup(m, key, 0);
}

static inline __attribute__((always_inline)) void
rehash(struct f2_map *nm, const struct f2_map *m, int k32)
{
	for (size_t j = 0; j < m->cap; j++) {
		const unsigned char *s = slot(m, j);
		uint64_t k = key_at(s, k32);

		if (k)
			copy_slot(probe(nm, k, k32), s, m->stride);
	}
}

static int grow(struct f2_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : MIN_CAP;
	struct f2_map nm = *m;

	if (cap > SIZE_MAX / m->stride - 1)
		return -ENOMEM;
	nm.slots = calloc(cap + 1, m->stride);
	if (!nm.slots)
		return -ENOMEM;
	nm.cap = cap;
	nm.shift = 64;
	for (size_t c = cap; c > 1; c >>= 1)
		nm.shift--;
	if (m->key32)
		rehash(&nm, m, 1);
	else
		rehash(&nm, m, 0);
	if (m->zero)
		copy_slot(slot(&nm, cap), slot(m, m->cap), m->stride);
	free(m->slots);
	*m = nm;
	return 0;
}

int f2_map_reserve(struct f2_map *m, size_t n)
{
	while ((n + 1) * 20 > m->cap * 17)
		if (grow(m))
			return -ENOMEM;
	return 0;
}

/* Puts key into the empty (all zero) slot s. */
static inline void *place(struct f2_map *m, unsigned char *s, uint64_t key, int *created)
{
	set_key(s, key, m->key32);
	m->n++;
	if (created)
		*created = 1;
	return s + m->voff;
}

/* Insertion of a key not found, or key 0, or into an empty map. */
static void *insert_slow(struct f2_map *m, uint64_t key, int *created)
{
	if ((m->key32 && key > UINT32_MAX) || (!m->cap && grow(m)))
		return NULL;
	if (!key) {
		if (m->zero)
			return slot(m, m->cap) + m->voff;
		m->zero = 1;
		return place(m, slot(m, m->cap), 0, created);
	}
	/* grow past 85% full, counting the slots the probe runs use */
	if ((m->n - m->zero + 1) * 20 > m->cap * 17 && grow(m))
		return NULL;
	return place(m, probe_any(m, key), key, created);
}

void *f2_map_insert(struct f2_map *m, uint64_t key, int *created)
{
	if (created)
		*created = 0;
	if (key && m->cap && (!m->key32 || key <= UINT32_MAX)) {
		unsigned char *s = probe_any(m, key);

		if (!is_empty(m, s))
			return s + m->voff;
		if ((m->n - m->zero + 1) * 20 <= m->cap * 17)
			return place(m, s, key, created);
	}
	return insert_slow(m, key, created);
}

int f2_map_remove(struct f2_map *m, uint64_t key, void *old)
{
	size_t i, j, mask = m->cap - 1;
	unsigned char *s;

	if (!key) {
		if (!m->zero)
			return 0;
		if (old)
			memcpy(old, slot(m, m->cap) + m->voff, m->vsize);
		memset(slot(m, m->cap), 0, m->stride);
		m->zero = 0;
		m->n--;
		return 1;
	}
	if (!m->cap || (m->key32 && key > UINT32_MAX))
		return 0;
	s = probe_any(m, key);
	if (is_empty(m, s))
		return 0;
	if (old)
		memcpy(old, s + m->voff, m->vsize);
	i = (size_t)(s - m->slots) / m->stride;
	m->n--;
	/* move back each later key of the run whose home is not between the
	 * hole and it, so that no probe run has a gap */
	for (j = (i + 1) & mask;; j = (j + 1) & mask) {
		uint64_t k = key_at(slot(m, j), m->key32);

		if (!k)
			break;
		if (((j - home(m, k)) & mask) >= ((j - i) & mask)) {
			copy_slot(slot(m, i), slot(m, j), m->stride);
			i = j;
		}
	}
	memset(slot(m, i), 0, m->stride);
	return 1;
}

/* The first occupied slot from i on, or cap. */
static inline __attribute__((always_inline)) size_t
scan(const struct f2_map *m, size_t i, int k32)
{
	while (i < m->cap && !key_at(slot(m, i), k32))
		i++;
	return i;
}

void *f2_map_next(const struct f2_map *m, size_t *pos, uint64_t *key)
{
	size_t i = *pos;

	if (i < m->cap) {
		i = m->key32 ? scan(m, i, 1) : scan(m, i, 0);
		if (i < m->cap) {
			*pos = i + 1;
			if (key)
				*key = key_at(slot(m, i), m->key32);
			return slot(m, i) + m->voff;
		}
	}
	if (i == m->cap && m->zero) {
		*pos = i + 1;
		if (key)
			*key = 0;
		return slot(m, i) + m->voff;
	}
	*pos = m->cap + 1;
	return NULL;
}

int f2_pmap_put(struct f2_map *m, uint64_t key, void *val)
{
	void **v = f2_map_insert(m, key, NULL);

	if (!v)
		return -ENOMEM;
	*v = val;
	return 0;
}

void *f2_pmap_del(struct f2_map *m, uint64_t key)
{
	void *v = NULL;

	return f2_map_remove(m, key, &v) ? v : NULL;
}

void **f2_pmap_values(const struct f2_map *m)
{
	void **out = malloc((m->n ? m->n : 1) * sizeof(*out));
	size_t pos = 0, k = 0;
	void **v;

	if (!out)
		return NULL;
	while ((v = f2_map_next(m, &pos, NULL)))
		out[k++] = *v;
	return out;
}
