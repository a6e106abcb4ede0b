/* SPDX-License-Identifier: MIT */
/*
 * cm_channel.h - what every CM piece with an explicit event channel
 * shares (cm_thread.c here, cm_nonblocking.c in ping-sr-4): the agent's id
 * moved to a channel of its own, and the wait that tells a failed work
 * completion whether the connection is down. cm_channel.c also implements
 * our_unsetup_cm_events and our_connection_lost of cm_events.h for both.
 */
#ifndef OUR_CM_CHANNEL_H
#define OUR_CM_CHANNEL_H

#include "control.h"

/*
 * Agent: take the new id from a connection request event, keep its
 * private data, acknowledge the event and move the id to a channel of its
 * own, set up by the piece's our_setup_cm_events. Returns 0, or -1
 * (reported) with the id destroyed.
 */
int our_take_request(struct our_control *control,
		     struct rdma_cm_event *event);

#endif
