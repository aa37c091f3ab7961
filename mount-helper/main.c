// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - mount.f2fs, the helper mount(8) runs for "-t f2fs":
 *   mount.f2fs SPEC DIR [-sfnv] [-o OPTIONS] [-t f2fs]
 * Steps: parse the options (refusing unknown ones), resolve SPEC, read and
 * verify the superblock, compare its features with the running kernel's,
 * run fsck.f2fs -p when asked (-o fsck, or errors=fsck and a checkpoint
 * that is not clean), attach an image file to a loop device, mount(2),
 * then record the mount in /etc/mtab when that is a regular file.
 * Nothing is left behind on failure: a loop device attached here is
 * detached again.  Exit codes are those of mount(8).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1	/* secure_getenv */
#endif
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "f2/features.h"
#include "f2/io.h"
#include "fsinfo.h"
#include "mopts.h"
#include "run.h"
#include "source.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif
#ifndef F2_MOUNT_FSCK
#define F2_MOUNT_FSCK "fsck.f2fs"
#endif

/* mount(8) exit codes */
enum {
	MH_EX_OK = 0,
	MH_EX_USAGE = 1,	/* incorrect invocation or permissions */
	MH_EX_SYSERR = 2,	/* system error (no loop device, out of memory) */
	MH_EX_SOFTWARE = 4,	/* internal bug */
	MH_EX_MTAB = 16,	/* problems writing or locking /etc/mtab */
	MH_EX_FAIL = 32,	/* mount failure */
};

struct mh_cmd {
	const char *spec, *dir, *optstr, *type;
	char *optbuf;		/* several -o joined (freed by main) */
	int sloppy, fake, nomtab, verbose;
	/* paths the tests may redirect (ignored for setuid callers) */
	const char *fsck_prog, *sysfs, *mtab;
};

static void usage(FILE *out)
{
	fprintf(out,
"Usage: mount.f2fs SPEC DIR [-sfnv] [-o options] [-t f2fs]\n"
"Mount the F2FS file system SPEC (a device, UUID=, LABEL=, PARTUUID=,\n"
"PARTLABEL=, or an image file, attached to a loop device) on DIR.\n"
"  -o options     comma-separated mount options (see mount.f2fs(8)):\n"
"                 generic ones (ro, rw, noatime, ...), f2fs ones,\n"
"                 context=..., and this helper's own: fsck, loop,\n"
"                 errors=continue|fsck|refuse\n"
"  -s             sloppy: ignore unknown options with a warning\n"
"  -f, --fake, --dry-run\n"
"                 do everything except the mount(2) call\n"
"  -n             do not write /etc/mtab\n"
"  -v             verbose\n"
"  -t f2fs        file system type (only f2fs)\n"
"  -V, --version  print the version\n"
"  -h, --help     this help\n");
}

static int parse_args(int argc, char **argv, struct mh_cmd *c)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "fake", no_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	while ((ch = getopt_long(argc, argv, "sfnvo:t:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 's': c->sloppy = 1; break;
		case 'f': c->fake = 1; break;
		case 'n': c->nomtab = 1; break;
		case 'v': c->verbose = 1; break;
		case 'o':
			if (c->optstr) {
				/* several -o accumulate, as with mount(8) */
				char *m = malloc(strlen(c->optstr) + strlen(optarg) + 2);

				if (!m)
					return -1;
				sprintf(m, "%s,%s", c->optstr, optarg);
				free(c->optbuf);
				c->optstr = c->optbuf = m;
			} else {
				c->optstr = optarg;
			}
			break;
		case 't': c->type = optarg; break;
		case 'h': usage(stdout); exit(MH_EX_OK);
		case 'V': printf("mount.f2fs (f2fs-progs) %s\n", F2_VERSION_STRING); exit(MH_EX_OK);
		default: usage(stderr); return -1;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "mount.f2fs: expected SPEC and DIR\n");
		usage(stderr);
		return -1;
	}
	c->spec = argv[optind];
	c->dir = argv[optind + 1];
	if (c->type && strcmp(c->type, "f2fs")) {
		fprintf(stderr, "mount.f2fs: file system type '%s' is not f2fs\n", c->type);
		return -1;
	}
	return 0;
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = secure_getenv(name);

	return v && *v ? v : dflt;
}

/* Explain a mount(2) failure the way a user can act on. */
static void mount_error(int e, const char *dev, const char *dir)
{
	const char *hint;

	switch (e) {
	case EINVAL: hint = "bad option, bad superblock or unsupported feature (see dmesg)"; break;
	case EBUSY: hint = "already mounted, or the device or mount point is busy"; break;
	case ENODEV: hint = "the kernel does not support f2fs (module not loaded?)"; break;
	case ENOENT: hint = "mount point or device does not exist"; break;
	case ENOTDIR: hint = "mount point is not a directory"; break;
	case EACCES: case EROFS: hint = "device is write-protected"; break;
	case EPERM: hint = "permission denied (only root can mount)"; break;
	default: hint = strerror(e); break;
	}
	fprintf(stderr, "mount.f2fs: mounting %s on %s failed: %s: %s\n", dev, dir,
		strerror(e), hint);
}

/* What an fsck(8) exit status of 4 or more means (the bits add up; the
 * highest one explains the refusal best). */
static const char *fsck_failure(int code)
{
	if (code < 0)
		return "could not wait for it";
	if (code >= 128)
		return "killed by a signal";
	if (code & 32)
		return "canceled";
	if (code & 16)
		return "usage error";
	if (code & 8)
		return "operational error (device unreadable, not f2fs, or in use)";
	return "errors left uncorrected";
}

static int fsck_step(const struct mh_cmd *c, const char *dev, const char *why_run)
{
	char prog[4096];
	int code;

	if (mh_fsck_find(c->fsck_prog, prog, sizeof(prog))) {
		fprintf(stderr, "mount.f2fs: %s asks for fsck, but the fsck program '%s' "
			"was not found (next to mount.f2fs or on PATH)\n", why_run, c->fsck_prog);
		return -1;
	}
	if (c->verbose)
		printf("mount.f2fs: running %s -p %s (%s)\n", prog, dev, why_run);
	switch (mh_fsck_run(prog, dev, &code)) {
	case MH_FSCK_OK:
		if (c->verbose)
			printf("mount.f2fs: %s exited %d: %s\n", prog, code,
			       code ? "errors corrected" : "file system clean");
		return 0;
	case MH_FSCK_REBOOT:
		fprintf(stderr, "mount.f2fs: %s corrected errors and advises a reboot "
			"(exit %d); mounting anyway\n", prog, code);
		return 0;
	case MH_FSCK_MISSING:
		fprintf(stderr, "mount.f2fs: cannot run the fsck program %s\n", prog);
		return -1;
	case MH_FSCK_FAILED:
	default:
		fprintf(stderr, "mount.f2fs: %s -p %s failed (exit %d): %s; not mounting "
			"(run fsck.f2fs by hand)\n", prog, dev, code, fsck_failure(code));
		return -1;
	}
}

/* Everything between the parsed options and mount(2). */
static int do_mount(const struct mh_cmd *c, struct mh_opts *o)
{
	struct mh_source src;
	struct mh_fsinfo fi;
	struct stat st;
	char why[1024] = "", state[160];
	const char *dev;
	int rc, r;

	if (stat(c->dir, &st)) {
		fprintf(stderr, "mount.f2fs: mount point %s: %s\n", c->dir,
			errno == ENOENT ? "does not exist" : strerror(errno));
		return MH_EX_FAIL;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "mount.f2fs: mount point %s is not a directory\n", c->dir);
		return MH_EX_FAIL;
	}
	if (mh_source_resolve(c->spec, &src, why, sizeof(why))) {
		fprintf(stderr, "mount.f2fs: %s\n", why);
		mh_source_free(&src);
		return MH_EX_FAIL;
	}
	if (c->verbose && strcmp(src.path, c->spec))
		printf("mount.f2fs: %s is %s\n", c->spec, src.path);
	if (o->loop && !src.is_file) {
		fprintf(stderr, "mount.f2fs: option 'loop' needs an image file; %s is a "
			"block device\n", src.path);
		mh_source_free(&src);
		return MH_EX_FAIL;
	}
	/* our tools read it, but a loop device would show the kernel chunks */
	if (src.is_file && f2_io_is_sparse(src.path) == 1) {
		fprintf(stderr, "mount.f2fs: %s is an Android sparse image, which the kernel "
			"cannot mount (expand it with simg2img first); not mounting\n", src.path);
		mh_source_free(&src);
		return MH_EX_FAIL;
	}
	rc = MH_EX_FAIL;
	if (mh_fsinfo_read(src.path, &fi, why, sizeof(why))) {
		fprintf(stderr, "mount.f2fs: %s; not mounting\n", why);
		goto out;
	}
	r = mh_kernel_features(c->sysfs, fi.features, why, sizeof(why));
	if (r < 0) {
		fprintf(stderr, "mount.f2fs: %s needs features the running kernel lacks "
			"(%s/features): %s; not mounting\n", src.path, c->sysfs, why);
		goto out;
	}
	if (r > 0 && c->verbose)
		printf("mount.f2fs: %s/features not readable; the kernel will judge the "
		       "features\n", c->sysfs);
	for (uint32_t bit = 1; bit; bit <<= 1)
		if (f2_features_unsupported(fi.features) & bit) {
			f2_feature_unsupported_text(bit, why, sizeof(why));
			fprintf(stderr, "mount.f2fs: warning: %s: %s; this version's fsck.f2fs, "
				"gc.f2fs and defrag.f2fs do not write to it\n", src.path, why);
		}
	mh_fsinfo_state(&fi, state, sizeof(state));
	if (c->verbose)
		printf("mount.f2fs: %s: f2fs, label '%s', checkpoint %s\n", src.path,
		       fi.label, state);
	if (!(o->flags & MS_REMOUNT)) {
		const char *why_run = NULL;

		if (o->fsck)
			why_run = "option fsck";
		else if (!fi.clean && o->on_dirty == MH_DIRTY_FSCK)
			why_run = "errors=fsck with a checkpoint that is not clean";
		if (!why_run && !fi.clean && o->on_dirty == MH_DIRTY_REFUSE) {
			fprintf(stderr, "mount.f2fs: %s: checkpoint %s and errors=refuse; not "
				"mounting (run fsck.f2fs, or mount with -o fsck)\n", src.path, state);
			goto out;
		}
		if (why_run) {
			if (fsck_step(c, src.path, why_run))
				goto out;
			/* fsck may have rewritten the superblock: check it again */
			if (mh_fsinfo_read(src.path, &fi, why, sizeof(why))) {
				fprintf(stderr, "mount.f2fs: after fsck: %s; not mounting\n", why);
				goto out;
			}
		}
	}
	dev = src.path;
	if (src.is_file) {
		int forced_ro;

		if (c->fake) {
			if (c->verbose)
				printf("mount.f2fs: fake: would attach %s to a loop device\n",
				       src.path);
		} else if (mh_loop_attach(&src, !!(o->flags & MS_RDONLY), &forced_ro, why,
					  sizeof(why))) {
			fprintf(stderr, "mount.f2fs: %s\n", why);
			rc = MH_EX_SYSERR;
			goto out;
		} else {
			dev = src.loopdev;
			if (forced_ro) {
				fprintf(stderr, "mount.f2fs: %s is write-protected, mounting "
					"read-only\n", src.path);
				o->flags |= MS_RDONLY;
			}
			if (c->verbose)
				printf("mount.f2fs: attached %s to %s\n", src.path, dev);
		}
	}
	if (c->verbose)
		printf("mount.f2fs: mount(\"%s\", \"%s\", \"f2fs\", 0x%lx, \"%s\")%s\n", dev,
		       c->dir, o->flags, o->data, c->fake ? " skipped (fake)" : "");
	if (!c->fake && mount(dev, c->dir, "f2fs", o->flags, o->data)) {
		int e = errno;

		if ((e == EACCES || e == EROFS) && !(o->flags & MS_RDONLY) &&
		    !mount(dev, c->dir, "f2fs", o->flags | MS_RDONLY, o->data)) {
			fprintf(stderr, "mount.f2fs: %s is write-protected, mounted read-only\n",
				dev);
			o->flags |= MS_RDONLY;
		} else {
			mount_error(e, dev, c->dir);
			goto out;
		}
	}
	mh_loop_keep(&src);
	rc = MH_EX_OK;
	if (c->verbose)
		printf("mount.f2fs: %s %s on %s\n", c->fake ? "fake-mounted" : "mounted", dev,
		       c->dir);
	if (!c->nomtab) {
		int written;
		char *mt = o->mtab;

		if ((o->flags & MS_RDONLY) && !strncmp(mt, "rw", 2))
			mt[0] = 'r', mt[1] = 'o';
		if (mh_mtab_add(c->mtab, dev, c->dir, mt, &written, why, sizeof(why))) {
			fprintf(stderr, "mount.f2fs: mounted, but %s\n", why);
			rc = MH_EX_MTAB;
		} else if (written && c->verbose) {
			printf("mount.f2fs: recorded in %s\n", c->mtab);
		}
	}
out:
	if (rc && src.loop_fd >= 0 && c->verbose)
		printf("mount.f2fs: detaching %s\n", src.loopdev);
	mh_source_free(&src);
	return rc;
}

static int do_remount(const struct mh_cmd *c, const struct mh_opts *o)
{
	if (c->verbose)
		printf("mount.f2fs: remount(\"%s\", \"%s\", 0x%lx, \"%s\")%s\n", c->spec, c->dir,
		       o->flags, o->data, c->fake ? " skipped (fake)" : "");
	if (!c->fake && mount(c->spec, c->dir, "f2fs", o->flags, o->data)) {
		mount_error(errno, c->spec, c->dir);
		return MH_EX_FAIL;
	}
	return MH_EX_OK;
}

int main(int argc, char **argv)
{
	struct mh_cmd c = { 0 };
	struct mh_opts o;
	char why[512];
	int rc;

	if (parse_args(argc, argv, &c)) {
		free(c.optbuf);
		return MH_EX_USAGE;
	}
	c.fsck_prog = env_or("F2_FSCK", F2_MOUNT_FSCK);
	c.sysfs = env_or("F2_SYSFS", "/sys/fs/f2fs");
	c.mtab = env_or("F2_MTAB", "/etc/mtab");
	rc = mh_opts_parse(c.optstr, c.sloppy, mh_selinux_context, NULL, &o, why, sizeof(why));
	free(c.optbuf);
	if (rc) {
		fprintf(stderr, "mount.f2fs: %s; nothing mounted\n", why);
		return MH_EX_FAIL;
	}
	if (c.verbose)
		printf("mount.f2fs: options: flags 0x%lx, data \"%s\"%s%s%s\n", o.flags, o.data,
		       o.fsck ? ", fsck" : "", o.loop ? ", loop" : "",
		       o.on_dirty == MH_DIRTY_FSCK ? ", errors=fsck" :
		       o.on_dirty == MH_DIRTY_REFUSE ? ", errors=refuse" : "");
	if (!c.fake && geteuid() != 0) {
		fprintf(stderr, "mount.f2fs: only root can mount (use -f to check options)\n");
		mh_opts_free(&o);
		return MH_EX_USAGE;
	}
	rc = (o.flags & MS_REMOUNT) ? do_remount(&c, &o) : do_mount(&c, &o);
	mh_opts_free(&o);
	return rc;
}
