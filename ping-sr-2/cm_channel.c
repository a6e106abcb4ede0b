// SPDX-License-Identifier: MIT
/*
 * cm_channel.c - what the CM pieces with an explicit event channel share.
 *
 * With a channel, CM verbs return at once, and their events arrive on
 * the channel's file descriptor, to be taken with rdma_get_cm_event. A
 * connection request arrives on the listener's channel, carrying a new
 * id: the agent's end. The agent moves that id to a channel of its own,
 * so that its events, the disconnect above all, are not mixed with the
 * listener's.
 */
#include <poll.h>
#include <stdlib.h>

#include "cm_channel.h"
#include "cm_events.h"
#include "connection.h"
#include "instruments.h"
#include "interrupt.h"
#include "posting.h"
#include "report.h"

/*
 * A disconnect travels on its own path and can overtake completions that
 * are already on their way: after one is seen, completions still get this
 * long to arrive before the wait ends. A transfer in progress when Ctrl-C
 * comes gets as long to finish.
 */
#define OUR_GRACE_MS 500
/* A send in flight fails within the transport's retries, about 4 s at
 * the ACK timeout the kit sets: this waits five times that. */
#define OUR_LAST_RETRY_MS 20000

/* The peer's hang-up is seen while the program runs. */
const bool our_cm_sees_hang_up = true;

/* A timed run: the agent sees the client hang up when it is over. */
static const struct our_option duration[] = {
	OUR_DURATION_OPTION,
	{ 0 },
};
const struct our_option *const our_timed_options = duration;

/* A new event channel, ready for ids; NULL when it failed (reported). */
static struct rdma_event_channel *create_channel(void)
{
	/* The CM reports the events of the ids we put on it on its fd. */
	struct rdma_event_channel *channel = rdma_create_event_channel();

	if (our_verb_failed(!channel, "rdma_create_event_channel"))
		return NULL;
	if (our_prepare_channel(channel)) {
		rdma_destroy_event_channel(channel);
		return NULL;
	}
	return channel;
}

int our_create_id(struct rdma_cm_id **id, void *context)
{
	struct rdma_event_channel *channel = create_channel();
	int ret;

	if (!channel)
		return -1;
	ret = rdma_create_id(channel, id, context, RDMA_PS_TCP);
	if (our_verb_failed(ret, "rdma_create_id RDMA_PS_TCP")) {
		rdma_destroy_event_channel(channel);
		return -1;
	}
	return 0;
}

void our_destroy_id(struct rdma_cm_id **id)
{
	struct rdma_event_channel *channel = (*id)->channel;
	int ret = rdma_destroy_id(*id);

	*id = NULL;
	/* An id still there keeps its channel: the channel goes last. */
	if (our_verb_failed(ret, "rdma_destroy_id"))
		return;
	/* The channel served this id alone: it goes with it. */
	rdma_destroy_event_channel(channel);
	our_trace(1, "rdma_destroy_event_channel");
}

/* Destroy the id of a request still on the listener's channel. */
static void destroy_request_id(struct our_control *control)
{
	int ret = rdma_destroy_id(control->cm_id);

	our_verb_failed(ret, "rdma_destroy_id");
	control->cm_id = NULL;
}

int our_take_request(struct our_control *control,
		     struct rdma_cm_event *event)
{
	struct rdma_event_channel *channel;
	int ret;

	/* The agent's id gets a channel of its own. Its event goes back
	 * first: rdma_migrate_id would wait for it, for ever. */
	if (our_ack_cm_event(event))
		goto out_destroy_id;
	channel = create_channel();
	if (!channel)
		goto out_destroy_id;
	ret = rdma_migrate_id(control->cm_id, channel);
	if (our_verb_failed(ret, "rdma_migrate_id"))
		goto out_destroy_channel;
	return 0;

out_destroy_channel:
	rdma_destroy_event_channel(channel);
out_destroy_id:
	destroy_request_id(control);
	return -1;
}

void our_drop_request(struct our_control *control,
		      struct rdma_cm_event *event)
{
	/* Its event goes back before its id can go; the id is still on
	 * the listener's channel, which stays. */
	our_ack_cm_event(event);
	destroy_request_id(control);
}

int our_watch_connection(struct our_control *control)
{
	control->cm = calloc(1, sizeof(*control->cm));
	if (!control->cm) {
		our_error("no memory to watch the connection");
		return -1;
	}
	if (our_start_watching(control)) {
		free(control->cm);
		control->cm = NULL;
		return -1;
	}
	return 0;
}

/* excerpt must_end */
bool our_wait_must_end(struct our_control *control)
{
	struct our_cm *cm = control->cm;
	bool gone = our_peer_disconnected(control);
	/* The count done, a send in flight may yet end it (our_check_wc). */
	uint64_t until = our_now_ns() + 1000000ull *
		(gone && our_count_done(control) && !our_interrupted() ?
			 OUR_LAST_RETRY_MS : OUR_GRACE_MS);

	if (!gone && !our_interrupted())
		return false;
	/* Completions on their way get a moment, and so does a transfer in
	 * progress when Ctrl-C came. */
	if (cm && (!cm->give_up || until < cm->give_up))
		cm->give_up = until;
	if (cm && our_now_ns() < cm->give_up)
		return false;
	/* A failed watch is ours; Ctrl-C outranks a peer it made go. */
	if (!cm || !atomic_load(&cm->failed))
		control->end = our_interrupted() ? OUR_RUN_INTERRUPTED :
						   OUR_RUN_PEER_GONE;
	return true;
}
/* end excerpt must_end */

bool our_connection_lost(struct our_control *control, uint32_t wait_ms)
{
	uint64_t give_up = our_now_ns() + wait_ms * 1000000ull;

	while (!our_peer_disconnected(control) && our_now_ns() < give_up)
		poll(NULL, 0, 10);
	return our_peer_disconnected(control) && !control->cm->failed;
}
