// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mopts.c - mount.f2fs option parsing.  Every option of "-o" is one of:
 *   generic  a VFS flag turned into MS_* bits (ro, nosuid, noatime, ...)
 *   f2fs     an option the Linux 6.1 f2fs driver accepts, with its value
 *            checked here, passed in the data string of mount(2)
 *   context  an SELinux context option (context=, fscontext=, defcontext=,
 *            rootcontext=), checked by a callback, passed in the data
 *   helper   acted on by this helper and never passed on (fsck, loop,
 *            errors=), or a userspace option mount(8) may hand helpers
 *            (defaults, noauto, nofail, user, _netdev, x-*, ...): dropped
 * Values may be double-quoted to hold commas (contexts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <selinux/selinux.h>
#include "mopts.h"

/* ---- the tables -------------------------------------------------------- */

struct generic_opt {
	const char *name;
	unsigned long flag;
	int clear;		/* the option clears flag instead of setting it */
};

static const struct generic_opt generic_opts[] = {
	{ "ro", MS_RDONLY, 0 },		{ "rw", MS_RDONLY, 1 },
	{ "nosuid", MS_NOSUID, 0 },	{ "suid", MS_NOSUID, 1 },
	{ "nodev", MS_NODEV, 0 },	{ "dev", MS_NODEV, 1 },
	{ "noexec", MS_NOEXEC, 0 },	{ "exec", MS_NOEXEC, 1 },
	{ "sync", MS_SYNCHRONOUS, 0 },	{ "async", MS_SYNCHRONOUS, 1 },
	{ "dirsync", MS_DIRSYNC, 0 },
	{ "noatime", MS_NOATIME, 0 },	{ "atime", MS_NOATIME, 1 },
	{ "nodiratime", MS_NODIRATIME, 0 }, { "diratime", MS_NODIRATIME, 1 },
	{ "relatime", MS_RELATIME, 0 },	{ "norelatime", MS_RELATIME, 1 },
	{ "strictatime", MS_STRICTATIME, 0 }, { "nostrictatime", MS_STRICTATIME, 1 },
	{ "lazytime", MS_LAZYTIME, 0 },	{ "nolazytime", MS_LAZYTIME, 1 },
	{ "iversion", MS_I_VERSION, 0 }, { "noiversion", MS_I_VERSION, 1 },
	{ "silent", MS_SILENT, 0 },	{ "loud", MS_SILENT, 1 },
	{ "nosymfollow", MS_NOSYMFOLLOW, 0 }, { "symfollow", MS_NOSYMFOLLOW, 1 },
	{ "remount", MS_REMOUNT, 0 },
	{ NULL, 0, 0 },
};

/* How an f2fs option's value is checked. */
enum vkind {
	V_NONE,		/* no value allowed */
	V_UINT,		/* decimal unsigned integer */
	V_ENUM,		/* one of the words in 'words' (space separated) */
	V_STR,		/* any non-empty text */
	V_STR0,		/* any text, may be empty (turns a quota file off) */
	V_CKPT,		/* checkpoint=: enable | disable[:N | :N%] */
	V_COMPR,	/* compress_algorithm=: lzo | lzo-rle | lz4[:N] | zstd[:N] */
	V_OPTENUM,	/* like V_ENUM, and the option may also come bare */
};

struct f2fs_opt {
	const char *name;
	enum vkind kind;
	const char *words;
};

/* The options of fs/f2fs/super.c in Linux 6.1 (f2fs_tokens), as facts. */
static const struct f2fs_opt f2fs_opts[] = {
	{ "background_gc", V_ENUM, "on off sync" },
	{ "disable_roll_forward", V_NONE, NULL },
	{ "norecovery", V_NONE, NULL },
	{ "discard", V_NONE, NULL },
	{ "nodiscard", V_NONE, NULL },
	{ "no_heap", V_NONE, NULL },
	{ "heap", V_NONE, NULL },
	{ "user_xattr", V_NONE, NULL },
	{ "nouser_xattr", V_NONE, NULL },
	{ "acl", V_NONE, NULL },
	{ "noacl", V_NONE, NULL },
	{ "active_logs", V_ENUM, "2 4 6" },
	{ "disable_ext_identify", V_NONE, NULL },
	{ "inline_xattr", V_NONE, NULL },
	{ "noinline_xattr", V_NONE, NULL },
	{ "inline_xattr_size", V_UINT, NULL },
	{ "inline_data", V_NONE, NULL },
	{ "noinline_data", V_NONE, NULL },
	{ "inline_dentry", V_NONE, NULL },
	{ "noinline_dentry", V_NONE, NULL },
	{ "flush_merge", V_NONE, NULL },
	{ "noflush_merge", V_NONE, NULL },
	{ "nobarrier", V_NONE, NULL },
	{ "fastboot", V_NONE, NULL },
	{ "extent_cache", V_NONE, NULL },
	{ "noextent_cache", V_NONE, NULL },
	{ "data_flush", V_NONE, NULL },
	{ "reserve_root", V_UINT, NULL },
	{ "resgid", V_UINT, NULL },
	{ "resuid", V_UINT, NULL },
	{ "mode", V_ENUM, "adaptive lfs fragment:segment fragment:block" },
	{ "io_bits", V_UINT, NULL },
	{ "fault_injection", V_UINT, NULL },
	{ "fault_type", V_UINT, NULL },
	{ "quota", V_NONE, NULL },
	{ "noquota", V_NONE, NULL },
	{ "usrquota", V_NONE, NULL },
	{ "grpquota", V_NONE, NULL },
	{ "prjquota", V_NONE, NULL },
	{ "usrjquota", V_STR0, NULL },
	{ "grpjquota", V_STR0, NULL },
	{ "prjjquota", V_STR0, NULL },
	{ "jqfmt", V_ENUM, "vfsold vfsv0 vfsv1" },
	{ "alloc_mode", V_ENUM, "default reuse" },
	{ "fsync_mode", V_ENUM, "posix strict nobarrier" },
	{ "test_dummy_encryption", V_OPTENUM, "v1 v2" },
	{ "inlinecrypt", V_NONE, NULL },
	{ "checkpoint", V_CKPT, NULL },
	{ "checkpoint_merge", V_NONE, NULL },
	{ "nocheckpoint_merge", V_NONE, NULL },
	{ "compress_algorithm", V_COMPR, NULL },
	{ "compress_log_size", V_UINT, NULL },
	{ "compress_extension", V_STR, NULL },
	{ "nocompress_extension", V_STR, NULL },
	{ "compress_chksum", V_NONE, NULL },
	{ "compress_mode", V_ENUM, "fs user" },
	{ "compress_cache", V_NONE, NULL },
	{ "atgc", V_NONE, NULL },
	{ "gc_merge", V_NONE, NULL },
	{ "nogc_merge", V_NONE, NULL },
	{ "discard_unit", V_ENUM, "block segment section" },
	{ "memory", V_ENUM, "normal low" },
	{ NULL, V_NONE, NULL },
};

static const char *const context_opts[] = {
	"context", "fscontext", "defcontext", "rootcontext", NULL,
};

/* Userspace options mount(8) and fstab use; never passed to the kernel. */
static const char *const dropped_opts[] = {
	"defaults", "auto", "noauto", "user", "nouser", "users", "owner",
	"noowner", "group", "nogroup", "nofail", "_netdev", NULL,
};

/* ---- small helpers ----------------------------------------------------- */

/* Append ",text" (or "text" to an empty string) to a malloc'd string. */
static int append(char **s, const char *text)
{
	size_t a = *s ? strlen(*s) : 0, b = strlen(text);
	char *n = realloc(*s, a + b + 2);

	if (!n)
		return -1;
	if (a)
		n[a++] = ',';
	memcpy(n + a, text, b + 1);
	*s = n;
	return 0;
}

static int in_list(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

static int is_uint(const char *v)
{
	if (!*v || strlen(v) > 10)
		return 0;
	for (; *v; v++)
		if (*v < '0' || *v > '9')
			return 0;
	return 1;
}

static int in_words(const char *words, const char *v)
{
	size_t n = strlen(v);

	while (*words) {
		size_t w = strcspn(words, " ");

		if (w == n && !strncmp(words, v, n))
			return 1;
		words += w;
		words += strspn(words, " ");
	}
	return 0;
}

/* lz4[:level] / zstd[:level] with a decimal level, or lzo, lzo-rle. */
static int compr_ok(const char *v)
{
	const char *colon = strchr(v, ':');

	if (!strcmp(v, "lzo") || !strcmp(v, "lzo-rle"))
		return 1;
	if (!colon)
		return !strcmp(v, "lz4") || !strcmp(v, "zstd");
	if ((size_t)(colon - v) == 3 && !strncmp(v, "lz4", 3))
		return is_uint(colon + 1);
	if ((size_t)(colon - v) == 4 && !strncmp(v, "zstd", 4))
		return is_uint(colon + 1);
	return 0;
}

static int ckpt_ok(const char *v)
{
	size_t n;

	if (!strcmp(v, "enable") || !strcmp(v, "disable"))
		return 1;
	if (strncmp(v, "disable:", 8))
		return 0;
	v += 8;
	n = strspn(v, "0123456789");
	if (!n || n > 10)
		return 0;
	return !v[n] || !strcmp(v + n, "%");
}

/* Check an f2fs option's value; returns 0 or -1 with why set. */
static int check_value(const struct f2fs_opt *f, const char *val, char *why, size_t wl)
{
	int ok = 0;

	switch (f->kind) {
	case V_NONE:
		ok = !val;
		if (!ok) {
			snprintf(why, wl, "option '%s' takes no value", f->name);
			return -1;
		}
		return 0;
	case V_OPTENUM:
		if (!val)
			return 0;
		/* fall through */
	case V_ENUM:
		ok = val && in_words(f->words, val);
		if (!ok) {
			snprintf(why, wl, "option '%s' needs one of: %s", f->name, f->words);
			return -1;
		}
		return 0;
	case V_UINT:
		ok = val && is_uint(val);
		break;
	case V_STR:
		ok = val && *val;
		break;
	case V_STR0:
		ok = val != NULL;
		break;
	case V_CKPT:
		ok = val && ckpt_ok(val);
		break;
	case V_COMPR:
		ok = val && compr_ok(val);
		break;
	}
	if (!ok) {
		static const char *const what[] = {
			[V_UINT] = "a decimal number",
			[V_STR] = "a value",
			[V_STR0] = "a value (may be empty)",
			[V_CKPT] = "enable, disable, disable:N or disable:N%",
			[V_COMPR] = "lzo, lzo-rle, lz4[:level] or zstd[:level]",
		};
		snprintf(why, wl, "option '%s' needs %s", f->name, what[f->kind]);
		return -1;
	}
	return 0;
}

/* Remove surrounding double quotes from a value (in place). */
static char *unquote(char *v)
{
	size_t n = strlen(v);

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		v[n - 1] = 0;
		return v + 1;
	}
	return v;
}

/* Split the next option off *p: commas inside double quotes do not
 * split.  Returns the option (NUL terminated in place) or NULL at the end. */
static char *next_opt(char **p)
{
	char *s = *p, *e;
	int q = 0;

	if (!s)
		return NULL;
	for (e = s; *e && (q || *e != ','); e++)
		if (*e == '"')
			q = !q;
	if (*e) {
		*e = 0;
		*p = e + 1;
	} else {
		*p = NULL;
	}
	return s;
}

/* ---- one option ---------------------------------------------------------- */

/* Returns 0, or -1 with why set (the option is not acceptable). */
static int one_opt(char *opt, mh_context_fn ctxfn, void *ctx, struct mh_opts *o,
		   char *why, size_t wl)
{
	char *eq = strchr(opt, '='), *val = NULL;
	const char *name = opt;

	if (eq) {
		*eq = 0;
		val = eq + 1;
	}
	/* generic VFS flags */
	for (const struct generic_opt *g = generic_opts; g->name; g++) {
		if (strcmp(g->name, name))
			continue;
		if (val) {
			snprintf(why, wl, "option '%s' takes no value", name);
			return -1;
		}
		if (g->clear)
			o->flags &= ~g->flag;
		else
			o->flags |= g->flag;
		if (g->flag == MS_REMOUNT)
			return 0;
		return append(&o->mtab, name);
	}
	/* this helper's own options */
	if (!strcmp(name, "fsck")) {
		if (val) {
			snprintf(why, wl, "option 'fsck' takes no value");
			return -1;
		}
		o->fsck = 1;
		return 0;
	}
	if (!strcmp(name, "errors")) {
		if (val && !strcmp(val, "continue"))
			o->on_dirty = MH_DIRTY_MOUNT;
		else if (val && !strcmp(val, "fsck"))
			o->on_dirty = MH_DIRTY_FSCK;
		else if (val && !strcmp(val, "refuse"))
			o->on_dirty = MH_DIRTY_REFUSE;
		else {
			snprintf(why, wl, "option 'errors' needs one of: continue fsck refuse");
			return -1;
		}
		return 0;
	}
	if (!strcmp(name, "loop")) {
		if (val) {
			snprintf(why, wl, "option 'loop=%s': choosing the loop device is not "
			    "supported (use 'loop')", val);
			return -1;
		}
		o->loop = 1;
		return 0;
	}
	if (!strcmp(name, "offset") || !strcmp(name, "sizelimit") ||
	    !strcmp(name, "encryption") || !strcmp(name, "helper")) {
		snprintf(why, wl, "option '%s' is not supported by mount.f2fs", name);
		return -1;
	}
	if (in_list(dropped_opts, name) || !strncmp(name, "x-", 2) ||
	    !strncmp(name, "X-", 2) || !strcmp(name, "comment"))
		return 0;
	/* SELinux contexts */
	if (in_list(context_opts, name)) {
		char *raw = NULL, *q;
		int r;

		if (val)
			val = unquote(val);
		if (!val || !*val) {
			snprintf(why, wl, "option '%s' needs a context", name);
			return -1;
		}
		r = ctxfn(ctx, name, val, &raw, why, wl);
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		q = malloc(strlen(name) + strlen(raw ? raw : val) + 4);
		if (!q) {
			free(raw);
			return -1;
		}
		sprintf(q, "%s=\"%s\"", name, raw ? raw : val);
		free(raw);
		r = append(&o->data, q) || append(&o->mtab, q);
		free(q);
		return r ? -1 : 0;
	}
	/* f2fs options */
	for (const struct f2fs_opt *f = f2fs_opts; f->name; f++) {
		if (strcmp(f->name, name))
			continue;
		if (check_value(f, val, why, wl))
			return -1;
		if (eq)
			*eq = '=';
		return append(&o->data, opt) || append(&o->mtab, opt) ? -1 : 0;
	}
	snprintf(why, wl, "unknown option '%s'", name);
	return -1;
}

int mh_opts_parse(const char *optstr, int sloppy, mh_context_fn ctxfn, void *ctx,
		  struct mh_opts *o, char *why, size_t wl)
{
	char *copy, *p, *opt;

	memset(o, 0, sizeof(*o));
	if (wl)
		why[0] = 0;
	o->data = strdup("");
	o->mtab = strdup("");
	copy = strdup(optstr ? optstr : "");
	if (!o->data || !o->mtab || !copy) {
		free(copy);
		mh_opts_free(o);
		snprintf(why, wl, "out of memory");
		return -1;
	}
	p = copy;
	while ((opt = next_opt(&p))) {
		char shown[256];

		if (!*opt)
			continue;
		snprintf(shown, sizeof(shown), "%s", opt);
		if (one_opt(opt, ctxfn, ctx, o, why, wl) == 0)
			continue;
		if (!why[0])
			snprintf(why, wl, "out of memory");
		if (!sloppy) {
			free(copy);
			mh_opts_free(o);
			return -1;
		}
		fprintf(stderr, "mount.f2fs: sloppy: ignoring '%s': %s\n", shown, why);
		why[0] = 0;
	}
	free(copy);
	/* mtab always says ro or rw first */
	{
		char *m = strdup(o->flags & MS_RDONLY ? "ro" : "rw");
		char *s = o->mtab, *t;

		if (!m) {
			mh_opts_free(o);
			return -1;
		}
		while ((t = next_opt(&s)))
			if (*t && strcmp(t, "ro") && strcmp(t, "rw") && append(&m, t)) {
				free(m);
				mh_opts_free(o);
				snprintf(why, wl, "out of memory");
				return -1;
			}
		free(o->mtab);
		o->mtab = m;
	}
	return 0;
}

void mh_opts_free(struct mh_opts *o)
{
	free(o->data);
	free(o->mtab);
	o->data = o->mtab = NULL;
}

int mh_selinux_context(void *ctx, const char *name, const char *value,
		       char **raw, char *why, size_t wl)
{
	char *r = NULL;

	(void)ctx;
	*raw = NULL;
	if (is_selinux_enabled() <= 0) {
		fprintf(stderr, "mount.f2fs: SELinux is not enabled; ignoring %s=%s\n",
			name, value);
		return 0;
	}
	if (selinux_trans_to_raw_context(value, &r) < 0 || !r) {
		snprintf(why, wl, "option '%s': cannot translate SELinux context '%s'", name, value);
		return -1;
	}
	if (security_check_context_raw(r) < 0) {
		snprintf(why, wl, "option '%s': '%s' is not a valid SELinux context", name, value);
		freecon(r);
		return -1;
	}
	*raw = strdup(r);
	freecon(r);
	return *raw ? 1 : -1;
}
