/* SPDX-License-Identifier: MIT */
/*
 * private_data.h - what the client tells the server when it connects.
 *
 * Each stage links exactly one piece that implements this header:
 *   ping-sr-0/private_none.c  nothing: each side runs with its own
 *                             options
 *   ping-sr-1/private_data.c  the client sends count, size, buffers and
 *                             -v; the agent checks them and adopts them,
 *                             or rejects the request, saying why
 */
#ifndef OUR_PRIVATE_DATA_H
#define OUR_PRIVATE_DATA_H

#include "control.h"

/* The server's options besides -a and -p: what it runs, or NULL where
 * its client sets the run. */
extern const struct our_option *const our_server_options;

/* Client: point param at the private data to send with rdma_connect. */
void our_fill_private_data(struct our_control *control,
			   struct rdma_conn_param *param);

/*
 * Server: the connection request event carries the client's private data:
 * adopt what it asks for into control (count, size, buffers, -v), or
 * reject the request, saying why. Returns 0, or -1 when it was rejected.
 */
int our_refuse_request(struct our_control *control,
		       const struct rdma_cm_event *event);

/* Client: when event is the server's rejection of our request, say why,
 * from the reason the server sent with it (if it sent one). */
void our_report_refusal(const struct rdma_cm_event *event);

#endif
