/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * batchread.h - populate reads the regular files of a directory in
 * batches, one ahead of the copy: a run of them opened, then read with one
 * io_uring submission,
 * so the block layer merges neighbouring files into few large requests
 * (on a virtual disk each request costs a notification and an interrupt:
 * most of a file-by-file read's time).  Only host files are read here;
 * the volume is written by the engine as before, in the same order.
 * Without liburing, or where io_uring is refused, nothing is batched and
 * populate reads each file itself.
 */
#ifndef POP_BATCHREAD_H
#define POP_BATCHREAD_H
#include <dirent.h>
#include <stddef.h>
#include <sys/stat.h>

#define POP_BATCH_MAX	64		/* files in one batch */

struct pop_batch;

/* populate keeps each name with its d_type in the byte before it */
static inline int pop_name_is_reg(const char *name)
{
	return (unsigned char)name[-1] == DT_REG;
}

/* NULL when batches are not available (populate then reads file by file). */
struct pop_batch *pop_batch_new(void);
void pop_batch_free(struct pop_batch *b);

/*
 * Make the run of regular files at names[i..n) of directory dir current
 * (names as populate keeps them: each with its d_type in the byte before
 * it): read in one batch, or already read ahead, then start reading the
 * run after it.  Returns how many names from i the current batch covers
 * (at least 1 when i < n); its entries are numbered from 0.  Names left
 * out (no room, not regular, not whole, with holes) are the caller's.
 */
size_t pop_batch_at(struct pop_batch *b, const char *dir, char *const *names, size_t i, size_t n);

/*
 * Batch entry i, when the batch opened it (a regular file): its fstat in
 * *st and its open descriptor in *fd (the batch's: valid until the next
 * pop_batch_at, never to be closed by the caller), so the caller needs no
 * lstat or path lookup of its own.  1, or 0 when not open.
 */
int pop_batch_file(const struct pop_batch *b, size_t i, struct stat *st, int *fd);

/*
 * The contents of batch entry i when it holds the whole file st
 * describes (same device, inode, size and mtime): 1 with *buf and *len
 * (valid until the next load), else 0.
 */
int pop_batch_get(const struct pop_batch *b, size_t i, const struct stat *st,
		  const void **buf, size_t *len);
#endif
