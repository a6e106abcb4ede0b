// SPDX-License-Identifier: MIT
/*
 * completions_poll.c - wait for a work completion in one poll() on two
 * file descriptors: the completion channel, in O_NONBLOCK mode, and the
 * CM event channel (see cm_nonblocking.c). No thread besides main: the
 * program waits the way a socket program does (ping-sr-4).
 *
 * The completion queue is polled first; only when it is empty is it armed
 * (ibv_req_notify_cq) and polled again, since a completion that arrived
 * before the arm raises no event. Then poll() sleeps until the adapter
 * signals a completion or the CM has news of the connection. Events are
 * acknowledged in batches, and all of them before the queue is destroyed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "cm_events.h"
#include "completions.h"
#include "posting.h"
#include "report.h"
#include "stats.h"

/* Completion events taken before they are acknowledged in one call. */
#define OUR_ACK_BATCH 16

int our_setup_completions(struct our_control *control)
{
	struct ibv_comp_channel *channel;
	int flags;
	int ret;

	/* The adapter will signal this channel's fd when we ask it to. */
	channel = ibv_create_comp_channel(control->cm_id->verbs);
	if (our_verb_null(channel, "ibv_create_comp_channel"))
		return -1;

	/* Reading the channel must never block: poll() does the waiting. */
	flags = fcntl(channel->fd, F_GETFL);
	ret = flags < 0 ? -1 : fcntl(channel->fd, F_SETFL, flags | O_NONBLOCK);
	if (our_verb_failed(ret, "fcntl O_NONBLOCK completion channel fd %d",
			    channel->fd))
		goto out_destroy_channel;
	control->completion_channel = channel;
	return 0;

out_destroy_channel:
	ibv_destroy_comp_channel(channel);
	return -1;
}

void our_unsetup_completions(struct our_control *control)
{
	int ret = ibv_destroy_comp_channel(control->completion_channel);

	our_verb_failed(ret, "ibv_destroy_comp_channel");
	control->completion_channel = NULL;
}

/* Ask for an event on the next completion. Returns 0 or -1 (reported). */
static int arm_cq(struct our_control *control)
{
	/* The adapter will signal the channel at the CQ's next completion. */
	int ret = ibv_req_notify_cq(control->cq, 0);

	if (our_verb_failed(ret, "ibv_req_notify_cq"))
		return -1;
	return 0;
}

int our_start_completions(struct our_control *control)
{
	return arm_cq(control);
}

/* Acknowledge every event taken and not yet acknowledged. */
static void ack_events(struct our_control *control)
{
	uint64_t unacked = control->counters.cq_events -
			   control->counters.cq_acked;

	if (unacked == 0)
		return;
	/* One call, one lock, for the whole batch. */
	ibv_ack_cq_events(control->cq, (unsigned int)unacked);
	our_trace(2, "ibv_ack_cq_events %" PRIu64, unacked);
	control->counters.cq_acked += unacked;
}

void our_stop_completions(struct our_control *control)
{
	/* ibv_destroy_cq waits until every event it gave is acknowledged. */
	ack_events(control);
}

/* Take one completion off the queue into wc: 1, 0 if none, or -1. */
static int poll_cq(struct our_control *control, struct ibv_wc *wc)
{
	/* The adapter hands us the oldest completion, if there is one. */
	int found = ibv_poll_cq(control->cq, 1, wc);

	control->counters.polls++;
	if (found < 0)
		our_error("ibv_poll_cq: failed with %d", found);
	return found;
}

/* The completion fd is readable: take the event. Returns 0 or -1. */
static int take_cq_event(struct our_control *control)
{
	struct ibv_cq *cq;
	void *context;
	int ret;

	/* The adapter tells us which CQ had a completion since the arm. */
	ret = ibv_get_cq_event(control->completion_channel, &cq, &context);
	if (ret && errno == EAGAIN)
		return 0; /* no event after all: the CQ is polled anyway */
	if (our_verb_failed(ret, "ibv_get_cq_event"))
		return -1;
	control->counters.cq_events++;
	if (control->counters.cq_events - control->counters.cq_acked >=
	    OUR_ACK_BATCH)
		ack_events(control);
	return 0;
}

/*
 * Sleep in poll() until the completion channel or the CM channel has
 * something for us, and take it. Returns 0, or -1 (reported).
 */
static int wait_for_event(struct our_control *control)
{
	struct pollfd fds[2] = {
		{ .fd = control->completion_channel->fd, .events = POLLIN },
		{ .fd = -1 },
	};
	int ret;

	/* A stage whose CM verbs block has no CM channel to watch. */
	if (control->cm_channel)
		fds[1] = (struct pollfd){ .fd = control->cm_channel->fd,
					  .events = POLLIN };
	ret = poll(fds, 2, -1);
	control->counters.poll_calls++;
	if (ret < 0) {
		if (errno == EINTR)
			return 0;
		our_error("poll: %s", strerror(errno));
		return -1;
	}
	/* A disconnect only sets the flag: the CQ is looked at first. */
	if (fds[1].revents)
		our_peer_disconnected(control);
	if (fds[0].revents)
		return take_cq_event(control);
	return 0;
}

/* The first poll found nothing: arm, poll, and sleep until one comes. */
static int wait_for_completion(struct our_control *control, struct ibv_wc *wc)
{
	int found;

	for (;;) {
		if (arm_cq(control))
			return -1;
		/* One that arrived before the arm raised no event: look. */
		found = poll_cq(control, wc);
		if (found != 0)
			return found;
		if (atomic_load(&control->disconnected)) {
			our_error("%s disconnected while we waited for a "
				  "completion",
				  control->peer_name);
			return -1;
		}
		if (wait_for_event(control))
			return -1;
	}
}

int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	int found = poll_cq(control, wc);

	if (found == 0) {
		control->counters.empty_polls++;
		found = wait_for_completion(control, wc);
	}
	if (found < 0)
		return -1;
	return our_check_wc(control, wc);
}

void our_print_completion_counters(const struct our_control *control)
{
	const struct our_counters *counters = &control->counters;

	printf("%s: completion channel and poll(): %" PRIu64
	       " ibv_poll_cq calls, %" PRIu64 " first polls found nothing, %"
	       PRIu64 " events received, %" PRIu64 " acknowledged, %" PRIu64
	       " poll() calls\n",
	       our_program_name, counters->polls, counters->empty_polls,
	       counters->cq_events, counters->cq_acked, counters->poll_calls);
}
