// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tune.c - tune.f2fs: change an unmounted volume after mkfs, as tune2fs
 * does for ext4: its label (-l), its UUID (-U) and the features that can
 * be turned on without rewriting every inode (-O, -C).  -n shows the plan
 * and writes nothing; --json reports it.
 *
 * Order of writes (see man/tune.f2fs.8, "Power cuts"): lost+found first
 * (through the engine, one checkpoint), then the backup superblock with
 * every change, then each inode's checksum under the new uuid's seed,
 * then the primary superblock.  The kernel and fsck go by the primary: a
 * cut before it leaves the old volume, which fsck.f2fs -p makes whole
 * (the backup copied from the primary, inode checksums redone).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <uuid.h>
#include "f2/crc.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/features.h"
#include "f2/file.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "f2/sb.h"
#include "support/json.h"
#include "support/mounted.h"
#include "quota.h"
#include "reseed.h"
#include "sbcopy.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

#define PROG "tune.f2fs"
#define EXIT_USAGE 16

/* Features turned on by a bit in the superblock alone (lost_found also
 * wants the directory, which is made when it is missing). */
#define BIT_ONLY (F2_FEAT_ENCRYPT | F2_FEAT_VERITY | F2_FEAT_SB_CHKSUM | F2_FEAT_CASEFOLD | \
		  F2_FEAT_COMPRESSION | F2_FEAT_LOST_FOUND | F2_FEAT_QUOTA_INO | F2_FEAT_PRJQUOTA)
/* Features every inode would need rewritten for, with a larger extra area. */
#define PER_INODE (F2_FEAT_EXTRA_ATTR | F2_FEAT_INODE_CHKSUM | F2_FEAT_FLEX_INLINE_XATTR | \
		   F2_FEAT_INODE_CRTIME)

struct tune {
	const char *dev, *label, *uuid, *features, *encoding;
	int dry_run, json;
	/* the plan */
	struct f2_super sb[2];		/* the copies as they will be written */
	uint32_t old_features, new_features;
	uint8_t new_uuid[16];
	int change_uuid, make_lpf, changes;
	unsigned quota_want;		/* quota files to make: bit 0 user, 1 group, 2 project */
	uint32_t qf_ino[3];
	struct reseed_stats reseed;
	FILE *out;			/* the text report (stdout, or NULL with --json) */
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device\n"
"Change an unmounted F2FS volume.\n"
"  -l LABEL          set the volume label\n"
"  -U UUID|random|time  set the volume UUID (inode checksums are redone)\n"
"  -O FEATURE[,...]  turn features on: encrypt, verity, sb_checksum,\n"
"                    casefold (with -C), compression (needs extra_attr),\n"
"                    lost_found (the directory is made), quota and\n"
"                    project_quota (the quota files are built)\n"
"  -C utf8[:strict]  casefold encoding (with -O casefold; implies it)\n"
"  -n                show what would change, write nothing\n"
"      --json        report as JSON on stdout\n"
"  -V, --version     print the version\n"
"  -h, --help        this help\n"
"Exit status: 0 done (or nothing to do), 1 error (no F2FS volume, damaged or\n"
"differing superblocks, mounted device, refused feature), 16 bad command line.\n");
}

static void note(struct tune *t, const char *what, const char *from, const char *to)
{
	t->changes++;
	if (t->out)
		fprintf(t->out, "%s: %s -> %s\n", what, from, to);
}

static int plan_label(struct tune *t)
{
	le16 name[F2_MAX_VOLUME_NAME], cur[F2_MAX_VOLUME_NAME];
	char old[4 * F2_MAX_VOLUME_NAME + 8];

	memset(name, 0, sizeof(name));
	if (f2_utf8_to_utf16le(t->label, name, F2_MAX_VOLUME_NAME)) {
		fprintf(stderr, PROG ": label is not UTF-8 or longer than %d UTF-16 code units\n",
			F2_MAX_VOLUME_NAME);
		return 1;
	}
	/* (copied out: the superblock struct is packed) */
	memcpy(cur, t->sb[0].volume_name, sizeof(cur));
	f2_utf16le_to_utf8(cur, F2_MAX_VOLUME_NAME, old, sizeof(old));
	for (int i = 0; i < 2; i++)
		memcpy(t->sb[i].volume_name, name, sizeof(name));
	if (strcmp(old, t->label))
		note(t, "label", old, t->label);
	return 0;
}

static int plan_uuid(struct tune *t)
{
	char old[37], new[37];

	if (!strcmp(t->uuid, "random")) {
		uuid_generate(t->new_uuid);
	} else if (!strcmp(t->uuid, "time")) {
		uuid_generate_time(t->new_uuid);
	} else if (uuid_parse(t->uuid, t->new_uuid)) {
		fprintf(stderr, PROG ": '%s' is not a UUID (nor random or time)\n", t->uuid);
		return 1;
	}
	if (!memcmp(t->new_uuid, t->sb[0].uuid, 16))
		return 0;
	if (t->old_features & F2_FEAT_ENCRYPT) {
		/* fscrypt's IV_INO_LBLK policies derive keys from the uuid */
		fprintf(stderr, PROG ": %s: the volume has the encrypt feature: files encrypted "
			"with keys bound to the UUID would become unreadable; not changed\n", t->dev);
		return 1;
	}
	if ((t->old_features & (F2_FEAT_INODE_CHKSUM | F2_FEAT_BLKZONED)) ==
	    (F2_FEAT_INODE_CHKSUM | F2_FEAT_BLKZONED)) {
		fprintf(stderr, PROG ": %s: a zoned volume's inode blocks cannot be rewritten in "
			"place for their checksums; not changed\n", t->dev);
		return 1;
	}
	uuid_unparse(t->sb[0].uuid, old);
	uuid_unparse(t->new_uuid, new);
	for (int i = 0; i < 2; i++)
		memcpy(t->sb[i].uuid, t->new_uuid, 16);
	t->change_uuid = 1;
	note(t, "uuid", old, new);
	return 0;
}

static int plan_encoding(struct tune *t)
{
	const char *flags = strchr(t->encoding, ':');
	uint16_t fl = 0;

	if (strncmp(t->encoding, "utf8", 4) || (t->encoding[4] && t->encoding[4] != ':')) {
		fprintf(stderr, PROG ": unknown encoding '%s' (only utf8)\n", t->encoding);
		return -1;
	}
	if (flags && strcmp(flags, ":strict")) {
		fprintf(stderr, PROG ": unknown encoding flag '%s'\n", flags + 1);
		return -1;
	}
	if (flags)
		fl = F2_ENC_STRICT_MODE_FL;
	if (t->old_features & F2_FEAT_CASEFOLD) {
		if (f2_le16(t->sb[0].s_encoding) == F2_ENC_UTF8_12_1 &&
		    f2_le16(t->sb[0].s_encoding_flags) == fl)
			return 0;
		fprintf(stderr, PROG ": %s: casefold is on with another encoding; the encoding "
			"of existing names cannot change\n", t->dev);
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		f2_set_le16(t->sb[i].s_encoding, F2_ENC_UTF8_12_1);
		f2_set_le16(t->sb[i].s_encoding_flags, fl);
	}
	t->new_features |= F2_FEAT_CASEFOLD;
	return 0;
}

static int refuse(const struct tune *t, const struct f2_feature *f, const char *why)
{
	fprintf(stderr, PROG ": %s: cannot turn on %s: %s\n", t->dev, f->name, why);
	return 1;
}

static int plan_features(struct tune *t)
{
	uint32_t set = 0, clear = 0, add;
	const char *bad;
	size_t bad_len;
	const struct f2_feature *which;
	char from[256], to[256];

	if (t->features && f2_features_parse(t->features, &set, &clear, &bad, &bad_len)) {
		fprintf(stderr, PROG ": unknown feature '%.*s'\n", (int)bad_len, bad);
		return EXIT_USAGE;
	}
	if (clear) {
		f2_features_format(clear, from, sizeof(from));
		fprintf(stderr, PROG ": %s: features are not turned off (%s)\n", t->dev, from);
		return 1;
	}
	if ((set & F2_FEAT_CASEFOLD) && !t->encoding && !(t->old_features & F2_FEAT_CASEFOLD))
		t->encoding = "utf8";
	if (t->encoding) {
		int r = plan_encoding(t);

		if (r)
			return r < 0 ? EXIT_USAGE : r;
	}
	t->new_features |= set;
	add = t->new_features & ~t->old_features;
	for (const struct f2_feature *f = f2_features; f->name; f++) {
		if (!(add & f->bit) || (f->bit & BIT_ONLY))
			continue;
		if (f->bit & PER_INODE)
			return refuse(t, f, "every inode would need a larger extra area, rewritten "
				      "in place (back up, mkfs with it, copy back)");
		return refuse(t, f, "it is chosen at mkfs time only");
	}
	if ((add & F2_FEAT_COMPRESSION) && !(t->new_features & F2_FEAT_EXTRA_ATTR))
		return refuse(t, f2_feature_by_bit(F2_FEAT_COMPRESSION),
			      "it needs extra_attr, which every inode would need rewritten for");
	if (f2_features_check(t->new_features, &which)) {
		fprintf(stderr, PROG ": %s: %s needs a feature this volume lacks\n", t->dev,
			which ? which->name : "a feature");
		return 1;
	}
	if (!add)
		return 0;
	for (int i = 0; i < 2; i++) {
		f2_set_le32(t->sb[i].feature, t->new_features);
		if (add & F2_FEAT_SB_CHKSUM)
			f2_set_le32(t->sb[i].checksum_offset, F2_SB_CHKSUM_OFFSET);
	}
	t->make_lpf = !!(add & F2_FEAT_LOST_FOUND);
	/* the quota files: user and group with quota, project with both */
	if (add & F2_FEAT_QUOTA_INO)
		t->quota_want = 3;
	if ((t->new_features & (F2_FEAT_QUOTA_INO | F2_FEAT_PRJQUOTA)) ==
	    (F2_FEAT_QUOTA_INO | F2_FEAT_PRJQUOTA) && !f2_le32(t->sb[0].qf_ino[2]))
		t->quota_want |= 4;
	f2_features_format(t->old_features, from, sizeof(from));
	f2_features_format(t->new_features, to, sizeof(to));
	note(t, "features", from[0] ? from : "none", to);
	return 0;
}

/* lost+found in the root, made through the engine when missing. */
static int make_lost_found(struct tune *t)
{
	struct f2_fs_opts fo = { 0 };
	struct f2_io *io = NULL;
	struct f2_fs *fs = NULL;
	struct f2_engine *w = NULL;
	struct f2_inode_ref ir;
	struct f2_wattr a = { .mode = 040700 };
	char why[F2_WHY_LEN] = "";
	uint32_t ino, root = f2_le32(t->sb[0].root_ino);
	int err;

	err = f2_fs_open(t->dev, &fo, &fs);
	if (!err && !f2_path_lookup(fs, "/lost+found", &ir)) {
		f2_fs_close(fs);
		return 0;
	}
	f2_fs_close(fs);
	fs = NULL;
	if (t->out)
		fprintf(t->out, "lost+found: %s in the root directory\n",
			t->dry_run ? "to be made" : "made");
	t->changes++;
	if (t->dry_run)
		return 0;
	err = f2_fs_open_rw(t->dev, &fo, &io, &fs, why, sizeof(why));
	if (!err)
		err = f2_engine_open(fs, NULL, &w);
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", t->dev, why[0] ? why : fs && fs->why[0] ?
			fs->why : f2_strerror(err));
		goto out;
	}
	a.mtime = a.ctime = a.atime = a.crtime = (uint64_t)time(NULL);
	err = f2_engine_create(w, root, "lost+found", 10, &a, &ino);
	if (!err)
		err = f2_engine_checkpoint(w);
	if (err)
		fprintf(stderr, PROG ": %s: making lost+found: %s\n", t->dev, f2_engine_why(w));
out:
	if (w)
		f2_engine_close(w);
	f2_fs_close(fs);
	if (io)
		f2_io_close(io);
	return err ? 1 : 0;
}

/* The quota files, built from the usage; the superblock copies name them. */
static int make_quota(struct tune *t)
{
	static const char *const names[3] = { "user", "group", "project" };
	uint64_t inodes = 0;

	if (quota_make(t->dev, t->quota_want, t->new_features, t->dry_run, t->qf_ino, &inodes))
		return 1;
	for (int q = 0; q < 3; q++) {
		if (!(t->quota_want & (1u << q)))
			continue;
		for (int i = 0; i < 2; i++)
			f2_set_le32(t->sb[i].qf_ino[q], t->qf_ino[q]);
		if (t->out)
			fprintf(t->out, "quota: the %s quota file %s from the usage of %llu "
				"inodes\n", names[q], t->dry_run ? "to be built" : "built",
				(unsigned long long)inodes);
	}
	return 0;
}

/* The inodes' checksums under the new uuid (-U with inode_checksum). */
static int reseed(struct tune *t, struct f2_io *io)
{
	struct f2_fs_opts fo = { 0 };
	struct f2_fs *fs = NULL;
	char why[F2_WHY_LEN];
	int err;

	if (!t->change_uuid || !(t->old_features & F2_FEAT_INODE_CHKSUM))
		return 0;
	err = f2_fs_open_io(io, &fo, &fs);
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", t->dev, fs && fs->why[0] ? fs->why :
			f2_strerror(err));
		f2_fs_close(fs);
		return 1;
	}
	if (!(fs->cp_flags & F2_CP_UMOUNT) || (fs->cp_flags & F2_CP_ERROR)) {
		fprintf(stderr, PROG ": %s: the volume was not unmounted cleanly (files may wait "
			"for roll-forward) or has errors; mount and unmount it, or run fsck.f2fs, "
			"first\n", t->dev);
		f2_fs_close(fs);
		return 1;
	}
	err = reseed_inodes(fs, io, f2_crc32(~0u, t->new_uuid, 16), t->dry_run, &t->reseed,
			    why, sizeof(why));
	f2_fs_close(fs);
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", t->dev, why);
		return 1;
	}
	if (t->out)
		fprintf(t->out, "inode checksums: %llu of %llu inodes %s\n",
			(unsigned long long)t->reseed.rewritten,
			(unsigned long long)t->reseed.inodes, t->dry_run ? "to rewrite" : "rewritten");
	return 0;
}

static void report_json(const struct tune *t, int ret)
{
	char u[37], feats[256];
	le16 name[F2_MAX_VOLUME_NAME];
	char label[4 * F2_MAX_VOLUME_NAME + 8];

	uuid_unparse(t->sb[0].uuid, u);
	memcpy(name, t->sb[0].volume_name, sizeof(name));
	f2_utf16le_to_utf8(name, F2_MAX_VOLUME_NAME, label, sizeof(label));
	f2_features_format(t->new_features, feats, sizeof(feats));
	printf("{\"device\":");
	sup_json_cstr(stdout, t->dev);
	printf(",\"dry_run\":%s,\"ok\":%s,\"changes\":%d,\"uuid\":\"%s\",\"label\":",
	       t->dry_run ? "true" : "false", ret ? "false" : "true", t->changes, u);
	sup_json_cstr(stdout, label);
	printf(",\"features\":");
	sup_json_cstr(stdout, feats);
	printf(",\"lost_found_made\":%s,\"inodes\":%llu,\"inodes_rewritten\":%llu}\n",
	       t->make_lpf ? "true" : "false", (unsigned long long)t->reseed.inodes,
	       (unsigned long long)t->reseed.rewritten);
}

static int run(struct tune *t)
{
	struct f2_io *io;
	char where[4096];
	int err, ret = 1;

	if (!t->dry_run && sup_mounted(t->dev, where, sizeof(where), NULL)) {
		fprintf(stderr, PROG ": %s is mounted on %s; tune it when it is unmounted\n",
			t->dev, where);
		return 1;
	}
	err = f2_io_open(t->dev, t->dry_run ? F2_IO_RDONLY : F2_IO_RDWR | F2_IO_EXCL, &io);
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", t->dev, f2_strerror(err));
		return 1;
	}
	if (sb_read_both(io, PROG, t->dev, t->sb))
		goto out;
	if (memcmp(&t->sb[0], &t->sb[1], sizeof(t->sb[0]))) {
		fprintf(stderr, PROG ": %s: the superblock copies differ (an interrupted change?); "
			"run fsck.f2fs -p first\n", t->dev);
		goto out;
	}
	t->old_features = t->new_features = f2_le32(t->sb[0].feature);
	if (t->features || t->encoding) {
		err = plan_features(t);
		if (err) {
			ret = err;
			goto out;
		}
	}
	if ((t->label && plan_label(t)) || (t->uuid && plan_uuid(t)))
		goto out;
	/* lost+found and the quota files go in through their own
	 * checkpoints, before the superblock names them */
	if (t->make_lpf || t->quota_want) {
		f2_io_close(io);
		io = NULL;
		if (t->make_lpf && make_lost_found(t))
			goto out;
		if (t->quota_want && make_quota(t))
			goto out;
		err = f2_io_open(t->dev, t->dry_run ? F2_IO_RDONLY : F2_IO_RDWR | F2_IO_EXCL, &io);
		if (err) {
			fprintf(stderr, PROG ": %s: %s\n", t->dev, f2_strerror(err));
			goto out;
		}
	}
	if (!t->dry_run && t->changes &&
	    (err = f2_sb_write_copies(io, &t->sb[1], F2_SB_BACKUP))) {
		fprintf(stderr, PROG ": %s: writing the backup superblock: %s\n", t->dev,
			f2_strerror(err));
		goto out;
	}
	if (reseed(t, io))
		goto out;
	if (!t->dry_run && t->changes &&
	    (err = f2_sb_write_copies(io, &t->sb[0], F2_SB_PRIMARY))) {
		fprintf(stderr, PROG ": %s: writing the primary superblock: %s\n", t->dev,
			f2_strerror(err));
		goto out;
	}
	if (t->out && !t->changes)
		fprintf(t->out, "nothing to change\n");
	ret = 0;
out:
	if (io)
		f2_io_close(io);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct tune t = { 0 };
	int c, ret;

	t.out = stdout;
	while ((c = getopt_long(argc, argv, "l:U:O:C:nhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'l': t.label = optarg; break;
		case 'U': t.uuid = optarg; break;
		case 'O': t.features = optarg; break;
		case 'C': t.encoding = optarg; break;
		case 'n': t.dry_run = 1; break;
		case 'j': t.json = 1; break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf(PROG " %s\n", F2_VERSION_STRING);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, PROG ": %s\n", optind >= argc ? "no device given" : "too many arguments");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!t.label && !t.uuid && !t.features && !t.encoding) {
		fprintf(stderr, PROG ": nothing to do (-l, -U, -O or -C)\n");
		return EXIT_USAGE;
	}
	t.dev = argv[optind];
	if (t.json)
		t.out = NULL;
	ret = run(&t);
	if (t.json)
		report_json(&t, ret);
	return ret;
}
