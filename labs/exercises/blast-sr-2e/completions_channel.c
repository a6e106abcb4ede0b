// SPDX-License-Identifier: MIT
/*
 * completions_channel.c - blast-sr-2e, an exercise (see its README): the
 * blast waits for its work completions by sleeping on a completion
 * channel, as ping-sr-3's ping-pong does, instead of polling in a loop.
 *
 * As given, this piece still polls busily, as blast-sr-2's does: the
 * blasts work, and the CPU burns while a side waits. The five TODOs turn
 * it into a piece that sleeps. The channel is a file descriptor that the
 * adapter makes readable when an armed CQ gets a completion; every event
 * taken from it must be acknowledged before the CQ is destroyed.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "completions.h"
#include "connection.h"
#include "posting.h"
#include "report.h"

int our_setup_completions(struct our_control *control)
{
	/*
	 * TODO 1: create the completion channel on the id's device
	 * (control->cm_id->verbs) into control->completion_channel, traced
	 * as the kit traces a verb that returns a pointer (report.h). The
	 * CQ, created next, is tied to it. Return 0, or -1.
	 */
	control->completion_channel = NULL; /* no channel: we poll */
	return 0;
}

void our_unsetup_completions(struct our_control *control)
{
	/* TODO 2: destroy the channel (the CQ is gone by now). */
	(void)control;
}

int our_start_completions(struct our_control *control)
{
	/* TODO 3: arm the CQ, now that it exists. Return 0, or -1. */
	(void)control;
	return 0;
}

void our_stop_completions(struct our_control *control)
{
	/*
	 * TODO 4: acknowledge every event taken and not yet acknowledged,
	 * counting them in control->counters.cq_acked: the CQ is destroyed
	 * next, and ibv_destroy_cq waits until they all are.
	 */
	(void)control;
}

int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	uint64_t give_up = 0;
	int found;

	/*
	 * TODO 5: sleep instead of polling in a loop. Poll the CQ; when it
	 * is empty, arm it and poll once more (a completion that came
	 * before the arm raises no event); when it is still empty, sleep
	 * until the channel's fd is readable, take the event, count it in
	 * control->counters.cq_events, and acknowledge events in batches.
	 * While asleep, look up now and then, as this loop does on every
	 * turn, to see whether the wait must end (our_wait_must_end).
	 */
	for (;;) {
		/* Take one completion off the queue, if there is one. */
		found = ibv_poll_cq(control->cq, 1, wc);
		control->counters.polls++;
		if (found > 0)
			break;
		if (found < 0) {
			our_error("ibv_poll_cq: failed with %d", found);
			return -1;
		}
		control->counters.empty_polls++;
		/* The CM piece may have seen the peer go, or Ctrl-C came. */
		if (our_wait_must_end(control, &give_up))
			return -1;
	}
	return our_check_wc(control, wc);
}

void our_print_completion_counters(const struct our_control *control)
{
	const struct our_counters *counters = &control->counters;

	printf("%s: completion channel: %" PRIu64 " ibv_poll_cq calls, %" PRIu64
	       " first polls found nothing, %" PRIu64
	       " events received, %" PRIu64 " acknowledged\n",
	       our_program_name, counters->polls, counters->empty_polls,
	       counters->cq_events, counters->cq_acked);
}
