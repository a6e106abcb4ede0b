/* SPDX-License-Identifier: MIT */
/*
 * cm_events.h - how a stage waits for connection-manager events.
 *
 * Each stage links exactly one piece that implements this header:
 *   ping-sr-0/cm_blocking.c     no event channel: each CM verb blocks
 *                               until its event (ping-sr-0, ping-sr-1)
 *   ping-sr-2/cm_thread.c       an event channel; once connected, a
 *                               thread records each event and flags a
 *                               disconnect (ping-sr-2, ping-sr-3,
 *                               blast-sr-2 and the RDMA stages)
 *   ping-sr-4/cm_nonblocking.c  an event channel in O_NONBLOCK mode, read
 *                               when poll() says an event is waiting; no
 *                               thread (ping-sr-4)
 * The two with a channel share ping-sr-2/cm_channel.c.
 * The rest of the kit calls only these functions, so swapping the piece
 * is all it takes to change how CM events are handled.
 */
#ifndef OUR_CM_EVENTS_H
#define OUR_CM_EVENTS_H

#include <stdbool.h>
#include "control.h"

/*
 * A disconnect travels on its own path and can overtake completions that
 * are already on their way: after one is seen, completions still get this
 * long to arrive before the wait ends. A transfer in progress when Ctrl-C
 * comes gets as long to finish.
 */
#define OUR_GRACE_MS 500

/*
 * True where the piece sees the peer hang up while the program waits for
 * a completion (from ping-sr-2 on); false for cm_blocking.c, whose
 * programs cannot know (problem 2).
 */
extern const bool our_cm_sees_hang_up;

/*
 * Prepare *channel to receive CM events for a client or a listener;
 * called before the id is created. Returns 0, or -1 (reported). Undo
 * with our_unsetup_cm_events(), after the id is destroyed; the undo does
 * nothing when *channel was never set up, so an agent whose piece gave it
 * a channel of its own (in our_await_request) is undone the same way.
 */
int our_setup_cm_events(struct rdma_event_channel **channel);
void our_unsetup_cm_events(struct rdma_event_channel **channel);

/*
 * A CM verb on control->cm_id was called and returned ret: see it through
 * until its event, expected, has arrived. Reports the verb when it failed
 * and the event when it was not the one expected (for a rejection, with
 * the peer's reason). Copies the event's private data into
 * control->peer_data. Returns 0 when expected arrived, or -1.
 */
int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb);

/*
 * Wait on listener for a connection request; the new id goes into
 * control->cm_id with its private data in control->peer_data.
 * Returns 0, or -1 (reported).
 */
int our_await_request(struct our_listener *listener,
		      struct our_control *control);

/*
 * The connection is established: start watching it for a disconnect
 * (where the piece can). Returns 0, or -1 (reported).
 */
int our_watch_connection(struct our_control *control);

/* Stop watching; called before the id is destroyed. */
void our_unwatch_connection(struct our_control *control);

/* True once a disconnect of control's connection has been seen. */
bool our_peer_disconnected(struct our_control *control);

/*
 * For our_check_wc: a work completion failed; true when that is because
 * the connection is down, as the CM says within a moment (always false
 * where the piece cannot watch the connection).
 */
bool our_connection_lost(struct our_control *control);

#endif
