// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * f2fslabel.c - f2fslabel DEVICE [LABEL]: print the volume label of an
 * F2FS volume, or set it.  As e2label: the label alone on stdout, nothing
 * on success when setting, a message naming the device on failure.
 *
 * Setting rewrites each superblock copy from itself (the copies are not
 * made equal: that is fsck's repair), the primary first, each complete
 * and flushed before the next (f2_sb_write_copies), the checksum redone
 * when sb_checksum is on.  A power cut leaves the old label in both, the
 * new one in the primary only, or the new one in both; the kernel reads
 * the primary, and fsck.f2fs -p brings the backup in line.  Both copies
 * must be valid to set: a damaged one is fsck's to repair first.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/format.h"
#include "f2/io.h"
#include "f2/sb.h"
#include "support/mounted.h"
#include "sbcopy.h"

#ifndef F2_VERSION_STRING
#define F2_VERSION_STRING "unknown"
#endif

#define PROG "f2fslabel"

static void usage(FILE *out)
{
	fprintf(out,
"Usage: " PROG " [options] device [label]\n"
"Print the volume label of the F2FS volume on device, or set it to label\n"
"(at most 512 UTF-16 code units; an empty label clears it).\n"
"  -V, --version  print the version\n"
"  -h, --help     this help\n"
"Exit status: 0 done, 1 error (no F2FS volume, damaged superblock, mounted\n"
"device, label too long or not UTF-8), 16 bad command line.\n");
}

static int print_label(const char *dev)
{
	struct f2_super sb;
	struct f2_io *io;
	char why[2][256], out[4 * F2_MAX_VOLUME_NAME + 8];
	int err, i;

	err = f2_io_open(dev, F2_IO_RDONLY, &io);
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", dev, f2_strerror(err));
		return 1;
	}
	for (i = 0; i < 2; i++)
		if (!sb_read_copy(io, i, &sb, why[i], sizeof(why[i])))
			break;
	f2_io_close(io);
	if (i == 2) {
		fprintf(stderr, PROG ": %s: no valid F2FS superblock (primary: %s; backup: %s)\n",
			dev, why[0], why[1]);
		return 1;
	}
	/* (copied out: the superblock struct is packed) */
	le16 name[F2_MAX_VOLUME_NAME];

	memcpy(name, sb.volume_name, sizeof(name));
	f2_utf16le_to_utf8(name, F2_MAX_VOLUME_NAME, out, sizeof(out));
	printf("%s\n", out);
	return 0;
}

static int set_label(const char *dev, const char *label)
{
	le16 name[F2_MAX_VOLUME_NAME];
	struct f2_super sb[2];
	struct f2_io *io;
	char where[4096];
	int err, ret = 1;

	memset(name, 0, sizeof(name));
	if (f2_utf8_to_utf16le(label, name, F2_MAX_VOLUME_NAME)) {
		fprintf(stderr, PROG ": label is not UTF-8 or longer than %d UTF-16 code units\n",
			F2_MAX_VOLUME_NAME);
		return 1;
	}
	if (sup_mounted(dev, where, sizeof(where), NULL)) {
		fprintf(stderr, PROG ": %s is mounted on %s; set the label when it is unmounted\n",
			dev, where);
		return 1;
	}
	err = f2_io_open(dev, F2_IO_RDWR | F2_IO_EXCL, &io);
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", dev, f2_strerror(err));
		return 1;
	}
	if (sb_read_both(io, PROG, dev, sb))
		goto out;
	for (int i = 0; i < 2; i++) {
		memcpy(sb[i].volume_name, name, sizeof(name));
		err = f2_sb_write_copies(io, &sb[i], i ? F2_SB_BACKUP : F2_SB_PRIMARY);
		if (err) {
			fprintf(stderr, PROG ": %s: writing the %s superblock: %s\n", dev,
				sb_copy_name(i), f2_strerror(err));
			goto out;
		}
	}
	ret = 0;
out:
	f2_io_close(io);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf(PROG " %s\n", F2_VERSION_STRING);
			return 0;
		default:
			usage(stderr);
			return 16;
		}
	}
	if (optind >= argc || argc - optind > 2) {
		fprintf(stderr, PROG ": %s\n", optind >= argc ? "no device given" : "too many arguments");
		usage(stderr);
		return 16;
	}
	if (argc - optind == 1)
		return print_label(argv[optind]);
	return set_label(argv[optind], argv[optind + 1]);
}
