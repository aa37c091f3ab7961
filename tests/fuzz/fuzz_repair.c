// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_repair.c - fuzz target "repair": fsck.f2fs's repair, judged by
 * fsck.f2fs itself.  fsck's sources are compiled unchanged with main
 * renamed fsck_main (build.sh, as for fuzz_fsck); each input's image gets
 * its own writable memfd (fz_file_new) and, in process:
 *   1. fsck.f2fs -f -y -P IMAGE     the repair
 *   2. fsck.f2fs -f -n -P IMAGE     the check, if the repair said it
 *                                    succeeded (exit 0 or 1)
 *   3. fsck.f2fs -f -y -P IMAGE     a second repair, if the first ran to
 *                                    its verdict (exit 0, 1 or 4)
 * Findings abort() with a message on stderr, so libFuzzer keeps the input:
 *   - the check exits non-zero after a repair that exited 0 or 1: the
 *     repair claimed a clean file system it did not leave;
 *   - the second repair changes a byte of the image: the first repair's
 *     result was not stable (compared over the whole image, nothing
 *     excluded: fsck writes no time, mount count or version unless it
 *     repairs something).
 * Exit 4 (errors left that this version cannot repair) is an honest
 * verdict, so the check is not held against it; but such a run writes
 * nothing, so a second run must not either.  Exit 8 and up (the volume
 * could not be opened or a phase failed) end the judging: a later run
 * may legitimately get further.  Crashes, sanitizer reports and hangs
 * are libFuzzer's as usual.  -P: no progress on a terminal stderr.
 *
 * fsck calls no exit() and keeps its state in one context per run, so
 * runs do not leak into each other; getopt's optind is reset per run.
 * stdout goes to /dev/null; to see what fsck said about a finding,
 * tests/.cache/fuzz/fztool apply the input to an image and run the real
 * fsck.f2fs on it the same way.
 */
#include <getopt.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "f2/format.h"
#include "harness.h"
#include "support/exitcodes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int fsck_main(int argc, char **argv);

/* The image's non-zero blocks, in block order (holes and zero blocks read
 * alike, so they are left out). */
struct snap {
	size_t n, cap;
	uint32_t *blk;
	uint8_t *data;
};

static void snap_add(struct snap *s, uint32_t blk, const uint8_t *b)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;

		s->blk = realloc(s->blk, cap * sizeof(*s->blk));
		s->data = realloc(s->data, cap * F2_BLKSIZE);
		if (!s->blk || !s->data)
			abort();
		s->cap = cap;
	}
	s->blk[s->n] = blk;
	memcpy(s->data + s->n++ * F2_BLKSIZE, b, F2_BLKSIZE);
}

static void snap_take(int fd, struct snap *s)
{
	static const uint8_t zero[F2_BLKSIZE];
	uint8_t b[F2_BLKSIZE];
	off_t pos = 0, end;

	s->n = 0;
	while ((pos = lseek(fd, pos, SEEK_DATA)) >= 0) {
		end = lseek(fd, pos, SEEK_HOLE);
		if (end < 0)
			abort();
		for (pos -= pos % F2_BLKSIZE; pos < end; pos += F2_BLKSIZE) {
			if (pread(fd, b, F2_BLKSIZE, pos) != F2_BLKSIZE)
				abort();
			if (memcmp(b, zero, F2_BLKSIZE))
				snap_add(s, (uint32_t)(pos / F2_BLKSIZE), b);
		}
	}
}

/* The first block where a and b differ, or -1. */
static int64_t snap_diff(const struct snap *a, const struct snap *b)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++) {
		if (a->blk[i] != b->blk[i])
			return a->blk[i] < b->blk[i] ? a->blk[i] : b->blk[i];
		if (memcmp(a->data + i * F2_BLKSIZE, b->data + i * F2_BLKSIZE, F2_BLKSIZE))
			return a->blk[i];
	}
	if (i < a->n)
		return a->blk[i];
	return i < b->n ? (int64_t)b->blk[i] : -1;
}

static int fsck(const char *path, const char *mode)
{
	char *argv[] = { "fsck.f2fs", (char *)mode, "-f", "-P", (char *)path, NULL };

	optind = 0;	/* glibc: start over */
	return fsck_main(5, argv);
}

static void finding(const char *what, int repair, int check, int again)
{
	fprintf(stderr, "fuzz_repair: FINDING: %s (exit status: repair %d, check %d, "
		"second repair %d; -1: not run)\n", what, repair, check, again);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snap before = { 0 }, after = { 0 };
	int fd, repair, check = -1, again = -1;
	int64_t blk;
	char path[32];

	fz_quiet_stdout();
	fd = fz_file_new(data, size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	repair = fsck(path, "-y");
	if (repair == FSCK_EXIT_OK || repair == FSCK_EXIT_CORRECTED) {
		check = fsck(path, "-n");
		if (check != FSCK_EXIT_OK)
			finding("the repair exited 0 or 1 but the check still finds problems",
				repair, check, again);
	}
	if (repair == FSCK_EXIT_OK || repair == FSCK_EXIT_CORRECTED ||
	    repair == FSCK_EXIT_UNCORRECTED) {
		snap_take(fd, &before);
		again = fsck(path, "-y");
		snap_take(fd, &after);
		blk = snap_diff(&before, &after);
		if (blk >= 0) {
			fprintf(stderr, "fuzz_repair: block %lld differs\n", (long long)blk);
			finding("a second repair changed the image again", repair, check, again);
		}
	}
	free(before.blk);
	free(before.data);
	free(after.blk);
	free(after.data);
	close(fd);
	return 0;
}
