/* SPDX-License-Identifier: MIT */
/*
 * private_data.h - what the client tells the server when it connects.
 *
 * Each stage links exactly one piece that implements this header:
 *   ping-sr-0/private_none.c  nothing: each side runs with its own
 *                             options (ping-sr-0)
 *   ping-sr-1/private_data.c  the client sends count, size, buffers and
 *                             -v; the agent checks them and adopts them
 *                             (ping-sr-1 on)
 */
#ifndef OUR_PRIVATE_DATA_H
#define OUR_PRIVATE_DATA_H

#include <stdbool.h>
#include "control.h"

/*
 * True where the client's private data sets the agent's run (from
 * ping-sr-1 on): the server then takes no -c, -s, -b, -v or -D.
 */
extern const bool our_client_sets_run;

/* Client: point param at the private data to send with rdma_connect. */
void our_fill_private_data(struct our_control *control,
			   struct rdma_conn_param *param);

/*
 * Agent: take control->count, size, buffers and verify from the request's
 * private data in control->peer_data, or from our own options where the
 * stage sends none. Returns 0, or -1 after rejecting the request.
 */
int our_adopt_private_data(struct our_control *control);

/* Client: say why the server rejected us, from control->peer_data. */
void our_explain_rejection(const struct our_control *control);

#endif
