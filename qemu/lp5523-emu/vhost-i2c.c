// SPDX-License-Identifier: GPL-2.0
/*
 * virtio-i2c device over vhost-user, built on QEMU's libvhost-user.
 *
 * A request is one descriptor chain: an 8-byte out header (le16 addr =
 * 7-bit address << 1, le16 padding, le32 flags), the data (out for a
 * write, in for a read, absent for a zero-length request) and a 1-byte
 * in status.  The transfer goes to the device's ops->xfer(); replies are
 * pushed in order and the guest is notified once per batch.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <linux/virtio_i2c.h>

#include "libvhost-user.h"

#include "emu.h"
#include "vhost-i2c.h"

#define VI2C_MAX_WATCHES	16
#define VI2C_MAX_PENDING	1024	/* queue size */

struct vi2c_watch {
	struct ev_handler h;		/* first: epoll data.ptr */
	struct vi2c *v;
	int fd;
	vu_watch_cb cb;
	void *data;
};

struct vi2c_pending {
	VuVirtqElement *elem;
	unsigned int len;
	uint64_t due_ns;
};

struct vi2c {
	VuDev vu;			/* first: libvhost-user's handle */
	struct ev_handler sock_h;
	struct ev_handler delay_h;
	int sock, epfd, delay_fd;
	const struct lp5523_i2c_ops *ops;
	void *dev;
	struct vi2c_hooks hooks;
	struct vi2c_watch watches[VI2C_MAX_WATCHES];
	unsigned int delay_ms;
	struct vi2c_pending pending[VI2C_MAX_PENDING];
	unsigned int pend_head, pend_count;
	unsigned int msgs;		/* vhost-user messages seen */
	bool dead;
};

uint64_t vi2c_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static struct vi2c *to_vi2c(VuDev *dev)
{
	return (struct vi2c *)dev;
}

static void vi2c_gone(struct vi2c *v)
{
	if (v->dead)
		return;
	v->dead = true;
	if (v->hooks.gone)
		v->hooks.gone(v->hooks.ctx);
}

static void vi2c_panic(VuDev *dev, const char *err)
{
	fprintf(stderr, "lp5523-emu: vhost-user: %s\n", err);
	vi2c_gone(to_vi2c(dev));
}

/* ------------------------------------------------------------------ */
/* Watches: libvhost-user asks for its kick fds to be polled           */

static void vi2c_watch_event(struct ev_handler *h, uint32_t events)
{
	struct vi2c_watch *w = (struct vi2c_watch *)h;
	int cond = 0;

	if (w->fd < 0)		/* removed while its event was pending */
		return;
	if (events & EPOLLIN)
		cond |= VU_WATCH_IN;
	if (events & EPOLLOUT)
		cond |= VU_WATCH_OUT;
	if (events & EPOLLERR)
		cond |= VU_WATCH_ERR;
	if (events & EPOLLHUP)
		cond |= VU_WATCH_HUP;
	w->cb(&w->v->vu, cond, w->data);
}

static struct vi2c_watch *find_watch(struct vi2c *v, int fd)
{
	unsigned int i;

	for (i = 0; i < VI2C_MAX_WATCHES; i++)
		if (v->watches[i].fd == fd)
			return &v->watches[i];
	return NULL;
}

static void vi2c_set_watch(VuDev *dev, int fd, int condition,
			   vu_watch_cb cb, void *data)
{
	struct vi2c *v = to_vi2c(dev);
	struct vi2c_watch *w = find_watch(v, fd);
	struct epoll_event ev = { 0 };
	int op = EPOLL_CTL_MOD;

	if (!w) {
		w = find_watch(v, -1);
		op = EPOLL_CTL_ADD;
	}
	if (!w) {
		vi2c_panic(dev, "too many watches");
		return;
	}
	w->h.fn = vi2c_watch_event;
	w->v = v;
	w->fd = fd;
	w->cb = cb;
	w->data = data;
	if (condition & VU_WATCH_IN)
		ev.events |= EPOLLIN;
	if (condition & VU_WATCH_OUT)
		ev.events |= EPOLLOUT;
	ev.data.ptr = &w->h;
	if (epoll_ctl(v->epfd, op, fd, &ev) < 0) {
		fprintf(stderr, "lp5523-emu: epoll_ctl: %s\n", strerror(errno));
		w->fd = -1;
	}
}

static void vi2c_remove_watch(VuDev *dev, int fd)
{
	struct vi2c *v = to_vi2c(dev);
	struct vi2c_watch *w = find_watch(v, fd);

	if (!w)
		return;
	epoll_ctl(v->epfd, EPOLL_CTL_DEL, fd, NULL);
	w->fd = -1;
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */

static size_t iov_size(const struct iovec *iov, unsigned int n)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		len += iov[i].iov_len;
	return len;
}

/* Copy @len bytes at @off of the iovec into/out of @buf */
static void iov_copy(const struct iovec *iov, unsigned int n, size_t off,
		     uint8_t *buf, size_t len, bool to_iov)
{
	unsigned int i;
	size_t chunk;

	for (i = 0; i < n && len; i++) {
		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		chunk = iov[i].iov_len - off;
		if (chunk > len)
			chunk = len;
		if (to_iov)
			memcpy((uint8_t *)iov[i].iov_base + off, buf, chunk);
		else
			memcpy(buf, (uint8_t *)iov[i].iov_base + off, chunk);
		buf += chunk;
		len -= chunk;
		off = 0;
	}
}

/*
 * Handle one chain; returns the number of bytes written to its in part.
 * *fail_next says the previous request failed with FAIL_NEXT set.
 */
static unsigned int vi2c_request(struct vi2c *v, VuVirtqElement *elem,
				 bool *fail_next)
{
	size_t out_len = iov_size(elem->out_sg, elem->out_num);
	size_t in_len = iov_size(elem->in_sg, elem->in_num);
	struct virtio_i2c_out_hdr hdr;
	struct lp5523_msg msg = { 0 };
	uint8_t status = VIRTIO_I2C_MSG_ERR;
	uint8_t *buf = NULL;
	uint32_t flags;
	bool rd;
	int ret;

	if (out_len < sizeof(hdr) || in_len < 1) {
		fprintf(stderr,
			"lp5523-emu: request %u: out %zu bytes (want >= %zu), in %zu bytes (want >= 1)\n",
			elem->index, out_len, sizeof(hdr), in_len);
		*fail_next = false;
		return 0;
	}
	iov_copy(elem->out_sg, elem->out_num, 0, (uint8_t *)&hdr,
		 sizeof(hdr), false);
	flags = le32toh(hdr.flags);
	rd = flags & VIRTIO_I2C_FLAGS_M_RD;
	msg.addr = le16toh(hdr.addr) >> 1;
	msg.flags = (rd ? LP5523_MSG_RD : 0) |
		    (flags & VIRTIO_I2C_FLAGS_FAIL_NEXT ? LP5523_MSG_MORE : 0);
	msg.len = rd ? in_len - 1 : out_len - sizeof(hdr);
	if (rd && out_len != sizeof(hdr)) {
		fprintf(stderr,
			"lp5523-emu: request %u: read with %zu out data bytes\n",
			elem->index, out_len - sizeof(hdr));
		goto done;
	}
	if (!rd && in_len != 1) {
		fprintf(stderr,
			"lp5523-emu: request %u: write with %zu in data bytes\n",
			elem->index, in_len - 1);
		goto done;
	}
	if (*fail_next)
		goto done;
	buf = calloc(1, msg.len ? msg.len : 1);
	if (!buf)
		goto done;
	msg.buf = buf;
	if (!rd)
		iov_copy(elem->out_sg, elem->out_num, sizeof(hdr), buf, msg.len,
			 false);
	ret = v->ops->xfer(v->dev, &msg);
	if (!ret) {
		status = VIRTIO_I2C_MSG_OK;
		if (rd)
			iov_copy(elem->in_sg, elem->in_num, 0, buf, msg.len,
				 true);
	}
done:
	free(buf);
	*fail_next = status != VIRTIO_I2C_MSG_OK &&
		     (flags & VIRTIO_I2C_FLAGS_FAIL_NEXT);
	iov_copy(elem->in_sg, elem->in_num, in_len - 1, &status, 1, true);
	return in_len;
}

static void arm_delay_timer(struct vi2c *v)
{
	struct itimerspec its = { 0 };
	uint64_t due;

	if (v->pend_count) {
		due = v->pending[v->pend_head].due_ns;
		its.it_value.tv_sec = due / 1000000000ull;
		its.it_value.tv_nsec = due % 1000000000ull;
		if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
			its.it_value.tv_nsec = 1;
	}
	timerfd_settime(v->delay_fd, TFD_TIMER_ABSTIME, &its, NULL);
}

/*
 * Replies go back to the guest in batches: each is written to the used ring
 * (vi2c_reply()), and the batch is published with one used-index update and
 * one notification (vi2c_publish()).  Linux's i2c-virtio stops waiting at a
 * transfer's first failed request and frees the requests behind it, which
 * the device may still hold (FAIL_NEXT); if the guest could see the failed
 * reply alone, its interrupt handler, still walking the used ring on
 * another CPU, would wake the transfer, and the next reply would complete
 * freed memory (KASAN: slab-use-after-free in complete(), on the 2-CPU
 * debug kernel).  The requests of one transfer come with one kick and are
 * answered in one batch, so the guest sees all of their replies or none.
 * That still leaves the handler completing them one after the other
 * while the woken transfer frees them, so no request but a transfer's
 * last is NACKed either (fault_nack() in lp5523.c).
 */
static void vi2c_reply(VuDev *dev, VuVirtq *vq, VuVirtqElement *elem,
		       unsigned int len, unsigned int *n)
{
	vu_queue_fill(dev, vq, elem, len, (*n)++);
	free(elem);
}

static void vi2c_publish(VuDev *dev, VuVirtq *vq, unsigned int n)
{
	if (!n)
		return;
	vu_queue_flush(dev, vq, n);
	vu_queue_notify(dev, vq);
}

/* Give back the delayed replies that are due, in one batch. */
static void vi2c_flush_pending(struct vi2c *v)
{
	VuVirtq *vq = vu_get_queue(&v->vu, 0);
	uint64_t now = vi2c_now_ns();
	unsigned int n = 0;

	while (v->pend_count) {
		struct vi2c_pending *p = &v->pending[v->pend_head];

		if (p->due_ns > now)
			break;
		vi2c_reply(&v->vu, vq, p->elem, p->len, &n);
		v->pend_head = (v->pend_head + 1) % VI2C_MAX_PENDING;
		v->pend_count--;
	}
	vi2c_publish(&v->vu, vq, n);
	arm_delay_timer(v);
}

static void vi2c_delay_event(struct ev_handler *h, uint32_t events)
{
	struct vi2c *v = (struct vi2c *)((char *)h -
					 offsetof(struct vi2c, delay_h));
	uint64_t ticks;

	(void)events;
	if (read(v->delay_fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
	vi2c_flush_pending(v);
}

static void vi2c_queue_handler(VuDev *dev, int qidx)
{
	struct vi2c *v = to_vi2c(dev);
	VuVirtq *vq = vu_get_queue(dev, qidx);
	VuVirtqElement *elem;
	bool fail_next = false;
	unsigned int len, n = 0;
	uint64_t due = 0;

	if (v->hooks.begin)
		v->hooks.begin(v->hooks.ctx);
	if (v->delay_ms)
		due = vi2c_now_ns() + v->delay_ms * 1000000ull;
	while ((elem = vu_queue_pop(dev, vq, sizeof(*elem)))) {
		len = vi2c_request(v, elem, &fail_next);
		if (v->delay_ms || v->pend_count) {
			struct vi2c_pending *p;

			if (v->pend_count == VI2C_MAX_PENDING) {
				vi2c_reply(dev, vq, elem, len, &n);
				continue;
			}
			if (v->delay_ms && v->hooks.delayed)
				v->hooks.delayed(v->hooks.ctx, v->delay_ms);
			p = &v->pending[(v->pend_head + v->pend_count) %
					VI2C_MAX_PENDING];
			p->elem = elem;
			p->len = len;
			p->due_ns = due;
			v->pend_count++;
			continue;
		}
		vi2c_reply(dev, vq, elem, len, &n);
	}
	vi2c_publish(dev, vq, n);
	if (v->pend_count)
		vi2c_flush_pending(v);
	if (v->hooks.end)
		v->hooks.end(v->hooks.ctx);
}

static void vi2c_queue_started(VuDev *dev, int qidx, bool started)
{
	VuVirtq *vq = vu_get_queue(dev, qidx);

	vu_set_queue_handler(dev, vq, started ? vi2c_queue_handler : NULL);
}

static uint64_t vi2c_get_features(VuDev *dev)
{
	(void)dev;
	/* Linux 6.1 refuses a device without it */
	return 1ull << VIRTIO_I2C_F_ZERO_LENGTH_REQUEST;
}

/* libvhost-user exit()s on VHOST_USER_NONE (what a hang-up reads as) */
static int vi2c_process_msg(VuDev *dev, VhostUserMsg *vmsg, int *do_reply)
{
	if (vmsg->request != VHOST_USER_NONE) {
		to_vi2c(dev)->msgs++;
		return 0;
	}
	*do_reply = 0;
	vi2c_gone(to_vi2c(dev));
	return 1;
}

static const VuDevIface vi2c_iface = {
	.get_features = vi2c_get_features,
	.process_msg = vi2c_process_msg,
	.queue_set_started = vi2c_queue_started,
};

static void vi2c_sock_event(struct ev_handler *h, uint32_t events)
{
	struct vi2c *v = (struct vi2c *)((char *)h -
					 offsetof(struct vi2c, sock_h));

	(void)events;
	if (v->dead)
		return;
	if (!vu_dispatch(&v->vu))
		vi2c_gone(v);
}

bool vi2c_used(const struct vi2c *v)
{
	return v->msgs;
}

void vi2c_set_delay(struct vi2c *v, unsigned int ms)
{
	if (ms > VI2C_MAX_DELAY_MS)
		ms = VI2C_MAX_DELAY_MS;
	v->delay_ms = ms;
}

struct vi2c *vi2c_new(int sock, int epfd, const struct lp5523_i2c_ops *ops,
		      void *dev, const struct vi2c_hooks *hooks)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct vi2c *v = calloc(1, sizeof(*v));
	unsigned int i;

	if (!v)
		return NULL;
	v->sock = sock;
	v->epfd = epfd;
	v->ops = ops;
	v->dev = dev;
	v->hooks = *hooks;
	for (i = 0; i < VI2C_MAX_WATCHES; i++)
		v->watches[i].fd = -1;
	v->delay_fd = timerfd_create(CLOCK_MONOTONIC,
				     TFD_NONBLOCK | TFD_CLOEXEC);
	if (v->delay_fd < 0)
		goto err;
	v->delay_h.fn = vi2c_delay_event;
	ev.data.ptr = &v->delay_h;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, v->delay_fd, &ev) < 0)
		goto err;
	if (!vu_init(&v->vu, 1, sock, vi2c_panic, NULL, vi2c_set_watch,
		     vi2c_remove_watch, &vi2c_iface)) {
		errno = ENOMEM;
		goto err;
	}
	v->sock_h.fn = vi2c_sock_event;
	ev.data.ptr = &v->sock_h;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, sock, &ev) < 0)
		goto err;
	return v;
err:
	if (v->delay_fd >= 0)
		close(v->delay_fd);
	free(v);
	return NULL;
}

void vi2c_free(struct vi2c *v)
{
	if (!v)
		return;
	epoll_ctl(v->epfd, EPOLL_CTL_DEL, v->sock, NULL);
	vu_deinit(&v->vu);
	while (v->pend_count) {
		free(v->pending[v->pend_head].elem);
		v->pend_head = (v->pend_head + 1) % VI2C_MAX_PENDING;
		v->pend_count--;
	}
	close(v->delay_fd);	/* vu_deinit() closed the socket */
	free(v);
}
