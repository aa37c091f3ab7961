/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness.h - what the fuzz targets share: the input format (a sparse
 * patch over a pristine image made in memory by our mkfs writer) and the
 * device the targets read through.
 *
 * An input is
 *   byte 0        base image variant (modulo FZ_NVARIANTS), see harness.c
 *   then records  u32le block, u16le offset, u16le length, length bytes
 * Each record overwrites bytes of one 4 KiB block of the base image: the
 * block number is taken modulo the image's block count, the offset modulo
 * 4096, the length is cut at the end of the block and at the end of the
 * input.  So every byte string is a valid input, and a populated image is
 * the diff between it and the base (fztool diff).
 *
 * The base images are 64 MiB (f2fs needs ~52 MiB), generated once per
 * process with fixed uuid, times and checkpoint version, so the same input
 * always means the same image.  Patches are applied to the in-memory
 * device before a run and undone after it, so a run costs only the bytes
 * it patches.
 *
 * The harness keeps per-process state (the base images, the blocks read so
 * far for the mutator): libFuzzer's entry points take no context, so
 * these are the only mutable globals in the tree, and they stay inside
 * tests/fuzz.
 */
#ifndef FZ_HARNESS_H
#define FZ_HARNESS_H
#include <stddef.h>
#include <stdint.h>

struct f2_io;

#define FZ_NVARIANTS	3
#define FZ_IMAGE_BYTES	(64ull << 20)
#define FZ_IMAGE_BLOCKS	(FZ_IMAGE_BYTES / 4096)
#define FZ_REC_HDR	8

struct fz_rec {
	uint32_t blk;		/* already reduced modulo FZ_IMAGE_BLOCKS */
	uint16_t off, len;	/* reduced: off + len <= 4096 */
	const uint8_t *data;
};

/* Parse an input; calls fn for every record in order.  Returns the
 * variant. */
unsigned fz_parse(const uint8_t *in, size_t size,
		  void (*fn)(void *ctx, const struct fz_rec *r), void *ctx);

/* The pristine in-memory device of variant v (made on first use; exits
 * the process if that fails: the harness is broken, not the input). */
struct f2_io *fz_base(unsigned v);

/*
 * Apply in's patches to its variant's device and return a device that
 * reads through it and notes every block read (for the mutator).  Call
 * fz_end() after the run to undo the patches.
 */
struct f2_io *fz_begin(const uint8_t *in, size_t size);
void fz_end(void);

/* Blocks read by runs so far (for the mutator): count and the i-th. */
size_t fz_hot_count(void);
uint32_t fz_hot_block(size_t i);

/*
 * memfd.c: the same image as a file, for code that opens a path.
 * fz_file_begin() patches the variant's memfd and returns its path;
 * fz_file_end() restores the base bytes.  fz_quiet_stdout() sends the
 * tools' stdout to /dev/null (libFuzzer and sanitizers use stderr).
 */
const char *fz_file_begin(const uint8_t *in, size_t size);
void fz_file_end(const uint8_t *in, size_t size);
void fz_quiet_stdout(void);

/*
 * A new memfd holding in's image, for a target whose tool writes it: the
 * base image's data copied (its holes stay holes), then the patches.  No
 * undo: the caller closes it after the run.  Exits the process if memfd
 * I/O fails (the harness is broken, not the input).
 */
int fz_file_new(const uint8_t *in, size_t size);

/* Serialise one record (header + data) at out; returns bytes written. */
size_t fz_put_rec(uint8_t *out, uint32_t blk, uint16_t off, uint16_t len,
		  const uint8_t *data);
#endif
