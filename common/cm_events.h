/* SPDX-License-Identifier: MIT */
/*
 * cm_events.h - how a stage waits for connection-manager events, and
 * watches the connection while it runs.
 *
 * Each stage links exactly one piece that implements this header:
 *   ping-sr-0/cm_blocking.c     no event channel: each CM verb blocks
 *                               until its event; nothing watches the
 *                               connection while the program runs
 *   ping-sr-2/cm_thread.c       an event channel; once connected, a
 *                               thread takes each event and flags a
 *                               disconnect
 *   ping-sr-4/cm_nonblocking.c  an event channel in O_NONBLOCK mode, read
 *                               when poll() says an event is waiting; no
 *                               thread
 * The two with a channel share ping-sr-2/cm_channel.c. The rest of the
 * kit calls only these functions, so swapping the piece is all it takes
 * to change how CM events are handled.
 */
#ifndef OUR_CM_EVENTS_H
#define OUR_CM_EVENTS_H

#include <stdbool.h>
#include "control.h"

/*
 * True where the piece sees the peer hang up while the program runs;
 * false where nothing watches the connection.
 */
extern const bool our_cm_sees_hang_up;

/* The client's -D, or NULL where the piece cannot see a run end. */
extern const struct our_option *const our_timed_options;

/*
 * Create a CM id into *id, with context, on an event channel of its own
 * where the program uses one. Returns 0, or -1 (reported). Undo with
 * our_destroy_id(), which destroys that channel with the id.
 */
int our_create_id(struct rdma_cm_id **id, void *context);
void our_destroy_id(struct rdma_cm_id **id);

/*
 * A CM verb on control->cm_id was called and returned ret: see it through
 * until its event, expected, has arrived (the verb of an id with no event
 * channel returns once the next event has come, whichever it is, and
 * fails when that event reports an error). Returns 0, or -1 (reported).
 */
int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb);

/*
 * Server: wait on listener for a connection request. Returns 0 with the
 * request's event in *event, its id the agent's new end of a
 * connection, to be taken or dropped; or -1 (reported).
 */
int our_await_request(struct our_listener *listener,
		      struct rdma_cm_event **event);

/*
 * Server: the request's id, already in control->cm_id, is the agent's
 * from now on (give the event back; with channels, the id moves to one
 * of its own). Returns 0, or -1 (reported) with the id destroyed.
 */
int our_take_request(struct our_control *control,
		     struct rdma_cm_event *event);

/* Server: give a request back that was refused, and destroy its id. */
void our_drop_request(struct our_control *control,
		      struct rdma_cm_event *event);

/*
 * The connection is established: start watching it for a disconnect
 * (where the program can). Returns 0, or -1 (reported). our_disconnect()
 * stops watching.
 */
int our_watch_connection(struct our_control *control);

/* Either side: disconnect, and see the disconnect through. */
void our_disconnect(struct our_control *control);

/*
 * For a wait for completions, each time it looks up:
 * true when the wait must end: Ctrl-C or SIGTERM came, or the peer has
 * gone (where the program can see it). control->end then says why.
 */
bool our_wait_must_end(struct our_control *control);

/* True once a disconnect of control's connection has been seen. */
bool our_peer_disconnected(struct our_control *control);

/*
 * For our_check_wc: a work completion failed; true when that is because
 * the connection is down, as the CM says within wait_ms (false where
 * nothing watches the connection, or the watch failed).
 */
bool our_connection_lost(struct our_control *control, uint32_t wait_ms);

#endif
