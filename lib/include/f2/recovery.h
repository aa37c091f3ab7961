/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/recovery.h - offline roll-forward of fsync-ed files.
 *
 * After fsync the driver writes a file's data and its direct nodes (the
 * last one marked "fsync", an inode marked "dentry" when its name is new)
 * to the warm node log past the checkpoint's current position, each node
 * footer carrying the checkpoint version and a link (next_blkaddr) to the
 * next block of the log.  Only the driver's next mount replays that chain.
 *
 * f2_rf_scan() walks the chain read-only from the warm node current
 * segment's next block, accepting nodes whose footer version matches the
 * checkpoint (with its crc in the top half when the checkpoint says so),
 * bounded by the free blocks and by a visited map (a loop ends the walk).
 * f2_rf_apply() then rebuilds each fsync-ed file through the write engine
 * as the 6.1 driver's roll-forward does: the name from its last inode node
 * with the dentry mark, under its own inode number for a new file (every
 * such number is held before anything is replayed), inode attributes,
 * size, inline data, every data block that differs from the committed tree
 * (copied to consecutive new blocks of its data log, a write per run;
 * NULL or NEW addresses become holes), the inline xattr area of the
 * newest inode node and the newest xattr node, and commits one
 * checkpoint.  Before its first write every segment holding a
 * chain node or a block the chain points to is kept out of allocation and
 * every log moves to a fresh segment, so a crash at any write leaves the
 * previous checkpoint and an intact chain (recoverable again) or the
 * recovered state.
 *
 * The driver never logs directories, other non-regular files, compressed
 * files, files with several links or files whose parent directory is not
 * checkpointed (their fsync writes a checkpoint instead); a directory,
 * non-regular or compressed inode found in a chain anyway is skipped.
 * Encrypted files are not supported: they are marked unsupported and
 * nothing is written while the chain holds one.
 */
#ifndef F2_RECOVERY_H
#define F2_RECOVERY_H
#include <stdint.h>
#include <stddef.h>
#include "f2/fs.h"

struct f2_engine;

/* One node block of the chain. */
struct f2_rf_blk {
	uint32_t addr, nid, ino, ofs;	/* ofs: node offset from the footer */
	uint8_t marks;			/* F2_FOOTER_FSYNC | F2_FOOTER_DENT */
	uint32_t next;			/* footer next_blkaddr */
};

/* One fsync-ed inode. */
struct f2_rf_ino {
	uint32_t ino;
	size_t last_fsync;		/* chain index of its last fsync node */
	long last_dent;			/* chain index of its last dentry inode, -1 */
	int is_new;			/* no NAT entry in the checkpoint */
	int skip;			/* not recovered (reason in why) */
	int unsupported;		/* skipped, but the driver would recover it */
	uint32_t nodes;			/* chain nodes up to last_fsync */
	uint64_t size;			/* i_size of its newest inode node (or committed) */
	uint16_t mode;
	uint32_t pino;
	uint8_t name[F2_NAME_LEN + 1];	/* from the newest inode node */
	uint32_t namelen;
	uint32_t new_ino;		/* after apply: the inode it went to */
	uint32_t copied;		/* after apply: data blocks copied */
	char why[96];
};

struct f2_rf {
	struct f2_fs *fs;
	struct f2_rf_blk *chain;
	size_t nchain;
	struct f2_rf_ino *inos;
	size_t ninos;
	uint32_t start;			/* first address looked at */
	char stop[F2_WHY_LEN];		/* why the walk ended */
};

/* Walk the chain of fs's checkpoint (read-only).  *out is freed by
 * f2_rf_free(); an empty chain is not an error. */
int f2_rf_scan(struct f2_fs *fs, struct f2_rf **out);
void f2_rf_free(struct f2_rf *rf);
/* Recover every fsync-ed inode of rf through w (opened on rf->fs) and
 * commit a checkpoint; nothing is written when no inode is recoverable.
 * Returns the number of inodes recovered or < 0 (f2_engine_why()). */
int f2_rf_apply(struct f2_rf *rf, struct f2_engine *w);
/*
 * The whole roll-forward on a writable I/O stack: open, scan, apply (when
 * apply is set and something is recoverable), close.  *out (may be NULL)
 * keeps the scan with the apply results (its fs is then NULL); why gets
 * the reason of a failure.  Returns the inodes recovered or < 0.
 */
int f2_rf_run(struct f2_io *rw, int apply, struct f2_rf **out, char *why, size_t whylen);

#endif /* F2_RECOVERY_H */
