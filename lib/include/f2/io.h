/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/io.h - the single block I/O interface every reader and writer uses.
 *
 * An f2_io is a byte-addressed device with a vtable of operations.  Backends:
 *   unix    block devices and regular files (full read/write loops,
 *           BLKGETSIZE64, BLKDISCARD/BLKZEROOUT, punch-hole on files,
 *           O_EXCL on block devices)
 *   mem     an in-memory image, for unit tests and fuzzing
 *   record  passes everything to a lower f2_io and appends each write and
 *           flush to a log file, so crash tests can replay any prefix
 *   fault   passes everything to a lower f2_io but fails the Nth read or
 *           write (or every one after it) with F2_EINJECTED
 *   sparse  an Android sparse image file, read through its chunk table;
 *           writes collect in an overlay and each flush replaces the file
 *           with a new sparse image (lib/io/sparse.c)
 * Stacking backends takes ownership: closing the top closes the stack.  If
 * stacking fails, lower stays the caller's.
 *
 * All offsets and lengths are in bytes.  Every function returns 0 on
 * success or a negative code from f2/errors.h.  Any request reaching past
 * size is F2_ERANGE (nothing ever grows a file); a device that ends early
 * inside its size is F2_ESHORTIO, never a silent short read.
 */
#ifndef F2_IO_H
#define F2_IO_H

#include <stdint.h>
#include <stddef.h>

struct f2_io;

struct f2_io_ops {
	const char *name;
	int (*read)(struct f2_io *io, uint64_t off, void *buf, size_t len);
	int (*write)(struct f2_io *io, uint64_t off, const void *buf, size_t len);
	int (*flush)(struct f2_io *io);
	/* Discard: contents afterwards are unspecified. */
	int (*discard)(struct f2_io *io, uint64_t off, uint64_t len);
	/* Zero: the range reads back as zeroes afterwards; on files and
	 * devices that support it no data blocks stay allocated. */
	int (*zero)(struct f2_io *io, uint64_t off, uint64_t len);
	/* Release priv only; f2_io_close() frees the handle and lower. */
	void (*close)(struct f2_io *io);
	/* Optional: *next = the first offset at or after off that may hold
	 * data (holes of a sparse file skipped), size when none. */
	int (*data_at)(struct f2_io *io, uint64_t off, uint64_t *next);
};

struct f2_io {
	const struct f2_io_ops *ops;
	uint64_t size;		/* bytes */
	char *name;		/* device path or description, for messages */
	struct f2_io *lower;	/* next backend down, for stacked backends */
	void *priv;		/* backend state */
};

/* Open flags for f2_io_open_unix() and f2_io_open(). */
#define F2_IO_RDONLY	0x0	/* the default: read-only tools never write */
#define F2_IO_RDWR	0x1
#define F2_IO_EXCL	0x2	/* O_EXCL on block devices: fail if in use */
#define F2_IO_DIRECT	0x4	/* O_DIRECT: caller aligns offsets, lengths, buffers */
#define F2_IO_STREAM	0x8	/* large buffered writes start their writeback at
				 * once (a mover streaming blocks: gc, resize) */
#define F2_IO_BEHIND	0x10	/* whole blocks are written behind, with O_DIRECT
				 * through io_uring, and reach the device while
				 * the caller goes on; a flush waits for them all
				 * (a writer of a whole image: populate).  Needs
				 * liburing and a file that takes O_DIRECT, else
				 * ignored; F2_IO_BEHIND=0 in the environment
				 * turns it off */

int f2_io_open_unix(const char *path, int flags, struct f2_io **out);
/* 1 if io is a unix handle writing behind (F2_IO_BEHIND took), else 0. */
int f2_io_unix_behind(const struct f2_io *io);
/* An in-memory device of size bytes (zero filled). */
int f2_io_open_mem(uint64_t size, struct f2_io **out);
/*
 * Record every write/flush/discard/zero of lower into the file logpath
 * (created or truncated).  Calls reach lower first and are logged only if
 * they succeed; if the log cannot be written the call fails and so does
 * every later modifying call.
 */
int f2_io_open_record(struct f2_io *lower, const char *logpath, struct f2_io **out);
/*
 * The same for lower made of n devices of lens[] bytes joined into one
 * address space (their sum is lower->size, else F2_EBADOPT): the log keeps
 * the device sizes, so a replay can join copies of them the same way.
 */
int f2_io_open_record_joined(struct f2_io *lower, const char *logpath, const uint64_t *lens,
			     uint32_t n, struct f2_io **out);
/*
 * Fault injection.  spec is "read:N", "write:N" (fail the Nth call, 1-based,
 * and every call after it: the device has "died") or "read:N:once" /
 * "write:N:once" (fail only that call).  Writes, zeroes and discards all
 * count as writes; after a persistent write fault flushes fail as well.
 * Failed calls never reach lower.  A malformed spec is F2_EBADOPT.
 */
int f2_io_open_fault(struct f2_io *lower, const char *spec, struct f2_io **out);

/*
 * Android sparse images (lib/io/sparse.c says how writing works).
 * f2_io_open_sparse() opens an existing one: F2_ESPARSE if it is malformed,
 * F2_EUNSUPP read-write unless its blocks are 4096 bytes.  size is
 * total_blks * blk_sz.  Writes never touch the file until a flush, which
 * replaces it atomically (rename) with the image as it then stands; close
 * does the same for changes not flushed, but cannot report failure.
 */
int f2_io_open_sparse(const char *path, int flags, struct f2_io **out);
/*
 * A new, all-zero sparse image of size bytes (a multiple of 4096, at most
 * 2^32 - 1 blocks), open read-write.  path is not touched until the first
 * flush (or a close after writes), which creates it or replaces the
 * regular file there (anything else there is F2_EUNSUPP).
 */
int f2_io_new_sparse(const char *path, uint64_t size, struct f2_io **out);
/* 1 if path is a regular file starting with the sparse magic, 0 if not,
 * or -errno. */
int f2_io_is_sparse(const char *path);

/*
 * Overlay: a few blocks (at most 64) held in memory over dev, which stays
 * the caller's (closing the overlay leaves it open).  Reads of held blocks
 * come from memory.  While capturing (f2_io_overlay_capture(io, 1)) writes
 * of whole blocks are held and never reach dev; otherwise writes reach
 * dev and update any held copy.  The rescue (f2/rescue.h) opens a volume
 * whose checkpoint is lost on a pack built this way.
 */
int f2_io_open_overlay(struct f2_io *dev, struct f2_io **out);
void f2_io_overlay_capture(struct f2_io *io, int on);

/*
 * What the tools call: opens path with the unix backend (the sparse one
 * for a regular file that starts with the sparse magic), then stacks a
 * recording backend if F2_IO_RECORD=logfile is set in the environment and a
 * fault backend if F2_IO_FAULT=spec is set, so any tool can be crash-tested.
 * The recorder is only stacked for F2_IO_RDWR opens, so a read-only tool
 * never truncates a log.  Empty variables count as unset.
 */
int f2_io_open(const char *path, int flags, struct f2_io **out);
/* The same for a new sparse image (f2_io_new_sparse), opened read-write. */
int f2_io_create_sparse(const char *path, uint64_t size, struct f2_io **out);
/*
 * One address space over several devices: device i contributes its first
 * lens[i] bytes, in order.  Takes ownership of devs on success.
 */
int f2_io_open_concat(struct f2_io **devs, const uint64_t *lens, uint32_t n,
		      struct f2_io **out);
/*
 * The same for the n devices of a multi-device volume (opened read-write
 * by the caller, devs[i] holding at least lens[i] bytes): joins them into
 * one address space (f2_io_open_concat) and stacks the recorder (one log
 * of the joined space, f2_io_open_record_joined) and the fault backend on
 * top.  The devices are the result's, or closed on failure.
 */
int f2_io_open_joined(struct f2_io **devs, const uint64_t *lens, uint32_t n, struct f2_io **out);

static inline int f2_io_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	return io->ops->read(io, off, buf, len);
}
static inline int f2_io_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	return io->ops->write(io, off, buf, len);
}
static inline int f2_io_flush(struct f2_io *io)
{
	return io->ops->flush(io);
}
static inline int f2_io_discard(struct f2_io *io, uint64_t off, uint64_t len)
{
	return io->ops->discard(io, off, len);
}
static inline int f2_io_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	return io->ops->zero(io, off, len);
}
void f2_io_close(struct f2_io *io);
/* The first offset at or after off that may hold data: a backend that
 * knows holes (unix, on regular files) skips them; others answer off. */
static inline int f2_io_data_at(struct f2_io *io, uint64_t off, uint64_t *next)
{
	*next = off;
	return io->ops->data_at ? io->ops->data_at(io, off, next) : 0;
}

/* Block-sized helpers (4096-byte blocks, blkaddr counted from byte 0). */
int f2_io_read_block(struct f2_io *io, uint64_t blkaddr, void *buf);
int f2_io_write_block(struct f2_io *io, uint64_t blkaddr, const void *buf);

/*
 * Write logs.  A log is a sequence of records; replaying the first n records
 * (and optionally only the first torn_bytes of record n+1 if it is a write)
 * onto a copy of the original image reproduces the device after a crash.
 * The format is described in lib/io/record.c.  A record cut short by the end
 * of the file (the recorder was killed while appending it) ends the log;
 * any other damage is F2_EBADLOG.
 */
enum f2_log_op { F2_LOG_WRITE = 1, F2_LOG_FLUSH = 2, F2_LOG_DISCARD = 3, F2_LOG_ZERO = 4 };
struct f2_log_record {
	enum f2_log_op op;
	uint64_t off;
	uint64_t len;
	const uint8_t *data;	/* F2_LOG_WRITE only; valid until next call */
};
struct f2_log_reader;
int f2_log_open(const char *logpath, struct f2_log_reader **out);
/* Returns 1 with *rec filled, 0 at the end, or a negative error. */
int f2_log_next(struct f2_log_reader *lr, struct f2_log_record *rec);
void f2_log_close(struct f2_log_reader *lr);
/* Device size in bytes recorded in the log header (the joined size). */
uint64_t f2_log_size(const struct f2_log_reader *lr);
/*
 * The devices the log was recorded on: their count (1 for a one-device
 * log), and their sizes into lens[F2_MAX_DEVICES], in the joined order.
 */
uint32_t f2_log_devices(const struct f2_log_reader *lr, uint64_t *lens);
/* Count records in a log (returns count or negative error). */
long f2_log_count(const char *logpath);
/*
 * Apply the first nrec records of logpath to io (all of them if nrec < 0;
 * F2_ERANGE if the log holds fewer); if torn_bytes > 0 also apply that many
 * leading bytes of the next record when it is a write.  Replay streams: on
 * a damaged log the records before the damage are already applied, so
 * validate with f2_log_count() first when that matters.
 */
int f2_log_replay(const char *logpath, struct f2_io *io, long nrec, size_t torn_bytes);
/*
 * The same on a device that holds the first from records already (a replay
 * of them, or a crash test's cursor): applies records from+1..nrec and the
 * torn bytes.  F2_ERANGE if from > nrec (nrec >= 0) or the log is shorter.
 */
int f2_log_replay_from(const char *logpath, struct f2_io *io, long from, long nrec,
		       size_t torn_bytes);

#endif /* F2_IO_H */
