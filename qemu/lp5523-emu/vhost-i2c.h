/* SPDX-License-Identifier: GPL-2.0 */
/*
 * virtio-i2c device over vhost-user (QEMU's libvhost-user): turns request
 * chains into struct lp5523_msg transfers on an I2C device ops table.
 */
#ifndef VHOST_I2C_H
#define VHOST_I2C_H

#include <stdbool.h>
#include <stdint.h>

#include "lp5523.h"

/* Upper bound of an injected reply delay: the guest must not hang. */
#define VI2C_MAX_DELAY_MS	1000

struct vi2c;

struct vi2c_hooks {
	/* before a batch: bring the device's clock to now */
	void (*begin)(void *ctx);
	/* after a batch */
	void (*end)(void *ctx);
	/* the front end went away (or the protocol failed) */
	void (*gone)(void *ctx);
	/* a reply is held back @ms milliseconds (injected delay) */
	void (*delayed)(void *ctx, unsigned int ms);
	void *ctx;
};

/*
 * Serve the vhost-user connection @sock (already accepted).  Every file
 * descriptor to poll goes into the epoll set @epfd with data.ptr pointing
 * at a struct ev_handler (emu.h).
 */
struct vi2c *vi2c_new(int sock, int epfd, const struct lp5523_i2c_ops *ops,
		      void *dev, const struct vi2c_hooks *hooks);
void vi2c_free(struct vi2c *v);
/* Did the front end say anything (or was it a mere connect)? */
bool vi2c_used(const struct vi2c *v);
void vi2c_set_delay(struct vi2c *v, unsigned int ms);
uint64_t vi2c_now_ns(void);

#endif /* VHOST_I2C_H */
