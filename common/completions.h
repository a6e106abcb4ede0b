/* SPDX-License-Identifier: MIT */
/*
 * completions.h - how a stage waits for work completions.
 *
 * Each stage links exactly one piece that implements this header:
 *   ping-sr-0/completions_busy.c     ibv_poll_cq in a loop (ping-sr-0 to
 *                                    ping-sr-2, blast-sr-2, ping-rdma-1
 *                                    and 2)
 *   ping-sr-3/completions_channel.c  sleep on a completion channel
 *                                    (ping-sr-3, atomic-1)
 *   ping-sr-4/completions_poll.c     a completion channel in O_NONBLOCK
 *                                    mode; one poll() on it and on the
 *                                    CM channel (ping-sr-4)
 *   blast-rdma-1/completions_batch.c ibv_poll_cq in a loop, up to 16
 *                                    completions a call (blast-rdma-1)
 * The two with a channel share ping-sr-3/cq_events.c.
 */
#ifndef OUR_COMPLETIONS_H
#define OUR_COMPLETIONS_H

#include "control.h"

/*
 * Called by our_setup_qp() before the completion queue is created: set up
 * what the piece needs (a completion channel, for instance) in control.
 * Returns 0, or -1 (reported). Undo with our_unsetup_completions(), after
 * the completion queue is destroyed.
 */
int our_setup_completions(struct our_control *control);
void our_unsetup_completions(struct our_control *control);

/*
 * Called by our_setup_qp() once the completion queue exists.
 * Returns 0, or -1 (reported).
 */
int our_start_completions(struct our_control *control);

/* Called by our_unsetup_qp() before the completion queue is destroyed. */
void our_stop_completions(struct our_control *control);

/*
 * Wait for the next work completion and copy it into wc. Returns 0 for a
 * successful completion; -1 for a failed one or a failed verb (reported),
 * or when the peer went away or Ctrl-C came while it waited (then
 * control->end says which, for our_end_of_run).
 */
int our_await_completion(struct our_control *control, struct ibv_wc *wc);

/* Print, for -x, what the piece counted. */
void our_print_completion_counters(const struct our_control *control);

#endif
