/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/map.h - a hash map from 64-bit keys to fixed-size values kept in the
 * table itself: open addressing with linear probing, Fibonacci hashing,
 * the table doubled when it passes 85% full, backward-shift removal (no
 * tombstones).
 *
 * A slot is a key followed by vsize bytes of value, so records live inline
 * (one allocation for the whole map); a map of pointers is a map with
 * vsize = sizeof(void *), used through the f2_pmap_* helpers.  Every key
 * can be stored, 0 and UINT64_MAX included.  F2_MAP_KEY32 stores keys in
 * 4 bytes (larger keys are refused) and aligns values to 4 bytes; other
 * maps align them to 8.  A value pointer stays valid until the next
 * insertion or removal.  The map holds no global state.
 */
#ifndef F2_MAP_H
#define F2_MAP_H
#include <stddef.h>
#include <stdint.h>

#define F2_MAP_KEY32	1u	/* keys fit in 32 bits: stored in 4 bytes */

struct f2_map {
	unsigned char *slots;	/* cap + 1 slots; slot cap holds key 0's value */
	size_t cap, n;		/* cap 0 or a power of two; n keys stored */
	uint32_t vsize, voff;	/* value bytes, and their offset in a slot */
	uint32_t stride;	/* bytes a slot */
	uint8_t shift;		/* 64 - log2(cap) */
	uint8_t key32;		/* F2_MAP_KEY32 */
	uint8_t zero;		/* key 0 is stored */
};

/* An empty map of vsize-byte values; allocates nothing. */
void f2_map_init(struct f2_map *m, size_t vsize, unsigned flags);
/* Frees the table; the map is empty and usable again. */
void f2_map_free(struct f2_map *m);
/* Room for n keys without a rehash: 0 or -ENOMEM. */
int f2_map_reserve(struct f2_map *m, size_t n);
/* The value of key, or NULL if absent. */
void *f2_map_find(const struct f2_map *m, uint64_t key);
/* The value of key, inserted zeroed if absent (*created, when not NULL,
 * says whether); NULL on ENOMEM or for a key too wide for the map. */
void *f2_map_insert(struct f2_map *m, uint64_t key, int *created);
/* Removes key, first copying its value to old (when not NULL): returns 1
 * if it was there, else 0. */
int f2_map_remove(struct f2_map *m, uint64_t key, void *old);
/* Iteration in no particular order: start with *pos = 0; each call returns
 * the next value (its key in *key when not NULL), NULL after the last.  No
 * insertion or removal while iterating. */
void *f2_map_next(const struct f2_map *m, size_t *pos, uint64_t *key);

/* ---- maps of pointers (vsize sizeof(void *)); NULL means absent ---- */
static inline void *f2_pmap_get(const struct f2_map *m, uint64_t key)
{
	void **v = (void **)f2_map_find(m, key);

	return v ? *v : NULL;
}
/* Sets key's value, replacing any: 0 or -ENOMEM. */
int f2_pmap_put(struct f2_map *m, uint64_t key, void *val);
/* Removes key: its value, or NULL if absent. */
void *f2_pmap_del(struct f2_map *m, uint64_t key);
/* The m->n values in no particular order, in a malloc'd array (NULL on
 * ENOMEM): for walks that remove entries. */
void **f2_pmap_values(const struct f2_map *m);
#endif
