/* SPDX-License-Identifier: MIT */
/*
 * cq_events.h - the completion channel's verbs, shared by the pieces that
 * sleep on one (completions_channel.c and completions_poll.c). cq_events.c
 * also implements our_unsetup_completions, our_start_completions (arm the
 * CQ) and our_stop_completions (acknowledge every event) for both.
 */
#ifndef OUR_CQ_EVENTS_H
#define OUR_CQ_EVENTS_H

#include <stdbool.h>
#include "control.h"

/*
 * Create control->completion_channel, in O_NONBLOCK mode when nonblocking
 * is true. Returns 0, or -1 (reported) with nothing left.
 * Undo with our_destroy_completion_channel().
 */
int our_create_completion_channel(struct our_control *control,
				  bool nonblocking);
void our_destroy_completion_channel(struct our_control *control);

/* Arm the CQ: its next completion raises an event. Returns 0 or -1. */
int our_arm_cq(struct our_control *control);

/* Acknowledge every event taken and not yet acknowledged. */
void our_ack_cq_events(struct our_control *control);

/*
 * Take one completion off the CQ into wc, counting the poll: 1, 0 when
 * the CQ is empty, or -1 (reported).
 */
int our_poll_cq_once(struct our_control *control, struct ibv_wc *wc);

/*
 * Take the event waiting on the completion channel, counting it and
 * acknowledging in batches. On a non-blocking channel with no event,
 * returns 0 all the same. Returns 0, or -1 (reported).
 */
int our_take_cq_event(struct our_control *control);

/*
 * The wait both pieces share: poll the CQ; when it is empty, arm it and
 * poll again (a completion that came before the arm raised no event), and
 * only then call sleep(control, &give_up) until something may have
 * happened; sleep returns -1 to end the wait. Counts the first polls that
 * found nothing. Returns 0 with a successful completion in wc, or -1
 * (reported).
 */
int our_wait_on_cq(struct our_control *control, struct ibv_wc *wc,
			    int (*sleep)(struct our_control *control,
					 uint64_t *give_up));

/* Print the counters of a piece that sleeps on a completion channel. */
void our_print_cq_event_counters(const struct our_control *control,
				 const char *how);

#endif
