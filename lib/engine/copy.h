/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine/copy.h - copying blocks to addresses just allocated in a log, in
 * runs: gc and defrag (gc/move.c) moving valid blocks, the roll-forward
 * (recovery/replay.c) copying data from the fsync chain.  Internal to libf2core.
 *
 * Each copy is noted with its source and its new address; consecutive new
 * addresses form a run of up to ENG_COPY_RUN blocks, written with one write
 * when the run ends, its sources read straight into the run's buffer with
 * one read per run of consecutive sources.  The sources must stay intact
 * until eng_copy_flush(): the engine never writes into a segment before a
 * checkpoint frees it, so blocks invalidated meanwhile still hold their
 * data.
 */
#ifndef F2_EW_COPY_H
#define F2_EW_COPY_H
#include <stdint.h>
#include "f2/format.h"

struct f2_engine;

#define ENG_COPY_RUN F2_BLKS_PER_SEG
struct eng_copy {
	uint8_t *buf;		/* wn blocks to write from block wstart */
	uint32_t *src;		/* where each of them is read from */
	uint32_t wstart, wn;
};

/* 0 or -ENOMEM (nothing to free then). */
int eng_copy_init(struct eng_copy *c);
/* Note the copy of block src to naddr; may write the previous run. */
int eng_copy_add(struct f2_engine *w, struct eng_copy *c, uint32_t src, uint32_t naddr);
/* Read and write the pending run (errors through eng_fail()). */
int eng_copy_flush(struct f2_engine *w, struct eng_copy *c);
void eng_copy_free(struct eng_copy *c);

#endif /* F2_EW_COPY_H */
