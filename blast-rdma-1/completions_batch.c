// SPDX-License-Identifier: MIT
/*
 * completions_batch.c - a completion queue without a channel, and the
 * wait for a work completion by polling it in a loop, taking up to
 * OUR_POLL_BATCH completions at a time.
 *
 * One ibv_poll_cq call can take a stream's completions in a bunch. Those
 * it takes wait in control->completions until the exchange asks for
 * them, one at a time, as completions.h says.
 */
#include <stdlib.h>

#include "cm_events.h"
#include "completions.h"
#include "instruments.h"
#include "posting.h"
#include "report.h"

/* The most completions one ibv_poll_cq takes. */
#define OUR_POLL_BATCH 16

/* What the wait keeps: the completions taken and not handed out yet. */
struct our_completions {
	struct ibv_wc polled[OUR_POLL_BATCH];
	int count; /* taken by the last ibv_poll_cq */
	int next;  /* the next to hand out */
};

int our_create_cq(struct our_control *control)
{
	int entries = (int)(control->send_depth + control->recv_depth);

	control->completions = calloc(1, sizeof(*control->completions));
	if (!control->completions) {
		our_error("no memory for %d work completions", OUR_POLL_BATCH);
		return -1;
	}
	/* The adapter puts a completion here for each receive done and
	 * each flagged send; no channel: we poll for them. */
	control->cq = ibv_create_cq(control->cm_id->verbs, entries, control,
				    NULL, 0);
	if (our_verb_failed(!control->cq, "ibv_create_cq entries=%d",
			    entries)) {
		free(control->completions);
		control->completions = NULL;
		return -1;
	}
	return 0;
}

void our_destroy_cq(struct our_control *control)
{
	int ret = ibv_destroy_cq(control->cq);

	our_verb_error(ret, "ibv_destroy_cq");
	control->cq = NULL;
	free(control->completions);
	control->completions = NULL;
}

/* excerpt batch */
int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	/* excerpt batch_poll */
	struct our_completions *batch = control->completions;

	/* Poll again only once every completion taken is handed out. */
	while (batch->next == batch->count) {
		int found = ibv_poll_cq(control->cq, OUR_POLL_BATCH,
					batch->polled);

		our_tally(control, "batch polling", "ibv_poll_cq calls", 1);
		if (found < 0) {
			our_error("ibv_poll_cq: failed with %d", found);
			return -1;
		}
		batch->count = found;
		batch->next = 0;
		if (found > 0) {
			our_tally_size(control, "batch polling",
				       "completions per call that found any",
				       (uint32_t)found);
			break;
		}
		our_tally(control, "batch polling", "found nothing", 1);
		/* The peer may have been seen to go, or Ctrl-C came. */
		if (our_wait_must_end(control))
			return -1;
	}
	/* end excerpt batch_poll */
	/* excerpt batch_hand */
	*wc = batch->polled[batch->next++];
	return our_check_wc(control, wc);
	/* end excerpt batch_hand */
}
/* end excerpt batch */
