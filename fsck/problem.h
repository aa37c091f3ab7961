/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * problem.h - the problem table and the one decision function.
 *
 * Every finding goes through fix_problem(ctx, PR_X, fmt, ...): it prints
 * one line "0xPPNNNN NAME: <detail> (<what is wrong>)", logs it for
 * --json, decides from the mode (-n, -y, -p, or asking on a terminal)
 * whether to fix, and returns 1 when the caller must repair.  Problems the
 * code cannot repair yet (no PF_REPAIR) are reported and always left.
 * In the probe of a device mounted read-only (ctx->probe, main.c) a fix
 * -p would make is counted in ctx->probe_safe and refused.
 */
#ifndef FSCK_PROBLEM_H
#define FSCK_PROBLEM_H
#include <stdint.h>

enum pr_severity { ERR = 1, WARN = 2 };
#define PF_PREEN	0x1	/* safe to fix without asking under -p */
#define PF_FATAL	0x2	/* the check cannot continue */
#define PF_REPAIR	0x4	/* this version implements the repair */

enum pr_code {
#define PR(code, name, sev, flags, fix, what) PR_##name = code,
#include "problems.def"
#undef PR
};

struct problem {
	uint32_t code;
	const char *name;
	enum pr_severity severity;
	unsigned flags;
	const char *fix;
	const char *what;
};

extern const struct problem fsck_problems[];
extern const unsigned fsck_nproblems;

const struct problem *problem_find(uint32_t code);

struct fsck_ctx;
int fix_problem(struct fsck_ctx *ctx, uint32_t code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record that an accepted fix was written (or failed). */
void problem_fixed(struct fsck_ctx *ctx, uint32_t code, int ok);

/* --json output of every finding and the summary, on stdout. */
void problems_json(struct fsck_ctx *ctx, int exit_code);
void problems_free(struct fsck_ctx *ctx);
#endif
