/* SPDX-License-Identifier: MIT */
/*
 * ping.h - the ping-pong exchange over a connected queue pair.
 */
#ifndef OUR_PING_H
#define OUR_PING_H

#include "control.h"

/*
 * Client: control->count round trips of control->size bytes. The receive
 * for the first pong must already be posted. Returns 0, or -1 (reported).
 */
int our_ping(struct our_control *control);

/*
 * Agent: answer control->count pings with pongs that echo them. The
 * receive for the first ping must already be posted.
 * Returns 0, or -1 (reported).
 */
int our_pong(struct our_control *control);

#endif
