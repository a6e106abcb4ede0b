/* SPDX-License-Identifier: MIT */
/*
 * connection.h - connection management with the RDMA CM, both ends.
 *
 * How each CM event is awaited is the business of the stage's CM piece
 * (see cm_events.h); the steps here are the same for every stage.
 */
#ifndef OUR_CONNECTION_H
#define OUR_CONNECTION_H

#include "control.h"

/*
 * The transport's retries, which the client asks for when it connects
 * (rdma_accept ignores a retry count: the server's side retries as the
 * client asked). A packet not acknowledged within the local ACK timeout,
 * 4.096 us times 2^OUR_ACK_TIMEOUT (17: 0.54 s), is sent again, at most
 * OUR_RETRY_COUNT times; then its work request fails, about 4 s after
 * the peer or the link went silent, with IBV_WC_RETRY_EXC_ERR. (A side
 * with nothing to send, waiting for a message, waits until Ctrl-C.)
 */
#define OUR_ACK_TIMEOUT 17
#define OUR_RETRY_COUNT 6

/*
 * Client: create control->cm_id and resolve the address and route of
 * the server at options->address and options->port, which binds the id
 * to the RDMA device that reaches it. Returns 0, or -1 (reported) with
 * no id left. Undo with our_destroy_id() (see cm_events.h).
 */
int our_resolve_server(struct our_control *control,
		       const struct our_options *options);

/*
 * Client: connect the queue pair to the server, sending our private data
 * (see private_data.h). Returns 0 once established, or -1 (reported, with
 * the server's reason when it rejected us). Undo with our_disconnect().
 */
int our_connect(struct our_control *control);

/*
 * Server: bind a listening id to options->address (all local addresses
 * when NULL) and options->port, and listen. Returns 0, or -1 (reported)
 * with nothing left. Undo with our_unsetup_listener().
 */
int our_setup_listener(struct our_listener *listener,
		       const struct our_options *options);
void our_unsetup_listener(struct our_listener *listener);

/*
 * Server: wait for a client's connection request and take its id into
 * control->cm_id, adopting what its private data asks for (see
 * private_data.h). Returns 0; 1 when the request was refused, and so
 * rejected and its id gone (the caller waits for the next); or
 * -1 (reported).
 * Undo with our_destroy_id().
 */
int our_get_request(struct our_listener *listener,
		    struct our_control *control);

/* Agent: accept the request. Returns 0 once established, or -1 (reported). */
int our_accept(struct our_control *control);

/* Server: refuse the request, telling the client why. */
void our_reject(struct our_control *control, const void *reason,
		uint8_t reason_len);

/*
 * An event for peer came: returns 0 when it is
 * expected and says all went well; otherwise reports it and returns -1.
 */
int our_check_cm_event(const char *peer, const struct rdma_cm_event *event,
		       enum rdma_cm_event_type expected);

/*
 * Once a CM verb or event for peer failed and was
 * reported: say in words what the failure probably means, from event
 * (NULL: from errno, which the verb set). peer NULL: creating an id
 * failed.
 */
void our_explain_cm_failure(const char *peer,
			    const struct rdma_cm_event *event);

/* Give event back to the CM (rdma_ack_cm_event). Returns 0, or -1
 * (reported). */
int our_ack_cm_event(struct rdma_cm_event *event);

#endif
