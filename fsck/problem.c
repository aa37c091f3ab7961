// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * problem.c - the problem table, fix_problem() (the one place that decides
 * -n / -y / -p / ask), the findings log and its JSON form.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "support/json.h"
#include "fsck.h"
#include "problem.h"

const struct problem fsck_problems[] = {
#define PR(code, name, sev, flags, fix, what) { code, #name, sev, flags, fix, what },
#include "problems.def"
#undef PR
};
const unsigned fsck_nproblems = sizeof(fsck_problems) / sizeof(fsck_problems[0]);

const struct problem *problem_find(uint32_t code)
{
	unsigned lo = 0, hi = fsck_nproblems;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (fsck_problems[mid].code == code)
			return &fsck_problems[mid];
		if (fsck_problems[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void log_finding(struct fsck_ctx *ctx, uint32_t code, const char *text)
{
	struct finding *f;

	if (ctx->nfindings == ctx->cap_findings) {
		unsigned cap = ctx->cap_findings ? ctx->cap_findings * 2 : 64;
		struct finding *n = realloc(ctx->findings, cap * sizeof(*n));

		if (!n)
			return;
		ctx->findings = n;
		ctx->cap_findings = cap;
	}
	f = &ctx->findings[ctx->nfindings++];
	f->code = code;
	f->fixed = 0;
	f->text = strdup(text);
}

/* Ask on the terminal: 1 yes, 0 no; sets yes_to_all or canceled. */
static int ask(struct fsck_ctx *ctx, const char *fix)
{
	char line[32];

	for (;;) {
		fprintf(ctx->out, "  %c%s? [y]es [n]o [a]ll [q]uit: ",
			fix[0] >= 'a' && fix[0] <= 'z' ? fix[0] - 'a' + 'A' : fix[0], fix + 1);
		fflush(ctx->out);
		if (!fgets(line, sizeof(line), stdin)) {
			fputc('\n', ctx->out);
			return 0;
		}
		switch (line[0]) {
		case 'y': case 'Y': return 1;
		case 'n': case 'N': return 0;
		case 'a': case 'A': ctx->yes_to_all = 1; return 1;
		case 'q': case 'Q': ctx->canceled = 1; return 0;
		}
	}
}

int fix_problem(struct fsck_ctx *ctx, uint32_t code, const char *fmt, ...)
{
	const struct problem *p = problem_find(code);
	char detail[512];
	va_list ap;
	int yes = 0;
	const char *how;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (!p) {	/* a code missing from the table is a bug: still report it */
		fprintf(ctx->out, "0x%06X: %s\n", code, detail);
		ctx->errors_left++;
		return 0;
	}
	log_finding(ctx, code, detail);
	fprintf(ctx->out, "0x%06X %s: %s (%s)\n", code, p->name, detail, p->what);
	if (p->flags & PF_FATAL)
		ctx->fatal = 1;
	if (p->severity == WARN) {
		ctx->warnings++;
		return 0;
	}
	if (!(p->flags & PF_REPAIR)) {
		if (ctx->opts.mode != MODE_NO)
			fprintf(ctx->out, "  %s: not repaired (this version cannot)\n", p->fix);
		ctx->errors_left++;
		return 0;
	}
	/* superblock copies aside, every repair ends in a checkpoint, and a
	 * new checkpoint orphans a chain left for the kernel's roll-forward */
	if (ctx->rf_waiting && (code >> 16) != 0x01 && ctx->opts.mode != MODE_NO) {
		fprintf(ctx->out, "  %s: not repaired (fsync-ed files wait for roll-forward: "
			"%s, to keep them)\n", p->fix, ctx->mounted_ro ?
			"mount once without norecovery" :
			"mount once, or run without --no-roll-forward");
		ctx->errors_left++;
		return 0;
	}
	if (ctx->no_repair && ctx->opts.mode != MODE_NO) {
		fprintf(ctx->out, "  %s: not repaired (%s)\n", p->fix, ctx->no_repair);
		ctx->errors_left++;
		return 0;
	}
	if (ctx->canceled) {
		how = "canceled";
	} else {
		switch (ctx->opts.mode) {
		case MODE_NO:
			how = "no (dry run)";
			break;
		case MODE_YES:
			yes = 1;
			how = "yes";
			break;
		case MODE_PREEN:
			yes = !!(p->flags & PF_PREEN);
			how = yes ? "yes (preen)" : "no (not safe to preen: run fsck.f2fs manually)";
			if (yes && ctx->probe) {
				/* printed only when another problem is not safe */
				ctx->probe_safe++;
				fprintf(ctx->out, "  %s: no (safe to preen, but the device is mounted "
					"and another problem is not: nothing is written)\n", p->fix);
				return 0;
			}
			break;
		default:
			if (ctx->yes_to_all) {
				yes = 1;
				how = "yes (all)";
			} else if (isatty(0)) {
				yes = ask(ctx, p->fix);
				how = NULL;
			} else {
				how = "no (no terminal)";
			}
		}
	}
	if (how)
		fprintf(ctx->out, "  %s: %s\n", p->fix, how);
	if (!yes)
		ctx->errors_left++;
	return yes;
}

void problem_fixed(struct fsck_ctx *ctx, uint32_t code, int ok)
{
	for (unsigned i = ctx->nfindings; i-- > 0;) {
		if (ctx->findings[i].code != code || ctx->findings[i].fixed)
			continue;
		ctx->findings[i].fixed = ok;
		break;
	}
	if (ok) {
		ctx->errors_fixed++;
	} else {
		ctx->errors_left++;
		fprintf(ctx->out, "  repair of 0x%06X failed\n", code);
	}
}

void problems_json(struct fsck_ctx *ctx, int exit_code)
{
	FILE *out = stdout;

	fprintf(out, "{\n  \"device\": ");
	sup_json_cstr(out, ctx->opts.device);
	fprintf(out, ",\n  \"exit_code\": %d,\n  \"errors_fixed\": %u,\n"
		"  \"errors_left\": %u,\n  \"warnings\": %u,\n  \"findings\": [",
		exit_code, ctx->errors_fixed, ctx->errors_left, ctx->warnings);
	for (unsigned i = 0; i < ctx->nfindings; i++) {
		const struct finding *f = &ctx->findings[i];
		const struct problem *p = problem_find(f->code);

		fprintf(out, "%s\n    {\"code\": \"0x%06X\", \"name\": ", i ? "," : "", f->code);
		sup_json_cstr(out, p ? p->name : "UNKNOWN");
		fprintf(out, ", \"severity\": \"%s\", \"message\": ",
			p && p->severity == WARN ? "warning" : "error");
		sup_json_cstr(out, f->text);
		fprintf(out, ", \"problem\": ");
		sup_json_cstr(out, p ? p->what : "");
		fprintf(out, ", \"fix\": ");
		sup_json_cstr(out, p ? p->fix : "");
		fprintf(out, ", \"fixed\": %s}", f->fixed ? "true" : "false");
	}
	fprintf(out, "%s],\n  \"phases\": [", ctx->nfindings ? "\n  " : "");
	for (unsigned i = 0; i < ctx->ntimes; i++) {
		fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
		sup_json_cstr(out, ctx->times[i].name);
		fprintf(out, ", \"seconds\": %.6f}", ctx->times[i].seconds);
	}
	fprintf(out, "%s]\n}\n", ctx->ntimes ? "\n  " : "");
}

void problems_free(struct fsck_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->nfindings; i++)
		free(ctx->findings[i].text);
	free(ctx->findings);
	ctx->findings = NULL;
	ctx->nfindings = ctx->cap_findings = 0;
}
