// SPDX-License-Identifier: MIT
/*
 * cq_events.c - the completion channel's verbs, shared by the pieces that
 * sleep on one (completions_channel.c in ping-sr-3, completions_poll.c in
 * ping-sr-4). It also implements, for both, the undo, start and stop of
 * completions.h.
 *
 * bug-unacked-events, a bug hunt: this is a copy of ping-sr-3's
 * cq_events.c with one mistake in it, built in place of ping-sr-3's (see
 * README.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "completions.h"
#include "cq_events.h"
#include "posting.h"
#include "report.h"

/* Events are acknowledged this many at a time: each ack takes a lock. */
#define OUR_ACK_BATCH 16

/* Arm the CQ: its next completion raises an event. Returns 0 or -1. */
static int arm_cq(struct our_control *control)
{
	int ret = ibv_req_notify_cq(control->cq, 0);

	if (ret) {
		our_verb_error(ret, "ibv_req_notify_cq");
		return -1;
	}
	/* Traced only with -T: it happens on every wait. */
	our_trace(2, "ibv_req_notify_cq -> 0");
	return 0;
}

/*
 * Take one completion off the CQ into wc, counting the poll: 1, 0 when
 * the CQ is empty, or -1 (reported).
 */
static int poll_cq_once(struct our_control *control, struct ibv_wc *wc)
{
	int found = ibv_poll_cq(control->cq, 1, wc);

	control->counters.polls++;
	if (found < 0)
		our_error("ibv_poll_cq: failed with %d", found);
	return found;
}

int our_create_completion_channel(struct our_control *control)
{
	/* A file descriptor the adapter makes readable on a completion. */
	control->completion_channel =
		ibv_create_comp_channel(control->cm_id->verbs);
	if (our_verb_null(control->completion_channel,
			  "ibv_create_comp_channel"))
		return -1;
	return 0;
}

void our_destroy_completion_channel(struct our_control *control)
{
	int ret = ibv_destroy_comp_channel(control->completion_channel);

	our_verb_error(ret, "ibv_destroy_comp_channel");
	control->completion_channel = NULL;
}

void our_ack_cq_events(struct our_control *control)
{
	uint64_t unacked = control->counters.cq_events -
			   control->counters.cq_acked;

	if (unacked == 0)
		return;
	/* ibv_destroy_cq waits until every event is acknowledged. */
	ibv_ack_cq_events(control->cq, (unsigned int)unacked);
	our_trace(2, "ibv_ack_cq_events %" PRIu64, unacked);
	control->counters.cq_acked += unacked;
}

int our_take_cq_event(struct our_control *control)
{
	struct ibv_cq *cq;
	void *context;
	int ret;

	/* The adapter tells us which CQ had a completion since the arm. */
	ret = ibv_get_cq_event(control->completion_channel, &cq, &context);
	if (ret && errno == EAGAIN)
		return 0; /* none after all: the CQ is polled anyway */
	if (our_verb_failed(ret, "ibv_get_cq_event"))
		return -1;
	/* The event is ours now: taking it re-arms nothing, and the
	 * completion itself is still to be polled. */
	control->counters.cq_events++;
	return 0;
}

int our_poll_or_arm(struct our_control *control, struct ibv_wc *wc)
{
	int found = poll_cq_once(control, wc);

	if (found)
		return found;
	control->counters.empty_polls++;
	if (arm_cq(control))
		return -1;
	/* A completion that came before the arm raised no event. */
	return poll_cq_once(control, wc);
}

void our_print_cq_event_counters(const struct our_control *control,
				 const char *how)
{
	const struct our_counters *counters = &control->counters;

	printf("%s: %s: %" PRIu64 " ibv_poll_cq calls, %" PRIu64
	       " first polls found nothing, %" PRIu64
	       " events received, %" PRIu64 " acknowledged",
	       our_program_name, how, counters->polls, counters->empty_polls,
	       counters->cq_events, counters->cq_acked);
	if (counters->poll_calls)
		printf(", %" PRIu64 " poll() calls", counters->poll_calls);
	printf("\n");
}

void our_unsetup_completions(struct our_control *control)
{
	our_destroy_completion_channel(control);
}

int our_start_completions(struct our_control *control)
{
	return arm_cq(control);
}

void our_stop_completions(struct our_control *control)
{
	(void)control; /* nothing to stop: the CQ is destroyed next */
}
