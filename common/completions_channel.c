// SPDX-License-Identifier: MIT
/*
 * completions_channel.c - wait for a work completion by sleeping on a
 * completion channel until the adapter signals one.
 *
 * Poll the CQ first; only when it is empty arm it (ibv_req_notify_cq) and
 * poll again, since a completion that arrived before the arm raises no
 * event; then sleep until the channel's fd is readable and take the event
 * with ibv_get_cq_event. Events are acknowledged in batches, and all of
 * them before the CQ is destroyed (ping-sr-3). The sleep looks up every
 * OUR_LOOKUP_MS to see whether the CM thread saw the peer go. The CPU
 * rests while it waits, at the price of a wake-up per completion.
 */
#include <inttypes.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <stdio.h>

#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "posting.h"
#include "report.h"

/* Events are acknowledged this many at a time: each ack takes a lock. */
#define OUR_ACK_BATCH 16
/* How often a sleep looks up to check for a disconnect. */
#define OUR_LOOKUP_MS 200

int our_setup_completions(struct our_control *control)
{
	/* A file descriptor the adapter makes readable on a completion. */
	control->completion_channel =
		ibv_create_comp_channel(control->cm_id->verbs);
	if (our_verb_null(control->completion_channel,
			  "ibv_create_comp_channel"))
		return -1;
	return 0;
}

void our_unsetup_completions(struct our_control *control)
{
	int ret = ibv_destroy_comp_channel(control->completion_channel);

	our_verb_failed(ret, "ibv_destroy_comp_channel");
	control->completion_channel = NULL;
}

/* Ask for an event on the channel when the next completion arrives. */
static int arm_cq(struct our_control *control)
{
	int ret = ibv_req_notify_cq(control->cq, 0);

	if (ret) {
		our_verb_failed(ret, "ibv_req_notify_cq");
		return -1;
	}
	/* Traced only with -T: it happens on every wait. */
	our_trace(2, "ibv_req_notify_cq -> 0");
	return 0;
}

/* Acknowledge the events taken but not yet acknowledged. */
static void ack_events(struct our_control *control)
{
	uint64_t unacked = control->counters.cq_events -
			   control->counters.cq_acked;

	if (unacked == 0)
		return;
	ibv_ack_cq_events(control->cq, (unsigned int)unacked);
	our_trace(2, "ibv_ack_cq_events %" PRIu64, unacked);
	control->counters.cq_acked += unacked;
}

int our_start_completions(struct our_control *control)
{
	return arm_cq(control);
}

void our_stop_completions(struct our_control *control)
{
	/* ibv_destroy_cq waits for every event to be acknowledged. */
	ack_events(control);
}

/* Take one completion off the queue into wc: 1, 0 when empty, or -1. */
static int poll_once(struct our_control *control, struct ibv_wc *wc)
{
	int found = ibv_poll_cq(control->cq, 1, wc);

	control->counters.polls++;
	if (found < 0)
		our_error("ibv_poll_cq: failed with %d", found);
	return found;
}

/*
 * Sleep until the adapter signals the CQ, and take the event: 1 when one
 * was taken, 0 when OUR_LOOKUP_MS passed first, -1 on failure.
 */
static int sleep_for_event(struct our_control *control)
{
	struct pollfd channel = { .fd = control->completion_channel->fd,
				  .events = POLLIN };
	struct ibv_cq *cq;
	void *context;
	int ret;

	ret = poll(&channel, 1, OUR_LOOKUP_MS);
	if (ret < 0) {
		our_error("poll on the completion channel: %s",
			  strerror(errno));
		return -1;
	}
	if (ret == 0)
		return 0;
	/* The fd is readable: an event is there for an armed CQ. */
	ret = ibv_get_cq_event(control->completion_channel, &cq, &context);
	if (our_verb_failed(ret, "ibv_get_cq_event"))
		return -1;
	control->counters.cq_events++;
	if (control->counters.cq_events - control->counters.cq_acked >=
	    OUR_ACK_BATCH)
		ack_events(control);
	return 1;
}

int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	uint64_t give_up = 0;
	int found;

	for (;;) {
		found = poll_once(control, wc);
		if (found)
			break;
		control->counters.empty_polls++;
		if (arm_cq(control))
			return -1;
		/* A completion that came before the arm raised no event. */
		found = poll_once(control, wc);
		if (found)
			break;
		found = sleep_for_event(control);
		if (found < 0)
			return -1;
		/* Nothing came: has the CM thread seen the peer go? */
		if (found == 0 && our_disconnect_ends_wait(control, &give_up))
			return -1;
	}
	if (found < 0)
		return -1;
	return our_check_wc(control, wc);
}

void our_print_completion_counters(const struct our_control *control)
{
	const struct our_counters *counters = &control->counters;

	printf("%s: completion channel: %" PRIu64 " ibv_poll_cq calls, %" PRIu64
	       " first polls found nothing, %" PRIu64 " events received, %" PRIu64
	       " acknowledged\n",
	       our_program_name, counters->polls, counters->empty_polls,
	       counters->cq_events, counters->cq_acked);
}
