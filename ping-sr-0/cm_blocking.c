// SPDX-License-Identifier: MIT
/*
 * cm_blocking.c - no event channel: every CM verb blocks until its event.
 *
 * An id created without a channel is synchronous: librdmacm waits for the
 * verb's event itself and leaves it in id->event. Simple, but while the
 * program waits for a completion nothing watches the connection: a peer
 * that disconnects or dies goes unnoticed (ping-sr-0's problem 2).
 */
#include <errno.h>

#include "cm_events.h"
#include "connection.h"
#include "instruments.h"
#include "interrupt.h"
#include "private_data.h"
#include "report.h"

/* Nothing watches the connection while we wait: problem 2. */
const bool our_cm_sees_hang_up = false;

/* No -D: a timed run ends when the client hangs up, which the server
 * would not see. */
const struct our_option *const our_timed_options = NULL;

int our_create_id(struct rdma_cm_id **id, void *context)
{
	int ret;

	/* No channel: the id is synchronous, each CM verb on it blocks. */
	ret = rdma_create_id(NULL, id, context, RDMA_PS_TCP);
	if (our_verb_failed(ret, "rdma_create_id RDMA_PS_TCP"))
		return -1;
	return 0;
}

void our_destroy_id(struct rdma_cm_id **id)
{
	int ret = rdma_destroy_id(*id);

	our_verb_failed(ret, "rdma_destroy_id");
	*id = NULL;
}

int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb)
{
	(void)expected; /* the verb waited: it fails on an error event */
	if (our_verb_failed(ret, "%s %s", verb, control->peer_name)) {
		/* The verb failed either at once, leaving the last step's
		 * event in place, or with an error event. */
		our_explain_cm_failure(control->peer_name,
				       control->cm_id->event);
		our_report_refusal(control->cm_id->event);
		return -1;
	}
	return 0;
}

int our_await_request(struct our_listener *listener,
		      struct rdma_cm_event **event)
{
	struct rdma_cm_id *id;
	int ret;

	/* Block until a client asks to connect; it gets an id of its own,
	 * with the request's event in id->event. */
	ret = rdma_get_request(listener->cm_id, &id);
	if (our_verb_failed(ret, "rdma_get_request"))
		return -1;
	*event = id->event;
	return 0;
}

int our_take_request(struct our_control *control,
		     struct rdma_cm_event *event)
{
	(void)control; /* the id is ready: its verbs block as ours do */
	(void)event;
	return 0;
}

void our_drop_request(struct our_control *control,
		      struct rdma_cm_event *event)
{
	(void)event; /* rdma_destroy_id gives it back */
	our_destroy_id(&control->cm_id);
}

int our_watch_connection(struct our_control *control)
{
	(void)control; /* nothing can watch: no channel */
	return 0;
}

void our_disconnect(struct our_control *control)
{
	int ret;

	/* rdma_disconnect waits until the peer answers, and the peer
	 * answers only once its own run is over: nothing watches its
	 * connection either. After a run that Ctrl-C cut short, or that a
	 * silent peer ended, the disconnect is left to rdma_destroy_id: it
	 * tells the peer too, and does not wait. */
	if (control->end == OUR_RUN_INTERRUPTED ||
	    control->end == OUR_RUN_SILENT) {
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
	if (our_interrupted())
		control->end = OUR_RUN_INTERRUPTED;
	return control->end == OUR_RUN_INTERRUPTED;
}

bool our_peer_disconnected(struct our_control *control)
{
	(void)control; /* we cannot know: that is problem 2 */
	return false;
}

bool our_connection_lost(struct our_control *control, uint32_t wait_ms)
{
	(void)control; /* nor can we tell why a completion failed */
	(void)wait_ms;
	return false;
}
