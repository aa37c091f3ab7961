// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsyncw.c - guest helper for tests/recovery: fsync files and directories,
 * or create many small files each fsync-ed, so that the f2fs driver
 * leaves a roll-forward chain without a checkpoint.
 *
 *   fsyncw PATH...      fsync each path (files or directories)
 *   fsyncw -m DIR N     create DIR/f1..fN (a line naming the file, repeated
 *                       i % 50 + 1 times), fsync-ing each after writing
 *   fsyncw -p PATH OFF LEN
 *                       punch a hole of LEN bytes at OFF (size kept), fsync
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sync_path(const char *p)
{
	int fd = open(p, O_RDONLY);

	if (fd < 0 || fsync(fd) != 0) {
		perror(p);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static int many(const char *dir, long n)
{
	char path[4096], line[64];

	for (long i = 1; i <= n; i++) {
		int fd, len;

		snprintf(path, sizeof(path), "%s/f%ld", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			perror(path);
			return 1;
		}
		len = snprintf(line, sizeof(line), "file %ld of %ld\n", i, n);
		for (long k = 0; k <= i % 50; k++)
			if (write(fd, line, (size_t)len) != len) {
				perror(path);
				return 1;
			}
		if (fsync(fd) != 0) {
			perror(path);
			return 1;
		}
		close(fd);
	}
	return 0;
}

static int punch(const char *p, long long off, long long len)
{
	int fd = open(p, O_RDWR);

	if (fd < 0 || fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len) ||
	    fsync(fd)) {
		perror(p);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc == 5 && !strcmp(argv[1], "-p"))
		return punch(argv[2], atoll(argv[3]), atoll(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "-m"))
		return many(argv[2], atol(argv[3]));
	for (int i = 1; i < argc; i++)
		rc |= sync_path(argv[i]);
	return rc;
}
