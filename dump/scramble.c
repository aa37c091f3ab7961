// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scramble.c - new names for the entries of one directory, for
 * dump.f2fs --metadata-image --scramble-names.
 *
 * A new name has the old one's length and is made of [a-zA-Z0-9_] (only
 * [a-z0-9_] in a casefolded directory, so that distinct names stay
 * distinct after folding).  It is derived from the entry's inode number
 * and a try counter, so the same volume always gives the same image.  It
 * is never one of the directory's old names nor one given before in it
 * (compared by fold in a casefolded directory), and it hashes into the
 * bucket the old name's hash picked at that level, so the entry stays in
 * a block where a lookup finds it.  "." and ".." keep their names.
 *
 * What fsck would find stays findable:
 *  - a stored hash that matched the old name is replaced by the new
 *    name's; one that did not is kept, and the new name is chosen so it
 *    does not match either (DENT_HASH); an entry in the wrong bucket for
 *    its hash goes to the same wrong bucket (DENT_BUCKET);
 *  - in a casefolded directory a name the strict encoding refuses keeps
 *    its name (DENT_CF_INVALID); entries whose old names had the same
 *    fold get case variants of one new name, and a name with the fold of
 *    a name that stays ("." for ".\u200b") stays too (DENT_CF_DUP).
 * An entry also keeps its name when every name of its length that hashes
 * into its bucket is an old or a new name of the directory (names of one
 * to three characters in large directories).  Both are counted as kept.  Free slots, which still hold the
 * names and hashes of deleted entries, are zeroed; a malformed entry (a
 * name length of 0, over 255 or past the last slot) is left as it is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/casefold.h"
#include "f2/hash.h"
#include "metaimage.h"

#define SLOTS(len)	(((len) + F2_SLOT_LEN - 1) / F2_SLOT_LEN)
/* Name spaces up to this size are searched name by name, larger ones at
 * random with at most MAX_TRIES tries (a bucket of n takes n on average). */
#define SMALL_SPACE	(1u << 20)
#define MAX_TRIES	(1u << 22)
#define MAX_VARIANT_LETTERS	16

static const char any_set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
static const char lower_set[] = "abcdefghijklmnopqrstuvwxyz0123456789_";

/* Value of sd->folds: where the new name of an old fold is. */
struct fold_rec {
	uint32_t off;			/* in sd->arena */
	uint16_t len;
	uint16_t variants;		/* case variants handed out */
	uint8_t kept;			/* the entry kept its name */
};

static uint64_t mix(uint64_t x)	/* splitmix64's finalizer */
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

static uint64_t fnv64(const uint8_t *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ len;

	for (size_t i = 0; i < len; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

/* Identity of a name in sd: its fold in a casefolded directory (its bytes
 * when it does not fold), else its bytes.  Two names with the same key
 * are taken for the same name; a false match only costs another try. */
static uint64_t name_key(const struct scr_dir *sd, const uint8_t *name, uint32_t len)
{
	if (sd->rules.cf) {
		uint8_t fold[F2_CASEFOLD_BUF];
		int n = f2_utf8_casefold(name, len, fold, sizeof(fold));

		if (n > 0)
			return fnv64(fold, (size_t)n);
	}
	return fnv64(name, len);
}

/* The hash the directory's rules give name: 0, or -1 when the strict
 * encoding refuses the name. */
static int name_hash(const struct scr_dir *sd, const uint8_t *name, uint32_t len, uint32_t *h)
{
	if (!sd->rules.cf) {
		*h = f2_dentry_hash(name, len);
		return 0;
	}
	return f2_dentry_hash_casefold(name, len, sd->rules.strict, h) < 0 ? -1 : 0;
}

/* The candidates for a name of len bytes for ino, numbered from 0. */
struct gen {
	const char *set;
	uint32_t nset, len;
	uint64_t space;			/* nset^len when at most SMALL_SPACE, else 0 */
	uint64_t seed;
};

static void gen_init(struct gen *g, uint32_t ino, uint32_t len, int lower)
{
	g->set = lower ? lower_set : any_set;
	g->nset = (uint32_t)strlen(g->set);
	g->len = len;
	g->seed = mix((uint64_t)ino << 16 ^ len);
	g->space = 1;
	for (uint32_t i = 0; i < len && g->space; i++) {
		g->space *= g->nset;
		if (g->space > SMALL_SPACE)
			g->space = 0;
	}
}

static uint64_t gen_tries(const struct gen *g, uint64_t nbuckets)
{
	uint64_t t = 64 * nbuckets + 4096;

	if (g->space)
		return g->space;
	return t < MAX_TRIES ? t : MAX_TRIES;
}

static void gen_name(const struct gen *g, uint64_t k, uint8_t *out)
{
	if (g->space) {
		/* every name once, from a point that depends on the inode */
		uint64_t v = (g->seed + k) % g->space;

		for (uint32_t i = 0; i < g->len; i++, v /= g->nset)
			out[i] = (uint8_t)g->set[v % g->nset];
		return;
	}
	for (uint32_t i = 0; i < g->len; i++)
		out[i] = (uint8_t)g->set[mix(g->seed ^ mix(k) ^ ((uint64_t)i << 48)) % g->nset];
}

void scr_make_name(uint32_t ino, uint32_t len, int lower, uint8_t *out)
{
	struct gen g;

	gen_init(&g, ino, len, lower);
	gen_name(&g, 0, out);
}

void scr_dir_init(struct scr_dir *sd, uint32_t ino, const struct scr_rules *rules,
		  struct scr_stats *st, scr_renamed_fn renamed, void *ctx)
{
	memset(sd, 0, sizeof(*sd));
	sd->ino = ino;
	sd->rules = *rules;
	sd->st = st;
	sd->renamed = renamed;
	sd->ctx = ctx;
	f2_map_init(&sd->taken, 1, 0);
	f2_map_init(&sd->folds, sizeof(struct fold_rec), 0);
}

void scr_dir_free(struct scr_dir *sd)
{
	f2_map_free(&sd->taken);
	f2_map_free(&sd->folds);
	free(sd->arena);
	sd->arena = NULL;
}

static int is_dots(const uint8_t *name, uint32_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

/* The length of the entry at slot s, or 0 when it is malformed (left as
 * it is: fsck reports it, and its slots hold no name we can delimit). */
static uint32_t entry_len(const struct scr_area *a, uint32_t s)
{
	uint32_t len = f2_le16(a->de[s].name_len);

	if (!len || len > F2_NAME_LEN || s + SLOTS(len) > a->max)
		return 0;
	return len;
}

int scr_note(struct scr_dir *sd, const struct scr_area *a)
{
	for (uint32_t s = 0; s < a->max;) {
		uint32_t len;

		if (!f2_test_bit_lsb(a->bitmap, s) || !(len = entry_len(a, s))) {
			s++;
			continue;
		}
		if (!f2_map_insert(&sd->taken, name_key(sd, a->names[s], len), NULL))
			return -ENOMEM;
		s += SLOTS(len);
	}
	return 0;
}

/* What a new name must satisfy. */
struct want {
	uint64_t nbuckets, bucket;	/* the old hash's bucket */
	uint32_t stored;
	int right;			/* the stored hash was the old name's */
};

static int fits(const struct scr_dir *sd, const struct want *w, const uint8_t *name,
		uint32_t len, uint32_t *h)
{
	return !name_hash(sd, name, len, h) && *h % w->nbuckets == w->bucket &&
	       (w->right || *h != w->stored);
}

/* A fresh name for ino into out: 1 found (*h its hash), 0 none. */
static int search(const struct scr_dir *sd, uint32_t ino, uint32_t len, const struct want *w,
		  uint8_t *out, uint32_t *h)
{
	struct gen g;
	uint64_t tries;

	gen_init(&g, ino, len, sd->rules.lower);
	tries = gen_tries(&g, w->nbuckets);
	for (uint64_t k = 0; k < tries; k++) {
		gen_name(&g, k, out);
		if (fits(sd, w, out, len, h) && !f2_map_find(&sd->taken, name_key(sd, out, len)))
			return 1;
	}
	return 0;
}

/*
 * In a casefolded directory, an old name whose fold an earlier entry had:
 * a case variant of that entry's new name (so the kernel takes both for
 * one name, as before).  1 with out and *h set, 0 when there is none that
 * fits (the entry then gets a fresh name).
 */
static int variant(struct scr_dir *sd, uint64_t fkey, uint32_t len, const struct want *w,
		   uint8_t *out, uint32_t *h)
{
	struct fold_rec *r = f2_map_find(&sd->folds, fkey);
	uint32_t pos[MAX_VARIANT_LETTERS], n = 0;

	if (!r || r->len != len)
		return 0;
	memcpy(out, sd->arena + r->off, len);
	for (uint32_t i = 0; i < len && n < MAX_VARIANT_LETTERS; i++)
		if (out[i] >= 'a' && out[i] <= 'z')
			pos[n++] = i;
	if ((uint32_t)r->variants + 1 >= (1u << n))
		return 0;
	r->variants++;
	for (uint32_t b = 0; b < n; b++)
		if (r->variants & (1u << b))
			out[pos[b]] = (uint8_t)(out[pos[b]] - 'a' + 'A');
	return fits(sd, w, out, len, h);
}

/* Casefolded: the entry of old fold fkey keeps its name; so will later
 * ones of the same fold.  0 or -ENOMEM. */
static int kept_fold(struct scr_dir *sd, uint64_t fkey)
{
	struct fold_rec *r = f2_map_insert(&sd->folds, fkey, NULL);

	if (!r)
		return -ENOMEM;
	if (!r->len)
		r->kept = 1;
	return 0;
}

/* Remember new as the name given for old fold fkey: 0 or -ENOMEM. */
static int keep_fold(struct scr_dir *sd, uint64_t fkey, const uint8_t *name, uint32_t len)
{
	struct fold_rec *r;
	int created;

	if (sd->arena_len + len > sd->arena_cap) {
		size_t cap = sd->arena_cap ? 2 * sd->arena_cap : 4096;
		uint8_t *p;

		while (cap < sd->arena_len + len)
			cap *= 2;
		p = realloc(sd->arena, cap);
		if (!p)
			return -ENOMEM;
		sd->arena = p;
		sd->arena_cap = cap;
	}
	r = f2_map_insert(&sd->folds, fkey, &created);
	if (!r)
		return -ENOMEM;
	if (!created)
		return 0;
	r->off = (uint32_t)sd->arena_len;
	r->len = (uint16_t)len;
	memcpy(sd->arena + sd->arena_len, name, len);
	sd->arena_len += len;
	return 0;
}

static int rename_one(struct scr_dir *sd, struct scr_area *a, uint32_t s, uint32_t len,
		      uint64_t nbuckets)
{
	struct f2_dir_entry *de = &a->de[s];
	uint8_t *name = a->names[s];
	uint8_t old[F2_NAME_LEN], out[F2_NAME_LEN];
	struct want w = { nbuckets, 0, f2_le32(de->hash_code), 0 };
	uint32_t oh, nh = 0, ino = f2_le32(de->ino);
	uint64_t fkey = 0;
	int found = 0, dup = 0;

	memcpy(old, name, len);
	if (sd->rules.cf) {
		const struct fold_rec *r;

		fkey = name_key(sd, old, len);
		if (is_dots(old, len))
			return kept_fold(sd, fkey);
		r = f2_map_find(&sd->folds, fkey);
		if (r && r->kept) {
			sd->st->kept++;	/* the same name as one that stays */
			return 0;
		}
	} else if (is_dots(old, len)) {
		return 0;
	}
	if (name_hash(sd, old, len, &oh)) {
		sd->st->kept++;		/* refused by the strict encoding */
		return sd->rules.cf ? kept_fold(sd, fkey) : 0;
	}
	w.right = w.stored == oh;
	w.bucket = oh % nbuckets;
	if (sd->rules.cf)
		found = dup = variant(sd, fkey, len, &w, out, &nh);
	if (!found)
		found = search(sd, ino, len, &w, out, &nh);
	if (!found) {
		sd->st->kept++;		/* the old name was taken in the first pass */
		return sd->rules.cf ? kept_fold(sd, fkey) : 0;
	}
	memcpy(name, out, len);
	/* no byte of an older, longer name stays in the last slot */
	memset(name + len, 0, SLOTS(len) * F2_SLOT_LEN - len);
	if (w.right)
		f2_set_le32(de->hash_code, nh);
	if (!dup && !f2_map_insert(&sd->taken, name_key(sd, out, len), NULL))
		return -ENOMEM;
	if (sd->rules.cf && !dup && keep_fold(sd, fkey, out, len))
		return -ENOMEM;
	sd->st->renamed++;
	if (sd->renamed)
		sd->renamed(sd->ctx, ino, old, out, len);
	return 0;
}

int scr_rename(struct scr_dir *sd, struct scr_area *a, uint64_t nbuckets)
{
	if (!nbuckets)
		nbuckets = 1;
	for (uint32_t s = 0; s < a->max;) {
		uint32_t len;
		int err;

		if (!f2_test_bit_lsb(a->bitmap, s)) {
			/* a deleted entry leaves its name and hash behind */
			memset(&a->de[s], 0, sizeof(a->de[s]));
			memset(a->names[s], 0, F2_SLOT_LEN);
			s++;
			continue;
		}
		if (!(len = entry_len(a, s))) {
			s++;
			continue;
		}
		err = rename_one(sd, a, s, len, nbuckets);
		if (err)
			return err;
		s += SLOTS(len);
	}
	return 0;
}
