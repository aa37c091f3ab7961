/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exitcodes.h - fsck(8) exit status bits, as e2fsck and fsck(8) define
 * them: fsck.f2fs returns their sum; gc.f2fs and defrag.f2fs use the same
 * values for errors and usage; mount.f2fs reads them from its fsck step.
 */
#ifndef SUPPORT_EXITCODES_H
#define SUPPORT_EXITCODES_H

#define FSCK_EXIT_OK		0	/* no errors */
#define FSCK_EXIT_CORRECTED	1	/* errors found and all corrected */
#define FSCK_EXIT_REBOOT	2	/* corrected on a read-only mounted device: reboot */
#define FSCK_EXIT_UNCORRECTED	4	/* errors left uncorrected */
#define FSCK_EXIT_OPERATIONAL	8	/* could not check: I/O, no file system, memory */
#define FSCK_EXIT_USAGE		16	/* bad command line */
#define FSCK_EXIT_CANCELED	32	/* the user answered quit */
#define FSCK_EXIT_LIBRARY	128	/* shared library error (unused) */

#endif
