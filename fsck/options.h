/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h - the fsck.f2fs command line. */
#ifndef FSCK_OPTIONS_H
#define FSCK_OPTIONS_H

enum fsck_mode {
	MODE_ASK = 0,	/* no mode option: ask on a terminal, else answer no */
	MODE_NO,	/* -n / --dry-run: open read-only, answer no */
	MODE_YES,	/* -y: fix everything */
	MODE_PREEN,	/* -p / -a: fix what is safe, exit 4 for the rest */
};

struct fsck_opts {
	enum fsck_mode mode;
	int force;		/* -f: full check even when clean */
	int verbose;		/* -v */
	int json;		/* --json: JSON report on stdout */
	int progress;		/* -C / automatic on a terminal; -P disables */
	int no_roll_forward;	/* --no-roll-forward: leave fsync-ed files alone */
	const char *device;
};

/* Returns 0, 1 when the program should exit 0 (help, version), or -1 on a
 * usage error (message already printed). */
int fsck_parse(int argc, char **argv, struct fsck_opts *o);
void fsck_usage(FILE *out);
#endif
