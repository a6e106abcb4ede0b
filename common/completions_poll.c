// SPDX-License-Identifier: MIT
/*
 * completions_poll.c - wait for a work completion in one poll() on two
 * file descriptors: the completion channel, in O_NONBLOCK mode, and the
 * CM event channel (see cm_nonblocking.c). No thread besides main: the
 * program waits the way a socket program does (ping-sr-4).
 *
 * Poll the CQ first; only when it is empty arm it (ibv_req_notify_cq) and
 * poll again, since a completion that arrived before the arm raises no
 * event; then sleep in poll() until the adapter signals a completion or
 * the CM has news of the connection. Events are acknowledged in batches,
 * and all of them before the CQ is destroyed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "posting.h"
#include "report.h"

/* Events are acknowledged this many at a time: each ack takes a lock. */
#define OUR_ACK_BATCH 16

int our_setup_completions(struct our_control *control)
{
	struct ibv_comp_channel *channel;
	int flags;
	int ret;

	/* A file descriptor the adapter makes readable on a completion. */
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

/* The completion channel's fd is readable: take the event. 0 or -1. */
static int take_cq_event(struct our_control *control)
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
	control->counters.cq_events++;
	if (control->counters.cq_events - control->counters.cq_acked >=
	    OUR_ACK_BATCH)
		ack_events(control);
	return 0;
}

/* Milliseconds from now until give_up (our_now_ns() time), at least 0. */
static int ms_until(uint64_t give_up)
{
	uint64_t now = our_now_ns();

	return now >= give_up ? 0 : (int)((give_up - now) / 1000000 + 1);
}

/*
 * Sleep in poll() on the completion channel and the CM channel until
 * either has something, and take it; once the peer has disconnected, no
 * longer than until give_up. Returns 0, or -1 (reported).
 */
static int wait_for_event(struct our_control *control, uint64_t give_up)
{
	struct pollfd fds[2] = {
		{ .fd = control->completion_channel->fd, .events = POLLIN },
		/* With no CM channel (CM verbs that block), -1: ignored. */
		{ .fd = control->cm_channel ? control->cm_channel->fd : -1,
		  .events = POLLIN },
	};
	int ret;

	ret = poll(fds, 2, give_up ? ms_until(give_up) : -1);
	control->counters.poll_calls++;
	if (ret < 0) {
		if (errno == EINTR)
			return 0;
		our_error("poll: %s", strerror(errno));
		return -1;
	}
	/* The CM has news: take it (a disconnect sets the flag). */
	if (fds[1].revents)
		our_peer_disconnected(control);
	if (fds[0].revents)
		return take_cq_event(control);
	return 0;
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
		/* Only poll() reads the CM channel: after a disconnect it
		 * took, completions on their way get their grace period. */
		if (atomic_load(&control->disconnected) &&
		    our_disconnect_ends_wait(control, &give_up))
			return -1;
		if (wait_for_event(control, give_up))
			return -1;
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
