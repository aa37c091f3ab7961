// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * casefold.c - the utf8-12.1 fold of f2/casefold.h, on the tables of
 * utf8fold_data.c.
 *
 * A name is read as units: one character (validated) and the stray
 * continuation bytes after it, its "tail".  Each character expands to its
 * fold: nothing (ignorable), itself, or up to F2_CF_MAXEXP code points;
 * the tail goes after the last of them.  Code points of class 0 and
 * removed characters are stoppers and go out as they come; a run of
 * combining marks between two stoppers goes out in passes, as the kernel
 * orders it: a first pass that writes only the tails, then one pass per
 * combining class present, lowest first, writing the marks of that class
 * and, again, every tail.  Without stray bytes this is the canonical
 * (stable) ordering, the tails only repeat what the kernel repeats.
 */
#include <errno.h>
#include <string.h>
#include "f2/casefold.h"
#include "f2/hash.h"
#include "utf8fold.h"

#define HANGUL_S	0xAC00u
#define HANGUL_L	0x1100u
#define HANGUL_V	0x1161u
#define HANGUL_T	0x11A7u
#define HANGUL_NV	21u
#define HANGUL_NT	28u
#define HANGUL_COUNT	11172u

const char *f2_encoding_name(uint16_t encoding)
{
	return encoding == 1 ? "utf8-12.1" : NULL;
}

/* ---- tables -------------------------------------------------------------- */
/* Index of the last entry of a sorted table (n entries of size bytes,
 * each starting with its first code point) whose first code point is <=
 * cp, or -1. */
static int last_le(const void *tab, unsigned n, size_t size, uint32_t cp)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		uint32_t first;

		memcpy(&first, (const char *)tab + (size_t)mid * size, sizeof(first));
		if (first <= cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int)lo - 1;
}
#define LAST_LE(tab, n, cp)	last_le(tab, n, sizeof(*(tab)), cp)

static uint8_t ccc_of(uint32_t cp)
{
	int i = LAST_LE(f2_cf_ccc, f2_cf_nccc, cp);

	return i >= 0 && cp <= f2_cf_ccc[i].last ? f2_cf_ccc[i].ccc : 0;
}

/* The fold of one code point into to[]: the number of code points. */
static unsigned fold_cp(uint32_t cp, uint32_t to[F2_CF_MAXEXP])
{
	int i;

	if (cp - HANGUL_S < HANGUL_COUNT) {
		uint32_t s = cp - HANGUL_S, t = s % HANGUL_NT;

		to[0] = HANGUL_L + s / (HANGUL_NV * HANGUL_NT);
		to[1] = HANGUL_V + s % (HANGUL_NV * HANGUL_NT) / HANGUL_NT;
		to[2] = HANGUL_T + t;
		return t ? 3 : 2;
	}
	i = LAST_LE(f2_cf_ignorable, f2_cf_nignorable, cp);
	if (i >= 0 && cp <= f2_cf_ignorable[i].last)
		return 0;
	i = LAST_LE(f2_cf_runs, f2_cf_nruns, cp);
	if (i >= 0 && cp <= f2_cf_runs[i].last &&
	    (cp - f2_cf_runs[i].first) % f2_cf_runs[i].step == 0) {
		to[0] = (uint32_t)((int32_t)cp + f2_cf_runs[i].delta);
		return 1;
	}
	i = LAST_LE(f2_cf_maps, f2_cf_nmaps, cp);
	if (i >= 0 && f2_cf_maps[i].cp == cp) {
		unsigned n = 0;

		while (n < F2_CF_MAXEXP && f2_cf_maps[i].to[n])
			to[n] = f2_cf_maps[i].to[n], n++;
		return n;
	}
	to[0] = cp;
	return 1;
}

/* ---- reading the name ---------------------------------------------------- */
/* Length of the shortest-form UTF-8 sequence of a scalar value at s
 * (len bytes left) and its code point, or 0. */
static unsigned decode(const uint8_t *s, size_t len, uint32_t *cp)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned n = s[0] < 0x80 ? 1 : s[0] < 0xC0 ? 0 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 :
		     s[0] < 0xF8 ? 4 : 0;
	uint32_t c;

	if (!n || n > len)
		return 0;
	c = n == 1 ? s[0] : s[0] & (0x7Fu >> n);
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3Fu);
	}
	if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

static int is_cont(uint8_t b)
{
	return (b & 0xC0) == 0x80;
}

/* The unit at pos: its fold, and the tail after the character. */
struct unit {
	uint32_t to[F2_CF_MAXEXP];
	unsigned n;		/* code points in to[]; 0: the character is removed */
	size_t tail, tail_len;	/* tail bytes at name[tail] */
	size_t next;		/* where the next unit starts */
};

/* 0, or -EILSEQ for an invalid character at pos. */
static int read_unit(const uint8_t *name, size_t len, size_t pos, struct unit *u)
{
	uint32_t cp;
	unsigned cl = decode(name + pos, len - pos, &cp);

	if (!cl)
		return -EILSEQ;
	u->n = fold_cp(cp, u->to);
	u->tail = pos + cl;
	u->next = u->tail;
	while (u->next < len && is_cont(name[u->next]))
		u->next++;
	u->tail_len = u->next - u->tail;
	return 0;
}

/*
 * A place in the expanded name: code point k of the unit at pos (k 0 of
 * a removed character is the place of the removal).  Each step re-reads
 * the unit: names are short and the tables are searched in a few steps.
 */
struct cursor {
	const uint8_t *name;
	size_t len, pos;
	unsigned k;
	struct unit u;
};

static void cur_load(struct cursor *c)
{
	if (c->pos < c->len)
		read_unit(c->name, c->len, c->pos, &c->u);	/* validated before */
}

static int cur_end(const struct cursor *c)
{
	return c->pos >= c->len;
}

static int cur_last(const struct cursor *c)
{
	return c->k + 1 >= (c->u.n ? c->u.n : 1);
}

static void cur_next(struct cursor *c)
{
	if (!cur_last(c)) {
		c->k++;
		return;
	}
	c->pos = c->u.next;
	c->k = 0;
	cur_load(c);
}

/* Class of the place: 0 for stoppers (class 0, removals). */
static uint8_t cur_ccc(const struct cursor *c)
{
	return c->u.n ? ccc_of(c->u.to[c->k]) : 0;
}

/* ---- writing the fold ---------------------------------------------------- */
struct out {
	uint8_t *buf;
	size_t cap, n;	/* n bytes written, of cap - 1 usable */
	int over;
};

static void put(struct out *o, const uint8_t *p, size_t len)
{
	if (o->over || o->n + len >= o->cap) {
		o->over = 1;
		return;
	}
	memcpy(o->buf + o->n, p, len);
	o->n += len;
}

static void put_cp(struct out *o, uint32_t cp)
{
	uint8_t b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (uint8_t)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (uint8_t)(0xC0 | cp >> 6);
		b[1] = (uint8_t)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (uint8_t)(0xE0 | cp >> 12);
		b[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
		b[2] = (uint8_t)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		b[0] = (uint8_t)(0xF0 | cp >> 18);
		b[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
		b[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
		b[3] = (uint8_t)(0x80 | (cp & 0x3F));
		n = 4;
	}
	put(o, b, n);
}

/* The place at c: its code point when its class is ccc, then the tail
 * when it is the unit's last place. */
static void put_place(struct out *o, const struct cursor *c, int ccc)
{
	if (c->u.n && cur_ccc(c) == ccc)
		put_cp(o, c->u.to[c->k]);
	if (cur_last(c))
		put(o, c->name + c->u.tail, c->u.tail_len);
}

/* The run of marks starting at *c, in its passes; *c ends past it. */
static void put_run(struct out *o, struct cursor *c)
{
	uint8_t seen[32];
	struct cursor start = *c;

	memset(seen, 0, sizeof(seen));
	for (; !cur_end(c) && cur_ccc(c); cur_next(c))
		seen[cur_ccc(c) / 8] |= (uint8_t)(1u << cur_ccc(c) % 8);
	for (int ccc = -1; ccc < 256; ccc++) {
		if (ccc >= 0 && !(seen[ccc / 8] & 1u << ccc % 8))
			continue;
		for (struct cursor p = start; p.pos != c->pos || p.k != c->k; cur_next(&p))
			put_place(o, &p, ccc);
	}
}

int f2_utf8_casefold(const uint8_t *name, size_t len, uint8_t *out, size_t outsz)
{
	struct out o = { out, outsz, 0, 0 };
	struct cursor c;
	const uint8_t *nul = memchr(name, 0, len);
	struct unit u;

	if (nul)
		len = (size_t)(nul - name);
	if (len && is_cont(name[0]))
		return -EILSEQ;
	for (size_t pos = 0; pos < len; pos = u.next)
		if (read_unit(name, len, pos, &u))
			return -EILSEQ;
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.len = len;
	cur_load(&c);
	while (!cur_end(&c) && !o.over) {
		if (cur_ccc(&c)) {
			put_run(&o, &c);
		} else {
			put_place(&o, &c, 0);
			cur_next(&c);
		}
	}
	if (o.over || !outsz)
		return -ENAMETOOLONG;
	out[o.n] = 0;
	return (int)o.n;
}

/* ---- hash and lookup ----------------------------------------------------- */
static int is_dots(const uint8_t *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

int f2_dentry_hash_casefold(const uint8_t *name, size_t len, int strict, uint32_t *hash)
{
	uint8_t buf[F2_CASEFOLD_BUF];
	int n;

	if (is_dots(name, len)) {
		*hash = 0;
		return F2_CF_RAW;
	}
	n = f2_utf8_casefold(name, len, buf, sizeof(buf));
	if (n > 0) {
		*hash = f2_tea_hash(buf, (size_t)n);
		return F2_CF_FOLDED;
	}
	if (strict)
		return -EINVAL;
	*hash = f2_tea_hash(name, len);
	return F2_CF_RAW;
}

int f2_casefold_name_eq(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
			int strict)
{
	uint8_t fa[F2_CASEFOLD_BUF], fb[F2_CASEFOLD_BUF + 1];
	int na, nb;
	int same = alen == blen && !memcmp(a, b, alen);

	if (is_dots(a, alen))
		return same;
	na = f2_utf8_casefold(a, alen, fa, sizeof(fa));
	if (na <= 0)
		return strict ? 0 : same;
	if (same)
		return 1;
	/* one byte more than fa can hold: a longer fold cannot be equal */
	nb = f2_utf8_casefold(b, blen, fb, (size_t)na + 1);
	return nb == na && !memcmp(fa, fb, (size_t)na);
}
