// SPDX-License-Identifier: MIT
/*
 * completions_busy.c - wait for a work completion by polling the
 * completion queue in a loop.
 *
 * The fastest way to see a completion, and the costliest: the loop burns
 * a whole CPU while it waits (problem 3, solved in ping-sr-3).
 */
#include <inttypes.h>
#include <stdio.h>

#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "posting.h"
#include "report.h"

int our_setup_completions(struct our_control *control)
{
	control->completion_channel = NULL; /* no channel: we poll */
	return 0;
}

void our_unsetup_completions(struct our_control *control)
{
	(void)control;
}

int our_start_completions(struct our_control *control)
{
	(void)control;
	return 0;
}

void our_stop_completions(struct our_control *control)
{
	(void)control;
}

int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	uint64_t give_up = 0;
	int found;

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
	printf("%s: busy polling: %" PRIu64 " ibv_poll_cq calls, %" PRIu64
	       " found nothing\n",
	       our_program_name, control->counters.polls,
	       control->counters.empty_polls);
}
