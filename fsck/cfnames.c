// SPDX-License-Identifier: GPL-2.0-or-later
/* cfnames.c - the names of one casefolded directory (cfnames.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/casefold.h"
#include "f2/hash.h"
#include "cfnames.h"

void cf_names_init(struct cf_names *s)
{
	memset(s, 0, sizeof(*s));
	f2_map_init(&s->heads, sizeof(uint32_t), F2_MAP_KEY32);
}

int cf_names_reset(struct cf_names *s, int strict, uint32_t dir)
{
	f2_map_free(&s->heads);
	s->n = 0;
	s->used = 0;
	s->strict = strict;
	if (cf_names_add(s, cf_names_key((const uint8_t *)".", 1), (const uint8_t *)".", 1, dir))
		return -ENOMEM;
	return cf_names_add(s, cf_names_key((const uint8_t *)"..", 2), (const uint8_t *)"..", 2, 0);
}

uint32_t cf_names_key(const uint8_t *name, uint32_t len)
{
	uint32_t h;

	if (f2_dentry_hash_casefold(name, len, 0, &h) == F2_CF_RAW)
		h = f2_tea_hash(name, len);
	return h;
}

int cf_names_find(const struct cf_names *s, uint32_t key, const uint8_t *name, uint32_t len)
{
	const uint32_t *head = f2_map_find(&s->heads, key);

	for (uint32_t i = head ? *head : 0; i; i = s->v[i - 1].next) {
		const struct cf_name *c = &s->v[i - 1];
		const uint8_t *t = s->text + c->off;

		if (f2_casefold_name_eq(name, len, t, c->len, s->strict) ||
		    f2_casefold_name_eq(t, c->len, name, len, s->strict))
			return (int)(i - 1);
	}
	return -1;
}

int cf_names_add(struct cf_names *s, uint32_t key, const uint8_t *name, uint32_t len,
		 uint32_t ino)
{
	uint32_t *head;

	if (s->n == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 64;
		struct cf_name *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	if (s->used + len > s->tcap) {
		size_t cap = s->tcap ? s->tcap * 2 : 4096;
		uint8_t *t;

		while (cap < s->used + len)
			cap *= 2;
		t = realloc(s->text, cap);
		if (!t)
			return -ENOMEM;
		s->text = t;
		s->tcap = cap;
	}
	head = f2_map_insert(&s->heads, key, NULL);
	if (!head)
		return -ENOMEM;
	memcpy(s->text + s->used, name, len);
	s->v[s->n] = (struct cf_name){ *head, (uint32_t)s->used, ino, (uint16_t)len };
	s->used += len;
	*head = ++s->n;
	return 0;
}

void cf_names_free(struct cf_names *s)
{
	f2_map_free(&s->heads);
	free(s->v);
	free(s->text);
	memset(s, 0, sizeof(*s));
}
