/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sbitmap.h - a sparse bitmap: 4 KiB chunks of 32768 bits allocated on
 * first set, so a map over every block of a 1 TiB volume costs 64 KiB of
 * pointers plus one chunk per region actually used.
 */
#ifndef FSCK_SBITMAP_H
#define FSCK_SBITMAP_H
#include <stdint.h>

#define SB_CHUNK_BITS	32768u
#define SB_CHUNK_SHIFT	15

struct sbitmap {
	uint64_t nbits;
	uint32_t nchunks;
	uint64_t nset;		/* bits currently set */
	uint64_t **chunk;	/* NULL = all zero */
};

int sbm_init(struct sbitmap *m, uint64_t nbits);
void sbm_free(struct sbitmap *m);
/* Set bit i; returns its previous value, or -1 if out of memory / range. */
int sbm_set(struct sbitmap *m, uint64_t i);
void sbm_clear(struct sbitmap *m, uint64_t i);
int sbm_test(const struct sbitmap *m, uint64_t i);
/* Next set bit >= i in m, or m->nbits. */
uint64_t sbm_next(const struct sbitmap *m, uint64_t i);
/* The highest set bit, or m->nbits when none is set. */
uint64_t sbm_last(const struct sbitmap *m);
/* Bits set in [from, from + n). */
uint32_t sbm_count(const struct sbitmap *m, uint64_t from, uint32_t n);
#endif
