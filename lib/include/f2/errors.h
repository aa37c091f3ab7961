/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/errors.h - the one error space of libf2core.
 *
 * Every library function that can fail returns 0 (or a count) on success
 * and a negative code on failure: either -errno from the system or one of
 * the F2_E* codes below.  f2_strerror() names any of them.
 */
#ifndef F2_ERRORS_H
#define F2_ERRORS_H

enum f2_error {
	F2_EBASE = 1000,
	F2_ECORRUPT = -1000,	/* a structure failed verification */
	F2_EBADMAGIC = -1001,	/* magic number wrong */
	F2_EBADCRC = -1002,	/* checksum mismatch */
	F2_ERANGE = -1003,	/* on-disk number out of bounds */
	F2_ESHORTIO = -1004,	/* device returned end-of-file inside the volume */
	F2_ETOOSMALL = -1005,	/* device too small for the requested layout */
	F2_ETOOBIG = -1006,	/* device larger than the format allows */
	F2_EBADOPT = -1007,	/* invalid option or combination */
	F2_EUNSUPP = -1008,	/* feature not supported */
	F2_EINJECTED = -1009,	/* failure injected by the fault backend */
	F2_ENOSPC = -1010,	/* no free segment / nid / block */
	F2_EBADLOG = -1011,	/* malformed write log */
	F2_ENOCP = -1012,	/* no valid checkpoint pack */
	F2_EENCRYPTED = -1013,	/* contents are encrypted (no key in userspace) */
	F2_ECOMPRESS = -1014,	/* a compressed cluster does not decompress */
	F2_ESPARSE = -1015,	/* malformed Android sparse image */
};

/* Text for a negative error code (errno or F2_E*); never NULL. */
const char *f2_strerror(int err);

/* Format a reason into why[len] (when why is not NULL and len > 0) and
 * return err: for verifiers that report where a structure failed. */
#include <stddef.h>
int f2_why(char *why, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* F2_ERRORS_H */
