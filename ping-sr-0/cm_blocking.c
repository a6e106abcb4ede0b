// SPDX-License-Identifier: MIT
/*
 * cm_blocking.c - no event channel: every CM verb blocks until its event.
 *
 * An id created without a channel is synchronous: librdmacm waits for the
 * verb's event itself and leaves it in id->event. Simple, but while the
 * program waits for a completion nothing watches the connection: a peer
 * that disconnects or dies goes unnoticed (ping-sr-0 and ping-sr-1).
 */
#include <errno.h>

#include "cm_events.h"
#include "connection.h"
#include "report.h"

/* Nothing watches the connection while we wait: problem 2. */
const bool our_cm_sees_hang_up = false;

int our_setup_cm_events(struct rdma_event_channel **channel)
{
	/* NULL asks rdma_create_id for a synchronous id. */
	*channel = NULL;
	return 0;
}

void our_unsetup_cm_events(struct rdma_event_channel **channel)
{
	*channel = NULL;
}

int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb)
{
	struct rdma_cm_event *event = control->cm_id->event;

	if (our_verb_failed(ret, "%s %s", verb, control->peer_name)) {
		/* The verb failed either at once, leaving the last step's
		 * event in place, or with an error event: explain that. */
		if (event && event->status) {
			our_keep_private_data(control, event);
			our_explain_cm_event(control, event, expected);
		} else if (errno == ENODEV) {
			our_explain_no_device(control);
		}
		return -1;
	}
	if (event) {
		our_trace(2, "%s: event %s", verb,
			  rdma_event_str(event->event));
		our_keep_private_data(control, event);
	}
	return 0;
}

int our_await_request(struct our_listener *listener,
		      struct our_control *control)
{
	int ret;

	/* Block until a client asks to connect; it gets an id of its own. */
	ret = rdma_get_request(listener->cm_id, &control->cm_id);
	if (our_verb_failed(ret, "rdma_get_request"))
		return -1;
	control->cm_id->context = control;
	our_keep_private_data(control, control->cm_id->event);
	return 0;
}

int our_watch_connection(struct our_control *control)
{
	(void)control; /* nothing can watch: no channel */
	return 0;
}

void our_unwatch_connection(struct our_control *control)
{
	(void)control;
}

bool our_peer_disconnected(struct our_control *control)
{
	(void)control; /* we cannot know: that is problem 2 */
	return false;
}

bool our_connection_lost(struct our_control *control)
{
	(void)control; /* nor can we tell why a completion failed */
	return false;
}
