// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fztool - convert between images and fuzz inputs (format in harness.h).
 *
 *   fztool base V IMAGE         write base image variant V (sparse file)
 *   fztool diff V IMAGE INPUT   the input that turns base V into IMAGE
 *   fztool apply INPUT IMAGE    the image an input stands for
 *
 * Seeds are made by populating a base image with other tools and diffing
 * it (tests/fuzz/mkcorpus.sh); a crashing input is turned back into an
 * image with apply to look at it with dump.f2fs or the reference fsck.
 * Exit 0, 1 on failure, 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "f2/errors.h"
#include "f2/format.h"
#include "f2/io.h"
#include "harness.h"

static int usage(void)
{
	fprintf(stderr, "usage: fztool base V IMAGE | diff V IMAGE INPUT | apply INPUT IMAGE\n");
	return 2;
}

static int write_image(struct f2_io *src, const char *path)
{
	static uint8_t blk[F2_BLKSIZE], zero[F2_BLKSIZE];
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return 1;
	}
	for (uint64_t b = 0; b < FZ_IMAGE_BLOCKS; b++) {
		if (f2_io_read_block(src, b, blk))
			return 1;
		if (!memcmp(blk, zero, sizeof(blk)))
			continue;
		if (fseeko(f, (off_t)(b * F2_BLKSIZE), SEEK_SET) ||
		    fwrite(blk, sizeof(blk), 1, f) != 1) {
			perror(path);
			fclose(f);
			return 1;
		}
	}
	if (ftruncate(fileno(f), (off_t)FZ_IMAGE_BYTES) || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "r");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f) {
		perror(path);
		return NULL;
	}
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				exit(1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*size = n;
	return buf;
}

static int cmd_diff(unsigned v, const char *image, const char *out_path)
{
	static uint8_t a[F2_BLKSIZE], b[F2_BLKSIZE], rec[FZ_REC_HDR + F2_BLKSIZE];
	struct f2_io *base = fz_base(v), *img;
	FILE *out;
	uint8_t vb = (uint8_t)v;
	int err = f2_io_open_unix(image, F2_IO_RDONLY, &img);

	if (err) {
		fprintf(stderr, "fztool: %s: %s\n", image, f2_strerror(err));
		return 1;
	}
	if (img->size != FZ_IMAGE_BYTES) {
		fprintf(stderr, "fztool: %s is not %llu bytes\n", image, FZ_IMAGE_BYTES);
		return 1;
	}
	out = fopen(out_path, "w");
	if (!out || fwrite(&vb, 1, 1, out) != 1) {
		perror(out_path);
		return 1;
	}
	for (uint64_t blk = 0; blk < FZ_IMAGE_BLOCKS; blk++) {
		unsigned i = 0;

		if (f2_io_read_block(base, blk, a) || f2_io_read_block(img, blk, b))
			return 1;
		while (i < F2_BLKSIZE) {
			unsigned start, end, gap;

			if (a[i] == b[i]) {
				i++;
				continue;
			}
			/* a run of differences; equal stretches shorter than a
			 * record header are cheaper to carry along */
			start = end = i;
			while (end < F2_BLKSIZE) {
				if (a[end] != b[end]) {
					end++;
					continue;
				}
				for (gap = end; gap < F2_BLKSIZE && a[gap] == b[gap] &&
				     gap - end < FZ_REC_HDR; gap++)
					;
				if (gap < F2_BLKSIZE && gap - end < FZ_REC_HDR)
					end = gap;
				else
					break;
			}
			if (fwrite(rec, fz_put_rec(rec, (uint32_t)blk, (uint16_t)start,
						   (uint16_t)(end - start), b + start), 1, out) != 1) {
				perror(out_path);
				return 1;
			}
			i = end;
		}
	}
	f2_io_close(img);
	return fclose(out) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "base"))
		return write_image(fz_base((unsigned)atoi(argv[2])), argv[3]);
	if (argc == 5 && !strcmp(argv[1], "diff"))
		return cmd_diff((unsigned)atoi(argv[2]) % FZ_NVARIANTS, argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "apply")) {
		size_t size;
		uint8_t *in = read_all(argv[2], &size);
		int ret;

		if (!in)
			return 1;
		ret = write_image(fz_begin(in, size), argv[3]);
		fz_end();
		free(in);
		return ret;
	}
	return usage();
}
