// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gcioctl.c - guest helper of bench/gc-aged.sh: the kernel's own
 * foreground cleaning, N calls of F2FS_IOC_GARBAGE_COLLECT (sync = 1)
 * on the f2fs mounted at DIR, one line each: "gc I 0" or "gc I -ERRNO"
 * (EAGAIN: no section was freed).
 *   gcioctl DIR N
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define F2FS_IOC_GARBAGE_COLLECT _IOW(0xf5, 6, uint32_t)

int main(int argc, char **argv)
{
	uint32_t sync = 1;
	int fd, n;

	if (argc != 3) {
		fprintf(stderr, "usage: gcioctl DIR N\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	n = atoi(argv[2]);
	for (int i = 0; i < n; i++) {
		int r = ioctl(fd, F2FS_IOC_GARBAGE_COLLECT, &sync);

		printf("gc %d %d\n", i, r < 0 ? -errno : 0);
	}
	close(fd);
	return 0;
}
