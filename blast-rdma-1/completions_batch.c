// SPDX-License-Identifier: MIT
/*
 * completions_batch.c - wait for a work completion by polling the
 * completion queue in a loop, taking up to OUR_POLL_BATCH at a time.
 *
 * ping-sr-0's completions_busy.c takes one completion per ibv_poll_cq.
 * A stream's completions come in bunches: one call can take them all.
 * Those it takes wait in control->polled until the exchange asks for
 * them, one at a time, as completions.h says. With -x, the program shows
 * how many each call found.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "posting.h"
#include "report.h"
#include "stats.h"

/* The most completions one ibv_poll_cq takes. */
#define OUR_POLL_BATCH 16

int our_setup_completions(struct our_control *control)
{
	control->completion_channel = NULL; /* no channel: we poll */
	control->polled = calloc(OUR_POLL_BATCH, sizeof(*control->polled));
	if (!control->polled) {
		our_error("no memory for %d work completions", OUR_POLL_BATCH);
		return -1;
	}
	control->polled_count = 0;
	control->polled_next = 0;
	return 0;
}

void our_unsetup_completions(struct our_control *control)
{
	free(control->polled);
	control->polled = NULL;
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

/* excerpt batch */
int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	uint64_t give_up = 0;
	int found;

	/* Poll again only once every completion taken is handed out. */
	while (control->polled_next == control->polled_count) {
		found = ibv_poll_cq(control->cq, OUR_POLL_BATCH,
				    control->polled);
		control->counters.polls++;
		if (found > 0) {
			control->polled_count = found;
			control->polled_next = 0;
			our_count_size(control->counters.batches,
				       (uint32_t)found);
			break;
		}
		if (found < 0) {
			our_error("ibv_poll_cq: failed with %d", found);
			return -1;
		}
		control->counters.empty_polls++;
		/* The CM piece may have seen the peer go, or Ctrl-C came. */
		if (our_wait_must_end(control, &give_up))
			return -1;
	}
	*wc = control->polled[control->polled_next++];
	return our_check_wc(control, wc);
}
/* end excerpt batch */

void our_print_completion_counters(const struct our_control *control)
{
	printf("%s: batch polling: %" PRIu64 " ibv_poll_cq calls of up to "
	       "%d, %" PRIu64 " found nothing; completions per call that "
	       "found any: ",
	       our_program_name, control->counters.polls, OUR_POLL_BATCH,
	       control->counters.empty_polls);
	our_print_sizes(control->counters.batches);
	printf("\n");
}
