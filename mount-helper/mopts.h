/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mopts.h - mount.f2fs: split "-o" options into mount(2) flags, the f2fs
 * data string and the options only this helper acts on. */
#ifndef MOUNT_MOPTS_H
#define MOUNT_MOPTS_H
#include <stddef.h>

/* What to do when the checkpoint was not left clean (errors=). */
enum mh_on_dirty {
	MH_DIRTY_MOUNT = 0,	/* errors=continue (default): let the kernel recover */
	MH_DIRTY_FSCK,		/* errors=fsck: preen with fsck.f2fs -p first */
	MH_DIRTY_REFUSE,	/* errors=refuse: do not mount */
};

struct mh_opts {
	unsigned long flags;	/* MS_* for mount(2) */
	char *data;		/* f2fs and LSM options for mount(2), may be "" */
	char *mtab;		/* the kept options, as written to /etc/mtab */
	int fsck;		/* -o fsck */
	int loop;		/* -o loop */
	enum mh_on_dirty on_dirty;
};

/* Callback deciding an SELinux context option (name is "context" etc.,
 * value unquoted).  Returns 1 to keep it (with *raw set to a malloc'd
 * value to pass, or NULL to pass value as is), 0 to drop it, -1 to
 * refuse (with a reason in why). */
typedef int (*mh_context_fn)(void *ctx, const char *name, const char *value,
			     char **raw, char *why, size_t why_len);

/*
 * Parse optstr (may be NULL).  Unknown options, and known ones with a bad
 * value, are refused unless sloppy (then dropped with a warning on stderr)
 * and reported in why naming the option.  Returns 0 or -1.
 */
int mh_opts_parse(const char *optstr, int sloppy, mh_context_fn ctxfn, void *ctx,
		  struct mh_opts *o, char *why, size_t why_len);
void mh_opts_free(struct mh_opts *o);

/* The default decision for contexts: libselinux when SELinux is enabled
 * (security_check_context on the raw form), else drop with a warning. */
int mh_selinux_context(void *ctx, const char *name, const char *value,
		       char **raw, char *why, size_t why_len);
#endif
