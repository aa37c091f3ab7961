// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - fsck.f2fs: options, mount check, open, the phases in order,
 * the summary and the exit status.
 *
 * The volume is read through the library's read-only path (every device
 * of a multi-device volume read-only, at the paths its superblock
 * records); only when a fix mode is given (-y, -p, or questions on a
 * terminal) is a second, writable handle opened: f2_fs_open_rw(), every
 * device read-write and exclusive, joined into the one address space the
 * repairs write (the recording and fault backends stack on it), and it is
 * written only when a repair is accepted.  So -n, and any run without a
 * terminal and without -y/-p, never writes a byte.
 *
 * A device mounted read-write is never opened for writing.  One mounted
 * read-only (the root at boot, which systemd checks with -a) is checked,
 * and repaired through the block device beside the kernel, which keeps
 * its own copy of the metadata but writes nothing while read-only; so any
 * repair asks for a reboot (exit status bit 2), before the kernel writes
 * again.  Under -p a first pass (the probe) writes nothing and decides:
 * when every error found is one -p fixes, a second pass fixes them; when
 * one is not, the probe's report stands and nothing is written.  The
 * roll-forward of fsync-ed files is left to the kernel.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/io.h"
#include "f2/recovery.h"
#include "f2/sb.h"
#include "support/exitcodes.h"
#include "support/mounted.h"
#include "fsck.h"
#include "problem.h"

struct phase {
	const char *name;
	int (*run)(struct fsck_ctx *ctx);
	int full_only;		/* skipped by the quick check of a clean fs */
};

static const struct phase phases[] = {
	{ "superblock", pass_sb, 0 },
	{ "checkpoint", pass_cp, 0 },
	{ "SIT", pass_sit_load, 1 },
	{ "NAT", pass_nat_scan, 1 },
	{ "lost NAT", pass_rescue, 1 },
	{ "node tree", pass_tree, 1 },
	{ "stale checkpoint", pass_rescue_stale, 1 },
	{ "unreachable nodes", pass_nat_unreachable, 1 },
	{ "SIT against the tree", pass_sit_compare, 1 },
	{ "counters", pass_counts, 1 },
	{ "repair", pass_repair, 1 },
	{ "quota", pass_quota, 1 },
	{ "superblock records", pass_sb_records, 1 },
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void vmsg(struct fsck_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (!ctx->opts.verbose)
		return;
	va_start(ap, fmt);
	vfprintf(ctx->out, fmt, ap);
	va_end(ap);
	fputc('\n', ctx->out);
}

void progress(struct fsck_ctx *ctx, const char *phase, uint64_t done, uint64_t total)
{
	int pct;

	if (!ctx->opts.progress || !total)
		return;
	pct = (int)(done * 100 / total);
	if (pct == ctx->prog_last)
		return;
	ctx->prog_last = pct;
	fprintf(stderr, "\r%s: %3d%%\033[K", phase, pct > 100 ? 100 : pct);
	fflush(stderr);
}

static void progress_done(struct fsck_ctx *ctx)
{
	if (ctx->opts.progress && ctx->prog_last >= 0)
		fprintf(stderr, "\r\033[K");
	ctx->prog_last = -1;
}

static void free_ctx(struct fsck_ctx *ctx)
{
	sbm_free(&ctx->sit_valid);
	sbm_free(&ctx->nat_used);
	sbm_free(&ctx->nat_blocks);
	sbm_free(&ctx->nid_reached);
	sbm_free(&ctx->blk_claimed);
	inomap_free(&ctx->inodes);
	free(ctx->seg_vblocks);
	free(ctx->seg_type);
	free(ctx->seg_unusable);
	free(ctx->nat_bits);
	free(ctx->orphan_inos);
	free(ctx->owned);
	ssa_free(ctx);
	ra_free(&ctx->ra_node);
	ra_free(&ctx->ra_data);
	problems_free(ctx);
	rep_free(ctx);
	if (ctx->fs)
		f2_fs_close(ctx->fs);
	if (ctx->rw)
		f2_io_close(ctx->rw);
}

static int finish(struct fsck_ctx *ctx, int code)
{
	if (ctx->opts.json)
		problems_json(ctx, code);
	free_ctx(ctx);
	return code;
}

static int exit_code(const struct fsck_ctx *ctx)
{
	int code = 0;

	if (ctx->errors_fixed || ctx->flag_cleared)
		code |= FSCK_EXIT_CORRECTED;
	if (ctx->errors_left || ctx->probe_safe)
		code |= FSCK_EXIT_UNCORRECTED;
	if (ctx->canceled)
		code |= FSCK_EXIT_CANCELED;
	if (ctx->cannot_check)	/* not a verdict on the volume: it was not checked */
		code = (code & FSCK_EXIT_CORRECTED) | FSCK_EXIT_OPERATIONAL;
	return code;
}

/* Would this run ever write?  Only with a fix mode or a terminal to ask,
 * and never in the probe. */
static int may_write(const struct fsck_ctx *ctx)
{
	const struct fsck_opts *o = &ctx->opts;

	return !ctx->probe && (o->mode == MODE_YES || o->mode == MODE_PREEN ||
			       (o->mode == MODE_ASK && isatty(0)));
}

/* The writable handle of a run that may repair, once the read-only open
 * accepted the volume: every device read-write (f2_fs_open_rw(), the
 * superblock only: the checkpoint is the read-only handle's), none of them
 * mounted but the first, read-only, when main() allowed it (then shared,
 * not exclusive: the kernel holds it). */
static int open_rw(struct fsck_ctx *ctx)
{
	const struct f2_fs *fs = ctx->fs;
	struct f2_fs_opts o;
	struct f2_fs *sb = NULL;
	char why[F2_WHY_LEN], where[256];
	int ro, err;

	for (uint32_t i = 1; i < fs->ndevs; i++)
		if (sup_mounted(fs->devs[i].path, where, sizeof(where), &ro)) {
			fprintf(stderr, "fsck.f2fs: %s (device %u of %s) is mounted on %s; not "
				"checking it for repair\n", fs->devs[i].path, i, ctx->opts.device,
				where);
			return FSCK_EXIT_OPERATIONAL;
		}
	memset(&o, 0, sizeof(o));
	o.sb_only = 1;
	o.shared = ctx->mounted_ro;
	err = f2_fs_open_rw(ctx->opts.device, &o, &ctx->rw, &sb, why, sizeof(why));
	if (err) {
		fprintf(stderr, "fsck.f2fs: cannot open %s for writing: %s\n", ctx->opts.device,
			why);
		return FSCK_EXIT_OPERATIONAL;
	}
	f2_fs_close(sb);	/* not the handle's owner: ctx->rw stays open */
	return 0;
}

/* Open the volume again, to read what `after` wrote. */
static int reopen(struct fsck_ctx *ctx, const char *after)
{
	f2_fs_close(ctx->fs);
	ctx->fs = NULL;
	if (f2_fs_open(ctx->opts.device, NULL, &ctx->fs)) {
		fprintf(stderr, "fsck.f2fs: reopening after %s: %s\n", after,
			ctx->fs ? ctx->fs->why : "failed");
		return FSCK_EXIT_OPERATIONAL;
	}
	return 0;
}

/* A committed pack whose head is damaged (cp_head.c), before anything
 * reads the checkpoint: once rewritten, the volume is opened again. */
static int check_cp_head(struct fsck_ctx *ctx)
{
	int rewritten, rc;

	if (!ctx->rw && may_write(ctx) && (rc = open_rw(ctx)))
		return rc;
	if (cp_head_check(ctx, &rewritten)) {
		fprintf(stderr, "fsck.f2fs: out of memory\n");
		return FSCK_EXIT_OPERATIONAL;
	}
	return rewritten ? reopen(ctx, "the checkpoint repair") : 0;
}

static int open_fs(struct fsck_ctx *ctx)
{
	const char *dev = ctx->opts.device;
	int err, rc;

	err = f2_fs_open(dev, NULL, &ctx->fs);
	if (!err) {
		rc = may_write(ctx) ? open_rw(ctx) : 0;
		return rc ? rc : check_cp_head(ctx);
	}
	if (err == F2_ENOCP) {
		/* the only committed pack may have lost its head */
		rc = check_cp_head(ctx);
		if (rc || ctx->fs->cp)
			return rc;
		return rescue_cp(ctx);	/* the last resort: rebuild from the main area */
	}
	if (ctx->fs && ctx->fs->io && (err == F2_EBADMAGIC || err == F2_EBADCRC ||
				       err == F2_ECORRUPT || err == F2_ERANGE) && !ctx->rescued) {
		/* the last resort: a superblock from the checkpoint packs */
		rc = rescue_sb(ctx, may_write(ctx) && !ctx->mounted_ro);
		if (rc)
			return rc;
		f2_fs_close(ctx->fs);
		ctx->fs = NULL;
		return open_fs(ctx);
	}
	if (ctx->fs && ctx->fs->io && (err == F2_ETOOSMALL || err == F2_EBADOPT)) {
		fix_problem(ctx, PR_SB_DEVICE_MISSING, "%s", ctx->fs->why);
	} else {
		const char *why = ctx->fs && ctx->fs->why[0] ? ctx->fs->why : f2_strerror(err);

		/* name the device unless the reason does (an open failure) */
		if (strncmp(why, dev, strlen(dev)))
			fprintf(stderr, "fsck.f2fs: %s: %s\n", dev, why);
		else
			fprintf(stderr, "fsck.f2fs: %s\n", why);
	}
	return FSCK_EXIT_OPERATIONAL;
}

/* Roll-forward (f2/recovery.h) before the check: -y/-p recover the files
 * fsync-ed after the last checkpoint, other modes list them.  Not under a
 * mount: the kernel replays them itself when it mounts (read-only too),
 * so a chain left is one it was told to keep (norecovery), and the check
 * then repairs nothing that would lose it (fix_problem()). */
static int roll_forward(struct fsck_ctx *ctx)
{
	int apply = ctx->opts.mode == MODE_YES || ctx->opts.mode == MODE_PREEN;
	struct f2_rf *rf = NULL;
	char why[F2_WHY_LEN];
	int n;

	if (apply && ctx->mounted_ro && !(ctx->fs->cp_flags & F2_CP_UMOUNT)) {
		fprintf(ctx->out, "roll-forward: not done on a mounted device (the kernel "
			"replays fsync-ed files when it mounts)\n");
		apply = 0;
	}

	if (apply && ctx->rw) {
		n = f2_rf_run(ctx->rw, 1, &rf, why, sizeof(why));
	} else {
		n = f2_rf_scan(ctx->fs, &rf);
		snprintf(why, sizeof(why), "%s", ctx->fs->why);
	}
	if (n < 0) {
		fprintf(stderr, "fsck.f2fs: roll-forward: %s: %s\n", f2_strerror(n), why);
		return FSCK_EXIT_UNCORRECTED;
	}
	for (size_t i = 0; i < rf->ninos; i++) {
		const struct f2_rf_ino *e = &rf->inos[i];

		if (e->skip)
			fprintf(ctx->out, "roll-forward: ino %u (%u nodes): not recovered: %s\n",
				e->ino, e->nodes, e->why);
		else if (!apply)
			fprintf(ctx->out, "roll-forward: would recover ino %u%s \"%s\" in dir %u: "
				"size %llu, %u nodes\n", e->ino, e->is_new ? " (new)" : "",
				(const char *)e->name, e->pino, (unsigned long long)e->size, e->nodes);
		else
			fprintf(ctx->out, "roll-forward: recovered ino %u%s \"%s\" in dir %u as ino "
				"%u: size %llu, %u blocks copied\n", e->ino, e->is_new ? " (new)" : "",
				(const char *)e->name, e->pino, e->new_ino,
				(unsigned long long)e->size, e->copied);
	}
	f2_rf_free(rf);
	if (apply && n > 0) {
		ctx->errors_fixed++;	/* the file system was modified */
		ctx->rf_done = 1;
		return reopen(ctx, "roll-forward");	/* read the recovered state */
	}
	return 0;
}

/* One check of the volume: open, roll forward, the phases, the summary
 * line.  Returns the exit code. */
static int check(struct fsck_ctx *ctx)
{
	int rc, full;
	double t0;

	if (inomap_init(&ctx->inodes)) {
		fprintf(stderr, "fsck.f2fs: out of memory\n");
		return FSCK_EXIT_OPERATIONAL;
	}
	rc = open_fs(ctx);
	if (rc)
		return rc;	/* 8 (no file system) or 4 (no checkpoint) */
	if (!ctx->opts.no_roll_forward && (rc = roll_forward(ctx)))
		return rc;

	/* after a roll-forward the new checkpoint says unmounted cleanly, but
	 * what the recovery wrote (quota usage above all) is still unchecked */
	full = ctx->opts.force || ctx->rf_done || ctx->rescued || !(ctx->fs->cp_flags & F2_CP_UMOUNT) ||
	       (ctx->fs->cp_flags & (F2_CP_ERROR | F2_CP_FSCK | F2_CP_QUOTA_NEED_FSCK)) ||
	       !ctx->fs->sb_valid[0] || !ctx->fs->sb_valid[1] || f2_sb_has_records(&ctx->fs->sb);
	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		if (phases[i].full_only && !full && !ctx->nfindings) {
			fprintf(ctx->out, "%s: clean (checkpoint says unmounted cleanly; -f forces a "
				"full check)\n", ctx->opts.device);
			return exit_code(ctx);
		}
		vmsg(ctx, "phase %zu: %s", i + 1, phases[i].name);
		t0 = now();
		rc = phases[i].run(ctx);
		if (ctx->ntimes < FSCK_MAX_PHASES) {
			ctx->times[ctx->ntimes].name = phases[i].name;
			ctx->times[ctx->ntimes++].seconds = now() - t0;
		}
		progress_done(ctx);
		if (rc) {
			fprintf(stderr, "fsck.f2fs: %s: %s\n", phases[i].name, f2_strerror(rc));
			return FSCK_EXIT_OPERATIONAL | exit_code(ctx);
		}
		if (ctx->fatal || ctx->canceled || ctx->stop)
			break;
	}
	/* the kernel's need-fsck mark goes once a full check left nothing
	 * (never under a mount: the driver would write it back) */
	if (!ctx->fatal && !ctx->canceled && !ctx->stop && !ctx->errors_left && !ctx->probe_safe &&
	    !ctx->mounted_ro && !ctx->cannot_check && ctx->rw && may_write(ctx) &&
	    !cp_clear_fsck(ctx) && (ctx->fs->cp_flags & F2_CP_FSCK))
		ctx->flag_cleared = 1;
	rc = exit_code(ctx);
	fprintf(ctx->out, "%s: %llu inodes, %llu nodes, %llu blocks; %u error(s) fixed, "
		"%u left, %u warning(s)%s\n", ctx->opts.device,
		(unsigned long long)ctx->inodes_found, (unsigned long long)ctx->nodes_found,
		(unsigned long long)ctx->blocks_found, ctx->errors_fixed,
		ctx->errors_left + ctx->probe_safe, ctx->warnings, ctx->canceled ? "; canceled" : "");
	if (ctx->cannot_check)
		fprintf(ctx->out, "%s: not checked past the superblock: this version does not "
			"implement a feature the volume uses\n", ctx->opts.device);
	if (ctx->opts.mode == MODE_PREEN && (ctx->errors_left || ctx->probe_safe))
		fprintf(ctx->out, "%s: UNEXPECTED INCONSISTENCY; run fsck.f2fs manually\n",
			ctx->opts.device);
	return rc;
}

/* A fresh state for another check of the same volume. */
static void reset(struct fsck_ctx *ctx, const struct fsck_opts *o, int mounted_ro, FILE *out)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->opts = *o;
	ctx->mounted_ro = mounted_ro;
	ctx->prog_last = -1;
	ctx->out = out;
}

/* check(), and when its repairs deferred others (quota), a check of the
 * repaired volume; the exit code covers both. */
static int check_all(struct fsck_ctx *ctx)
{
	int rc = check(ctx);

	if (ctx->rerun && !ctx->canceled && !(rc & FSCK_EXIT_OPERATIONAL)) {
		/* repairs changed what the inodes own: the deferred (quota)
		 * repairs need a check of the repaired volume */
		struct fsck_opts o = ctx->opts;
		unsigned fixed = ctx->errors_fixed;

		fprintf(ctx->out, "%s: checking the repaired volume again\n", o.device);
		o.force = 1;
		free_ctx(ctx);
		reset(ctx, &o, ctx->mounted_ro, ctx->out);
		rc = check(ctx);
		if (fixed)
			rc |= FSCK_EXIT_CORRECTED;
		ctx->errors_fixed += fixed;
	}
	return rc;
}

/* -p on a device mounted read-only: the probe, its report kept aside;
 * then, when every error it found is one -p fixes, the check that fixes
 * them, else the probe's report (nothing written). */
static int preen_mounted(struct fsck_ctx *ctx)
{
	FILE *out = ctx->out, *mem;
	struct fsck_opts o;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	mem = open_memstream(&buf, &len);
	if (!mem) {
		fprintf(stderr, "fsck.f2fs: out of memory\n");
		return FSCK_EXIT_OPERATIONAL;
	}
	ctx->out = mem;
	ctx->probe = 1;
	rc = check(ctx);
	fclose(mem);
	if (rc != FSCK_EXIT_UNCORRECTED || ctx->errors_left || !ctx->probe_safe) {
		/* clean, not checked, or an error -p leaves: the report stands */
		fwrite(buf, 1, len, out);
		if (rc & FSCK_EXIT_UNCORRECTED)
			fprintf(out, "%s: mounted read-only: nothing written\n", ctx->opts.device);
		free(buf);
		ctx->out = out;
		return rc;
	}
	free(buf);
	o = ctx->opts;
	free_ctx(ctx);
	reset(ctx, &o, 1, out);
	return check_all(ctx);
}

int main(int argc, char **argv)
{
	struct fsck_ctx ctx;
	char where[256];
	int rc, ro, mounted;

	memset(&ctx, 0, sizeof(ctx));
	ctx.prog_last = -1;
	rc = fsck_parse(argc, argv, &ctx.opts);
	if (rc)
		return rc > 0 ? FSCK_EXIT_OK : FSCK_EXIT_USAGE;
	ctx.out = ctx.opts.json ? stderr : stdout;
	mounted = sup_mounted(ctx.opts.device, where, sizeof(where), &ro);
	if (mounted && !ro && may_write(&ctx)) {
		fprintf(stderr, "fsck.f2fs: %s is mounted on %s; not checking it for repair "
			"(use -n to check it read-only)\n", ctx.opts.device, where);
		return FSCK_EXIT_OPERATIONAL;
	}
	/* what the driver wrote at mount (a roll-forward, orphans) may have
	 * bypassed the device's cache */
	if (mounted)
		sup_uncache(ctx.opts.device);
	if (mounted && !ro)
		fprintf(ctx.out, "fsck.f2fs: warning: %s is mounted on %s; checking read-only, "
			"findings may be stale\n", ctx.opts.device, where);
	else if (mounted && ctx.opts.mode != MODE_PREEN && may_write(&ctx))
		fprintf(ctx.out, "fsck.f2fs: warning: %s is mounted read-only on %s: repairs "
			"are written beside the kernel, which must not write before a reboot\n",
			ctx.opts.device, where);
	else if (mounted && ctx.opts.mode != MODE_PREEN)
		fprintf(ctx.out, "fsck.f2fs: %s is mounted read-only on %s\n", ctx.opts.device,
			where);
	ctx.mounted_ro = mounted && ro;
	if (ctx.mounted_ro && ctx.opts.mode == MODE_PREEN)
		rc = preen_mounted(&ctx);
	else
		rc = check_all(&ctx);
	if (ctx.mounted_ro && ctx.errors_fixed) {
		fprintf(ctx.out, "%s: ***** repaired while mounted read-only on %s: REBOOT "
			"now, before it is mounted read-write *****\n", ctx.opts.device, where);
		rc |= FSCK_EXIT_REBOOT;
	}
	return finish(&ctx, rc);
}
