// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsconfig.c - read a canned fs_config file into a sorted table, and
 * the capability xattr Android's loaders expect (see fsconfig.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "f2/format.h"
#include "fsconfig.h"

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct fscfg_entry *)a)->path, ((const struct fscfg_entry *)b)->path);
}

/* Parse an unsigned number of base (0: C prefixes) that fits max. */
static int number(const char *s, int base, uint64_t max, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno || *end || *v > max ? -1 : 0;
}

/* One line into e (path strdup-ed); 1 for a blank line, -1 malformed. */
static int parse_line(char *line, struct fscfg_entry *e)
{
	char *tok[6], *save = NULL;
	uint64_t v;
	int n = 0;

	line += strspn(line, " \t");
	if (*line == '#')
		return 1;
	for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 5)
			return -1;
		tok[n++] = t;
	}
	if (!n)
		return 1;
	if (n < 4)
		return -1;
	memset(e, 0, sizeof(*e));
	if (number(tok[1], 10, UINT32_MAX, &v))
		return -1;
	e->uid = (uint32_t)v;
	if (number(tok[2], 10, UINT32_MAX, &v))
		return -1;
	e->gid = (uint32_t)v;
	if (number(tok[3], 8, 0177777, &v))
		return -1;
	e->mode = (uint16_t)(v & 07777);
	if (n == 5) {
		if (strncmp(tok[4], "capabilities=", 13) || number(tok[4] + 13, 0, UINT64_MAX, &v))
			return -1;
		e->caps = v;
	}
	while (tok[0][0] == '/')
		tok[0]++;
	e->path = strdup(tok[0]);
	return e->path ? 0 : -2;
}

int fscfg_load(const char *file, struct fscfg *c, FILE *err)
{
	FILE *f = fopen(file, "r");
	char *line = NULL;
	size_t cap = 0, room = 0;
	unsigned long lineno = 0;
	int rc = 0;

	c->e = NULL;
	c->n = 0;
	if (!f) {
		fprintf(err, "%s: %s\n", file, strerror(errno));
		return -EINVAL;
	}
	while (getline(&line, &cap, f) >= 0) {
		struct fscfg_entry e;
		int r;

		lineno++;
		r = parse_line(line, &e);
		if (r == 1)
			continue;
		if (r == -2) {
			rc = -ENOMEM;
			break;
		}
		if (r < 0) {
			fprintf(err, "%s:%lu: not \"path uid gid mode [capabilities=0x...]\"\n",
				file, lineno);
			rc = -EINVAL;
			break;
		}
		if (c->n == room) {
			size_t nr = room ? 2 * room : 256;
			struct fscfg_entry *ne = realloc(c->e, nr * sizeof(*ne));

			if (!ne) {
				free(e.path);
				rc = -ENOMEM;
				break;
			}
			c->e = ne;
			room = nr;
		}
		c->e[c->n++] = e;
	}
	free(line);
	fclose(f);
	if (rc) {
		fscfg_free(c);
		return rc;
	}
	qsort(c->e, c->n, sizeof(*c->e), cmp_entry);
	/* a path listed twice: the later line would silently lose */
	for (size_t i = 1; i < c->n; i++)
		if (!strcmp(c->e[i - 1].path, c->e[i].path)) {
			fprintf(err, "%s: \"%s\" is listed twice\n", file, c->e[i].path);
			fscfg_free(c);
			return -EINVAL;
		}
	return 0;
}

const struct fscfg_entry *fscfg_find(const struct fscfg *c, const char *path)
{
	struct fscfg_entry key = { .path = (char *)path };

	return c->n ? bsearch(&key, c->e, c->n, sizeof(*c->e), cmp_entry) : NULL;
}

void fscfg_free(struct fscfg *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].path);
	free(c->e);
	c->e = NULL;
	c->n = 0;
}

void fscfg_cap_value(uint64_t caps, uint8_t out[FSCFG_CAP_BYTES])
{
	/* magic_etc: revision 2 (0x02000000) with the effective bit (1);
	 * then {permitted, inheritable} for bits 0-31 and for 32-63 */
	f2_put_le32(out, 0x02000001u);
	f2_put_le32(out + 4, (uint32_t)caps);
	f2_put_le32(out + 8, 0);
	f2_put_le32(out + 12, (uint32_t)(caps >> 32));
	f2_put_le32(out + 16, 0);
}
