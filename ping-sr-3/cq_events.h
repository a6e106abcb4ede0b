/* SPDX-License-Identifier: MIT */
/*
 * cq_events.h - the completion channel's verbs, shared by the pieces that
 * sleep on one (completions_channel.c here, completions_poll.c in
 * ping-sr-4). cq_events.c also implements our_unsetup_completions,
 * our_start_completions (arm the CQ) and our_stop_completions (acknowledge
 * every event) of completions.h for both.
 */
#ifndef OUR_CQ_EVENTS_H
#define OUR_CQ_EVENTS_H

#include "control.h"

/*
 * Create control->completion_channel. Returns 0, or -1 (reported) with
 * nothing left. Undo with our_destroy_completion_channel().
 */
int our_create_completion_channel(struct our_control *control);
void our_destroy_completion_channel(struct our_control *control);

/* Acknowledge every event taken and not yet acknowledged. */
void our_ack_cq_events(struct our_control *control);

/*
 * Poll the CQ for one completion into wc. When it is empty, arm it and
 * poll again: a completion that came before the arm raised no event, and
 * only this second poll finds it. Returns 1 with a completion in wc, 0
 * when the CQ is empty and armed (its next completion will raise an
 * event: now the caller may sleep), or -1 (reported).
 */
int our_poll_or_arm(struct our_control *control, struct ibv_wc *wc);

/*
 * Take the event waiting on the completion channel, counting it and
 * acknowledging in batches. On a non-blocking channel with no event,
 * returns 0 all the same. Returns 0, or -1 (reported).
 */
int our_take_cq_event(struct our_control *control);

/* Print the counters of a piece that sleeps on a completion channel. */
void our_print_cq_event_counters(const struct our_control *control,
				 const char *how);

#endif
