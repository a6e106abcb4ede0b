// SPDX-License-Identifier: MIT
/*
 * cm_inline.c - an explicit event channel, each CM event awaited in line
 * (ping-sr-2e, an exercise; see its README).
 *
 * On an id created with a channel the CM verbs no longer wait: each one
 * starts its work and returns, and its outcome arrives later as an event
 * on the channel. This piece takes that event at once, right after the
 * verb, so the steps still read one after the other. The agent's id,
 * which arrives in a connection request on the listener's channel, moves
 * to a channel of its own. What this piece cannot do is watch the
 * connection: while the program polls for a completion nobody reads the
 * channel, and a disconnect waits there unseen (ping-sr-2 adds a thread
 * that reads it).
 *
 * The five TODOs are yours. Until they are done the programs build, and
 * fail at once.
 */
#include "cm_events.h"
#include "connection.h"
#include "instruments.h"
#include "interrupt.h"
#include "report.h"

/* Nobody reads the channel while the program waits for a completion. */
const bool our_cm_sees_hang_up = false;

/* No -D: a timed run ends when the client hangs up, which the server
 * would not see. */
const struct our_option *const our_timed_options = NULL;

int our_create_id(struct rdma_cm_id **id, void *context)
{
	/*
	 * TODO 1: create an event channel, on which the CM will report the
	 * events of the id, then the id on that channel, into *id, with
	 * context, in RDMA_PS_TCP (cm_blocking.c creates one on no
	 * channel). Check and trace each verb as the kit does (report.h:
	 * our_verb_failed(!pointer, ...) for a verb that returns a
	 * pointer). Return 0, or -1 with nothing left.
	 */
	(void)context;
	*id = NULL;
	our_error("our_create_id: TODO 1 is not done yet");
	return -1;
}

void our_destroy_id(struct rdma_cm_id **id)
{
	/*
	 * TODO 2: destroy the id, then the channel it is on (every id on
	 * it is gone by then), traced with our_trace(1, ...) since that
	 * verb returns nothing; leave *id NULL.
	 */
	*id = NULL;
}

int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb)
{
	/*
	 * TODO 3: the CM verb named verb was called on control->cm_id and
	 * returned ret. When it failed, it is reported here, as
	 * cm_blocking.c does. Otherwise take its event from the id's
	 * channel and trace it; check that it is expected with a status
	 * of 0 (our_check_cm_event says in words why not), and
	 * acknowledge it, whether it was expected or not. Return 0 when it
	 * was.
	 */
	(void)expected;
	if (our_verb_failed(ret, "%s %s", verb, control->peer_name)) {
		our_explain_cm_failure(control->peer_name, NULL);
		return -1;
	}
	our_error("%s: TODO 3 is not done yet", verb);
	return -1;
}

int our_await_request(struct our_listener *listener,
		      struct rdma_cm_event **event)
{
	/*
	 * TODO 4: take a connection request from the listener's channel
	 * into *event, traced and checked as in TODO 3, and return 0. Do
	 * not acknowledge it: the agent reads the client's private data
	 * from it first (our_get_request in connection.c), then
	 * our_take_request or our_drop_request gives it back. Anything
	 * else is acknowledged, and -1 returned.
	 */
	(void)listener;
	*event = NULL;
	our_error("our_await_request: TODO 4 is not done yet");
	return -1;
}

int our_take_request(struct our_control *control,
		     struct rdma_cm_event *event)
{
	/*
	 * TODO 5: the request's id, in control->cm_id, is the agent's end
	 * of the connection from now on. Acknowledge the request, then
	 * give the id a channel of its own and move it there, away from
	 * the listener's. When a step fails, destroy the id (not the
	 * listener's channel, where it may still be), leave
	 * control->cm_id NULL, and return -1.
	 */
	our_error("our_take_request: TODO 5 is not done yet");
	our_drop_request(control, event);
	return -1;
}

void our_drop_request(struct our_control *control,
		      struct rdma_cm_event *event)
{
	int ret;

	/* Its event goes back before its id can go; the id is still on
	 * the listener's channel, which stays. */
	our_ack_cm_event(event);
	ret = rdma_destroy_id(control->cm_id);
	our_verb_failed(ret, "rdma_destroy_id");
	control->cm_id = NULL;
}

int our_watch_connection(struct our_control *control)
{
	(void)control; /* nobody reads the channel once connected */
	return 0;
}

void our_disconnect(struct our_control *control)
{
	int ret;

	/* The disconnect's event, awaited in line, comes once the peer
	 * answers, and the peer answers only once its own run is over:
	 * nothing watches its connection either. After a run that Ctrl-C
	 * cut short, the disconnect is left to rdma_destroy_id: it tells
	 * the peer too, and does not wait. */
	if (control->end == OUR_RUN_INTERRUPTED) {
		our_trace(1, "no rdma_disconnect: %s would not answer",
			  control->peer_name);
		return;
	}
	/* The CM tells the peer we are going; our queue pair goes to the
	 * error state and any work still posted is flushed. */
	ret = rdma_disconnect(control->cm_id);
	our_await_cm_event(control, ret, RDMA_CM_EVENT_DISCONNECTED,
			   "rdma_disconnect");
}

bool our_wait_must_end(struct our_control *control)
{
	/* Only Ctrl-C can end a wait: the peer's going goes unseen. */
	if (!our_interrupted())
		return false;
	control->end = OUR_RUN_INTERRUPTED;
	return true;
}

bool our_peer_disconnected(struct our_control *control)
{
	(void)control; /* a disconnect waits on the channel, unread */
	return false;
}

bool our_connection_lost(struct our_control *control, uint32_t wait_ms)
{
	(void)control; /* nor can we tell why a completion failed */
	(void)wait_ms;
	return false;
}
