// SPDX-License-Identifier: GPL-2.0-or-later
/* sbitmap.c - sparse bitmap in on-demand chunks (see sbitmap.h). */
#include <errno.h>
#include <stdlib.h>
#include "sbitmap.h"

#define WORDS	(SB_CHUNK_BITS / 64)

int sbm_init(struct sbitmap *m, uint64_t nbits)
{
	m->nbits = nbits;
	m->nset = 0;
	m->nchunks = (uint32_t)((nbits + SB_CHUNK_BITS - 1) >> SB_CHUNK_SHIFT);
	m->chunk = calloc(m->nchunks ? m->nchunks : 1, sizeof(*m->chunk));
	return m->chunk ? 0 : -ENOMEM;
}

void sbm_free(struct sbitmap *m)
{
	if (!m->chunk)
		return;
	for (uint32_t i = 0; i < m->nchunks; i++)
		free(m->chunk[i]);
	free(m->chunk);
	m->chunk = NULL;
}

int sbm_set(struct sbitmap *m, uint64_t i)
{
	uint64_t *c, bit;
	uint32_t ci = (uint32_t)(i >> SB_CHUNK_SHIFT), w;

	if (i >= m->nbits)
		return -1;
	c = m->chunk[ci];
	if (!c) {
		c = m->chunk[ci] = calloc(WORDS, sizeof(uint64_t));
		if (!c)
			return -1;
	}
	w = (uint32_t)(i & (SB_CHUNK_BITS - 1));
	bit = 1ull << (w & 63);
	if (c[w >> 6] & bit)
		return 1;
	c[w >> 6] |= bit;
	m->nset++;
	return 0;
}

void sbm_clear(struct sbitmap *m, uint64_t i)
{
	uint64_t *c;
	uint32_t w;

	if (i >= m->nbits || !(c = m->chunk[i >> SB_CHUNK_SHIFT]))
		return;
	w = (uint32_t)(i & (SB_CHUNK_BITS - 1));
	if (c[w >> 6] & (1ull << (w & 63))) {
		c[w >> 6] &= ~(1ull << (w & 63));
		m->nset--;
	}
}

int sbm_test(const struct sbitmap *m, uint64_t i)
{
	const uint64_t *c;
	uint32_t w;

	if (i >= m->nbits)
		return 0;
	c = m->chunk[i >> SB_CHUNK_SHIFT];
	if (!c)
		return 0;
	w = (uint32_t)(i & (SB_CHUNK_BITS - 1));
	return !!(c[w >> 6] & (1ull << (w & 63)));
}

uint64_t sbm_next(const struct sbitmap *m, uint64_t i)
{
	while (i < m->nbits) {
		const uint64_t *c = m->chunk[i >> SB_CHUNK_SHIFT];
		uint32_t w;
		uint64_t word;

		if (!c) {
			i = ((i >> SB_CHUNK_SHIFT) + 1) << SB_CHUNK_SHIFT;
			continue;
		}
		w = (uint32_t)(i & (SB_CHUNK_BITS - 1));
		word = c[w >> 6] >> (w & 63);
		if (word) {
			i += (uint64_t)__builtin_ctzll(word);
			return i < m->nbits ? i : m->nbits;
		}
		i = (i | 63) + 1;
	}
	return m->nbits;
}

uint64_t sbm_last(const struct sbitmap *m)
{
	for (uint32_t c = m->nchunks; c-- > 0;) {
		const uint64_t *w = m->chunk[c];

		if (!w)
			continue;
		for (uint32_t i = SB_CHUNK_BITS / 64; i-- > 0;)
			if (w[i])
				return ((uint64_t)c << SB_CHUNK_SHIFT) + i * 64u +
				       (63u - (uint32_t)__builtin_clzll(w[i]));
	}
	return m->nbits;
}

uint32_t sbm_count(const struct sbitmap *m, uint64_t from, uint32_t n)
{
	uint32_t cnt = 0;

	for (uint64_t i = sbm_next(m, from); i < from + n; i = sbm_next(m, i + 1))
		cnt++;
	return cnt;
}
