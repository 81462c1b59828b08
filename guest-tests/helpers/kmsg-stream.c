// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-stream <port>: copy the kernel log, one record per read of
 * /dev/kmsg, to <port> (a virtio-serial port whose host side is a file),
 * from the oldest record the ring still holds; /init starts it first.
 *
 * Each record keeps the kernel's "prio,seq,usec,flags;text" header: the
 * host checks the sequence numbers, so a record lost anywhere (the reader
 * fell behind and the ring overwrote it: read() says EPIPE and goes on
 * with the oldest record left) shows as a gap there, not as a quiet log.
 * The copy ends after the record "lptest: log end", which /init writes
 * last, so that it knows when everything before it has reached the host.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define END_MARK ";lptest: log end\n"

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* a record with its dictionary fits in 8 KiB (CONSOLE_EXT_LOG_MAX) */
	static char buf[16384];
	int in, out;

	if (argc != 2) {
		fprintf(stderr, "usage: kmsg-stream <port>\n");
		return 2;
	}
	in = open("/dev/kmsg", O_RDONLY);
	out = open(argv[1], O_WRONLY);
	if (in < 0 || out < 0) {
		perror("kmsg-stream: open");
		return 1;
	}
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));

		if (n < 0) {
			/* EPIPE: records were overwritten; the host sees the gap */
			if (errno == EPIPE || errno == EINTR)
				continue;
			perror("kmsg-stream: read");
			return 1;
		}
		if (write_all(out, buf, (size_t)n)) {
			perror("kmsg-stream: write");
			return 1;
		}
		if (memmem(buf, (size_t)n, END_MARK, strlen(END_MARK)))
			return 0;
	}
}
