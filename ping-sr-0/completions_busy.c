// SPDX-License-Identifier: MIT
/*
 * completions_busy.c - a completion queue without a channel, and the wait
 * for a work completion by polling it in a loop.
 *
 * The fastest way to see a completion, and the costliest: the loop burns
 * a whole CPU while it waits (ping-sr-0's problem 3).
 */
#include "cm_events.h"
#include "completions.h"
#include "instruments.h"
#include "posting.h"
#include "report.h"

int our_create_cq(struct our_control *control)
{
	int entries = (int)(control->send_depth + control->recv_depth);

	/* The adapter puts a completion here for each receive done and
	 * each flagged send; no channel: we poll for them. */
	control->cq = ibv_create_cq(control->cm_id->verbs, entries, control,
				    NULL, 0);
	if (our_verb_failed(!control->cq, "ibv_create_cq entries=%d", entries))
		return -1;
	return 0;
}

void our_destroy_cq(struct our_control *control)
{
	int ret = ibv_destroy_cq(control->cq);

	our_verb_error(ret, "ibv_destroy_cq");
	control->cq = NULL;
}

/* excerpt await */
int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	int found;

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
		/* The peer may have been seen to go, or Ctrl-C came. */
		if (our_wait_must_end(control))
			return -1;
	}
}
/* end excerpt await */
