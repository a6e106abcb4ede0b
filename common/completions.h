/* SPDX-License-Identifier: MIT */
/*
 * completions.h - the completion queue, and how a stage waits for its
 * work completions.
 *
 * Each stage links exactly one piece that implements this header:
 *   ping-sr-0/completions_busy.c      ibv_poll_cq in a loop
 *   ping-sr-3/completions_channel.c   sleep on a completion channel
 *   ping-sr-4/completions_poll.c      a completion channel in O_NONBLOCK
 *                                     mode; one poll() on it and on the
 *                                     CM channel
 *   blast-rdma-1/completions_batch.c  ibv_poll_cq in a loop, up to 16
 *                                     completions a call
 * The two with a channel share ping-sr-3/cq_events.c.
 */
#ifndef OUR_COMPLETIONS_H
#define OUR_COMPLETIONS_H

#include "control.h"

/*
 * Create control->cq, deep enough for control's depths, with what the
 * program waits on, if anything (a completion channel). Returns 0, or -1
 * (reported) with nothing left. Undo with our_destroy_cq().
 */
int our_create_cq(struct our_control *control);
void our_destroy_cq(struct our_control *control);

/*
 * Wait for the next work completion and copy it into wc. Returns 0 for a
 * successful completion, or for a send's failure that no longer matters
 * once the count is done (see our_check_wc); -1 for another failure or a
 * failed verb (reported), or when the peer went away or Ctrl-C came while
 * it waited (then control->end says which, for our_end_run).
 */
int our_await_completion(struct our_control *control, struct ibv_wc *wc);

#endif
