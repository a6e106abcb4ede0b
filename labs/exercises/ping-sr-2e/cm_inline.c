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
 * The four TODOs are yours. Until they are done the programs build, and
 * fail at once.
 */
#include <errno.h>

#include "cm_events.h"
#include "connection.h"
#include "report.h"

/* Nobody reads the channel while the program waits for a completion. */
const bool our_cm_sees_hang_up = false;

int our_setup_cm_events(struct rdma_event_channel **channel)
{
	/*
	 * TODO 1: create the channel on which the CM will report the
	 * events of our ids, into *channel, and trace it as the kit traces
	 * a verb that returns a pointer (report.h). Return 0, or -1 when
	 * it failed.
	 */
	*channel = NULL;
	our_error("our_setup_cm_events: TODO 1 is not done yet");
	return -1;
}

void our_unsetup_cm_events(struct rdma_event_channel **channel)
{
	/*
	 * TODO 2: destroy the channel, unless there is none (*channel is
	 * NULL: the agent's, when no request came), trace it with
	 * our_trace(1, ...), and leave *channel NULL.
	 */
	*channel = NULL;
}

int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb)
{
	/*
	 * TODO 3: the CM verb named verb was called on control->cm_id and
	 * returned ret. When it failed, report it, as cm_blocking.c does.
	 * Otherwise take its event from control->cm_channel, trace it,
	 * keep its private data, check that it is expected with a status
	 * of 0 (our_explain_cm_event says why not), and acknowledge it,
	 * whether it was expected or not. Return 0 when it was.
	 */
	(void)expected;
	if (our_verb_failed(ret, "%s %s", verb, control->peer_name))
		return -1;
	our_error("%s: TODO 3 is not done yet", verb);
	return -1;
}

int our_await_request(struct our_listener *listener,
		      struct our_control *control)
{
	/*
	 * TODO 4: take a connection request from the listener's channel.
	 * The event's id is the agent's end of the connection: put it into
	 * control->cm_id, with control as its context, keep the private
	 * data and acknowledge the event. Then give the agent a channel of
	 * its own in control->cm_channel and move the id to it. When a step
	 * fails, undo the ones before (our_destroy_id destroys the id) and
	 * return -1.
	 */
	(void)listener;
	(void)control;
	our_error("our_await_request: TODO 4 is not done yet");
	return -1;
}

int our_watch_connection(struct our_control *control)
{
	(void)control; /* nobody reads the channel once connected */
	return 0;
}

void our_unwatch_connection(struct our_control *control)
{
	(void)control;
}

bool our_peer_disconnected(struct our_control *control)
{
	(void)control; /* a disconnect waits on the channel, unread */
	return false;
}

bool our_connection_lost(struct our_control *control)
{
	(void)control; /* nor can we tell why a completion failed */
	return false;
}
