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
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "cm_events.h"
#include "completions.h"
#include "instruments.h"
#include "posting.h"
#include "report.h"

/* What this piece keeps: control->completions. */
struct our_completions {
	unsigned int unacked; /* events taken and not yet acknowledged */
};

int our_create_cq(struct our_control *control)
{
	int entries = (int)(control->send_depth + control->recv_depth);
	struct ibv_comp_channel *channel = NULL; /* none: we poll */

	control->completions = calloc(1, sizeof(*control->completions));
	if (!control->completions) {
		our_error("no memory for the completion channel");
		return -1;
	}
	/*
	 * TODO 1: create a completion channel on the id's device
	 * (control->cm_id->verbs) into channel, checked and traced as the
	 * kit does a verb that returns a pointer (report.h). The CQ,
	 * created next, is tied to it. When a step fails, undo the ones
	 * before and return -1.
	 */
	/* The adapter puts a completion here for each work request done. */
	control->cq = ibv_create_cq(control->cm_id->verbs, entries, control,
				    channel, 0);
	if (our_verb_failed(!control->cq, "ibv_create_cq entries=%d", entries))
		goto out_free;
	/*
	 * TODO 2: arm the CQ, now that it exists: its next completion
	 * raises an event on the channel.
	 */
	return 0;

out_free:
	free(control->completions);
	control->completions = NULL;
	return -1;
}

void our_destroy_cq(struct our_control *control)
{
	int ret;

	/*
	 * TODO 3: acknowledge every event taken and not yet acknowledged
	 * (control->completions->unacked): ibv_destroy_cq waits until they
	 * all are.
	 */
	ret = ibv_destroy_cq(control->cq);
	our_verb_error(ret, "ibv_destroy_cq");
	/* TODO 4: destroy the channel, now that the CQ is gone. */
	free(control->completions);
	control->completions = NULL;
	control->cq = NULL;
}

int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	int found;

	/*
	 * TODO 5: sleep instead of polling in a loop. Poll the CQ; when it
	 * is empty, arm it and poll once more (a completion that came
	 * before the arm raises no event); when it is still empty, sleep
	 * until the channel's fd is readable, and take the event,
	 * counting it for -x (our_tally(control, "completion channel",
	 * "events received", 1)) and acknowledging events in batches.
	 * While asleep, look up now and then, as this loop does on every
	 * turn, to see whether the wait must end (our_wait_must_end).
	 */
	for (;;) {
		/* Take one completion off the queue, if there is one. */
		found = ibv_poll_cq(control->cq, 1, wc);
		our_tally(control, "busy polling", "ibv_poll_cq calls", 1);
		if (found > 0)
			return our_check_wc(control, wc);
		if (found < 0) {
			our_error("ibv_poll_cq: failed with %d", found);
			return -1;
		}
		our_tally(control, "busy polling", "found nothing", 1);
		/* The CM piece may have seen the peer go, or Ctrl-C came. */
		if (our_wait_must_end(control))
			return -1;
	}
}
