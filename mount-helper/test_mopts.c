// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_mopts.c - test driver for mopts.c (not installed): parses argv[1]
 * as "-o" options with a fake SELinux callback, so the parser's handling
 * of kept, translated and refused contexts is tested without SELinux:
 * a context starting "ok" is kept and translated to "raw:<value>", one
 * starting "same" is kept as given, "drop" is dropped, anything else is
 * refused.  Prints "flags=0x.. data=<..> mtab=<..> fsck=N loop=N
 * errors=N" or "refused: <why>" (exit 1).  argv[2] = "sloppy" sets -s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mopts.h"

static int fake_context(void *ctx, const char *name, const char *value, char **raw,
			char *why, size_t wl)
{
	(void)ctx;
	*raw = NULL;
	if (!strncmp(value, "ok", 2)) {
		*raw = malloc(strlen(value) + 5);
		if (!*raw)
			return -1;
		sprintf(*raw, "raw:%s", value);
		return 1;
	}
	if (!strncmp(value, "same", 4))
		return 1;
	if (!strncmp(value, "drop", 4))
		return 0;
	snprintf(why, wl, "option '%s': '%s' is not a valid SELinux context", name, value);
	return -1;
}

int main(int argc, char **argv)
{
	struct mh_opts o;
	char why[512];

	if (argc < 2) {
		fprintf(stderr, "usage: test_mopts OPTIONS [sloppy]\n");
		return 2;
	}
	if (mh_opts_parse(argv[1], argc > 2 && !strcmp(argv[2], "sloppy"), fake_context,
			  NULL, &o, why, sizeof(why))) {
		printf("refused: %s\n", why);
		return 1;
	}
	printf("flags=0x%lx data=<%s> mtab=<%s> fsck=%d loop=%d errors=%d\n", o.flags, o.data,
	       o.mtab, o.fsck, o.loop, (int)o.on_dirty);
	mh_opts_free(&o);
	return 0;
}
