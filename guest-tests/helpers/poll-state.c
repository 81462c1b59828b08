// SPDX-License-Identifier: GPL-2.0
/*
 * poll-state FILE TIMEOUT_MS [READY]: what a daemon does to learn that a
 * pattern engine's state changed.  Reads FILE (sysfs needs a read before
 * poll()), creates READY if given (a test then changes the state: any
 * change after the read wakes the poll()), waits in poll() for POLLPRI,
 * reads it again and prints "<old> -> <new> after <ms> ms".  Exit status 0
 * when woken, 2 on a timeout, 1 on an error.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int read_value(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	n = read(fd, buf, size - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	char before[64], after[64];
	struct pollfd pfd;
	long long t0;
	int ret;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: poll-state FILE TIMEOUT_MS [READY]\n");
		return 1;
	}
	pfd.fd = open(argv[1], O_RDONLY);
	if (pfd.fd < 0 || read_value(pfd.fd, before, sizeof(before))) {
		perror(argv[1]);
		return 1;
	}
	if (argc == 4) {
		int fd = open(argv[3], O_WRONLY | O_CREAT, 0644);

		if (fd < 0) {
			perror(argv[3]);
			return 1;
		}
		close(fd);
	}
	pfd.events = POLLPRI | POLLERR;
	t0 = now_ms();
	ret = poll(&pfd, 1, atoi(argv[2]));
	if (ret < 0) {
		perror("poll");
		return 1;
	}
	if (read_value(pfd.fd, after, sizeof(after))) {
		perror(argv[1]);
		return 1;
	}
	printf("%s -> %s after %lld ms%s\n", before, after, now_ms() - t0,
	       ret ? "" : " (timed out)");
	return ret ? 0 : 2;
}
