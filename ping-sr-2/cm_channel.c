// SPDX-License-Identifier: MIT
/*
 * cm_channel.c - what the CM pieces with an explicit event channel share
 * (cm_thread.c here, cm_nonblocking.c in ping-sr-4).
 *
 * With a channel, a connection request arrives as an event on the
 * listener's channel, carrying a new id: the agent's end. The agent moves
 * that id to a channel of its own, so that its events, the disconnect
 * above all, are not mixed with the listener's.
 */
#include <poll.h>

#include "cm_channel.h"
#include "cm_events.h"
#include "connection.h"
#include "report.h"

/*
 * How long a failed work completion waits for the CM to say whether the
 * connection is down: the peer's CM sends the disconnect as soon as the
 * peer ends, or its kernel does when it dies.
 */
#define OUR_LOST_WAIT_MS 2000

void our_unsetup_cm_events(struct rdma_event_channel **channel)
{
	if (!*channel)
		return;
	/* Every id on the channel is destroyed by now: close it. */
	rdma_destroy_event_channel(*channel);
	our_trace(1, "rdma_destroy_event_channel");
	*channel = NULL;
}

int our_take_request(struct our_control *control,
		     struct rdma_cm_event *event)
{
	int ret;

	/* The request comes with a new id: the agent's end of the
	 * connection. */
	control->cm_id = event->id;
	control->cm_id->context = control;
	our_keep_private_data(control, event);
	/* Acknowledged first: an id with events unacknowledged cannot move. */
	if (our_ack_cm_event(event))
		goto out_destroy_id;

	/* The agent's id gets a channel of its own. */
	if (our_setup_cm_events(&control->cm_channel))
		goto out_destroy_id;
	ret = rdma_migrate_id(control->cm_id, control->cm_channel);
	if (our_verb_failed(ret, "rdma_migrate_id"))
		goto out_destroy_id;
	return 0;

out_destroy_id:
	our_destroy_id(control);
	our_unsetup_cm_events(&control->cm_channel);
	return -1;
}

bool our_connection_lost(struct our_control *control)
{
	uint64_t give_up = our_now_ns() + OUR_LOST_WAIT_MS * 1000000ull;

	while (!our_peer_disconnected(control)) {
		if (our_now_ns() >= give_up ||
		    atomic_load(&control->watch_failed))
			return false;
		poll(NULL, 0, 10);
	}
	return true;
}
