// SPDX-License-Identifier: MIT
/*
 * cq_events.c - a completion queue with a completion channel, and its
 * events: arm the queue, take the event, acknowledge it.
 *
 * A completion channel is a file descriptor that the adapter makes
 * readable when a completion arrives on a queue that was armed
 * (ibv_req_notify_cq). Each event taken (ibv_get_cq_event) must be
 * acknowledged (ibv_ack_cq_events), in batches if we like, and all of
 * them before the queue is destroyed.
 */
#include <errno.h>
#include <stdlib.h>

#include "completions.h"
#include "cq_events.h"
#include "instruments.h"
#include "report.h"

/* Events are acknowledged this many at a time: each ack takes a lock. */
#define OUR_ACK_BATCH 16

/* Arm the CQ: its next completion raises an event. Returns 0 or -1. */
static int arm_cq(struct our_control *control)
{
	int ret = ibv_req_notify_cq(control->cq, 0);

	return our_verb_error(ret, "ibv_req_notify_cq") ? -1 : 0;
}

int our_create_cq(struct our_control *control)
{
	/* excerpt cq_channel */
	int entries = (int)(control->send_depth + control->recv_depth);
	struct ibv_comp_channel *channel;

	control->completions = calloc(1, sizeof(*control->completions));
	if (!control->completions) {
		our_error("no memory for the completion channel");
		return -1;
	}
	/* A file descriptor the adapter makes readable on a completion. */
	channel = ibv_create_comp_channel(control->cm_id->verbs);
	if (our_verb_failed(!channel, "ibv_create_comp_channel"))
		goto out_free;
	if (our_prepare_cq_channel(channel))
		goto out_destroy_channel;
	/* end excerpt cq_channel */
	/* excerpt cq_create */
	/* The adapter puts a completion here for each receive done and
	 * each flagged send, and, once armed, an event on the channel. */
	control->cq = ibv_create_cq(control->cm_id->verbs, entries, control,
				    channel, 0);
	if (our_verb_failed(!control->cq, "ibv_create_cq entries=%d", entries))
		goto out_destroy_channel;
	if (arm_cq(control))
		goto out_destroy_cq;
	return 0;

out_destroy_cq:
	ibv_destroy_cq(control->cq);
	control->cq = NULL;
out_destroy_channel:
	ibv_destroy_comp_channel(channel);
out_free:
	free(control->completions);
	control->completions = NULL;
	return -1;
	/* end excerpt cq_create */
}

void our_destroy_cq(struct our_control *control)
{
	struct ibv_comp_channel *channel = control->cq->channel;
	unsigned int unacked = control->completions->unacked;
	int ret;

	/* ibv_destroy_cq waits until every event is acknowledged. */
	if (unacked)
		ibv_ack_cq_events(control->cq, unacked);
	ret = ibv_destroy_cq(control->cq);
	our_verb_error(ret, "ibv_destroy_cq");
	ret = ibv_destroy_comp_channel(channel);
	our_verb_error(ret, "ibv_destroy_comp_channel");
	free(control->completions);
	control->completions = NULL;
	control->cq = NULL;
}

int our_take_cq_event(struct our_control *control)
{
	struct our_completions *completions = control->completions;
	struct ibv_cq *cq;
	void *context;
	int ret;

	/* The adapter tells us which CQ had a completion since the arm. */
	ret = ibv_get_cq_event(control->cq->channel, &cq, &context);
	if (ret && errno == EAGAIN)
		return 0; /* none after all: the CQ is polled anyway */
	if (our_verb_failed(ret, "ibv_get_cq_event"))
		return -1;
	our_tally(control, "completion channel", "events received", 1);
	if (++completions->unacked == OUR_ACK_BATCH) {
		ibv_ack_cq_events(control->cq, completions->unacked);
		our_trace(2, "ibv_ack_cq_events %u", completions->unacked);
		completions->unacked = 0;
	}
	return 0;
}

int our_poll_or_arm(struct our_control *control, struct ibv_wc *wc)
{
	int found = ibv_poll_cq(control->cq, 1, wc);

	our_tally(control, "completion channel", "ibv_poll_cq calls", 1);
	if (found == 0) {
		our_tally(control, "completion channel",
			  "first polls found nothing", 1);
		/* A completion that came before the arm raised no event:
		 * poll again once armed. */
		if (arm_cq(control))
			return -1;
		found = ibv_poll_cq(control->cq, 1, wc);
		our_tally(control, "completion channel", "ibv_poll_cq calls",
			  1);
	}
	if (found < 0)
		our_error("ibv_poll_cq: failed with %d", found);
	return found;
}
