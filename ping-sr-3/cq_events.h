/* SPDX-License-Identifier: MIT */
/*
 * cq_events.h - a completion queue with a completion channel, shared by
 * the pieces that sleep on one (completions_channel.c here,
 * completions_poll.c in ping-sr-4). cq_events.c implements for both
 * our_create_cq and our_destroy_cq of completions.h.
 */
#ifndef OUR_CQ_EVENTS_H
#define OUR_CQ_EVENTS_H

#include "control.h"

/* What the wait keeps: control->completions. (The channel is
 * control->cq->channel.) */
struct our_completions {
	unsigned int unacked; /* events taken and not yet acknowledged */
};

/*
 * Prepare the new completion channel, before the CQ is created on it:
 * put it in the mode the piece waits in. Returns 0, or -1 (reported).
 */
int our_prepare_cq_channel(struct ibv_comp_channel *channel);

/*
 * Poll the CQ for one completion into wc. When it is empty, arm it and
 * poll again: a completion that came before the arm raised no event, and
 * only this second poll finds it. Returns 1 with a completion in wc, 0
 * when the CQ is empty and armed (its next completion will raise an
 * event: now the caller may sleep), or -1 (reported).
 */
int our_poll_or_arm(struct our_control *control, struct ibv_wc *wc);

/*
 * Take the event waiting on the completion channel, acknowledging events
 * in batches. On a non-blocking channel with no event, returns 0 all the
 * same. Returns 0, or -1 (reported).
 */
int our_take_cq_event(struct our_control *control);

#endif
