// SPDX-License-Identifier: MIT
/*
 * completions_channel.c - wait for a work completion by sleeping on a
 * completion channel until the adapter signals one.
 *
 * Poll the CQ first; only when it is empty arm it (ibv_req_notify_cq) and
 * poll again, since a completion that arrived before the arm raises no
 * event; then sleep until the channel's fd is readable and take the event
 * with ibv_get_cq_event (see cq_events.c). our_await_completion() below
 * is the whole loop. Events are acknowledged in batches, and all of them
 * before the CQ is destroyed (ping-sr-3). The sleep looks up every
 * OUR_LOOKUP_MS to see whether the CM thread saw the peer go; Ctrl-C cuts
 * it short at once (EINTR). The CPU rests while it waits, at the price of
 * a wake-up per completion.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "completions.h"
#include "connection.h"
#include "cq_events.h"
#include "posting.h"
#include "report.h"

/* How often a sleep looks up to check for a disconnect. */
#define OUR_LOOKUP_MS 200

int our_setup_completions(struct our_control *control)
{
	return our_create_completion_channel(control);
}

/*
 * Poll, arm, poll again, sleep: the wait of every program that sleeps on
 * a completion channel. The sleep looks up every OUR_LOOKUP_MS, and a
 * signal cuts it short, so the wait can end when the CM thread saw the
 * peer go or Ctrl-C came (see our_wait_must_end).
 */
int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	struct pollfd channel = { .fd = control->completion_channel->fd,
				  .events = POLLIN };
	uint64_t give_up = 0;
	int found;
	int ret;

	for (;;) {
		/* Poll; when the CQ is empty, arm it and poll again. */
		found = our_poll_or_arm(control, wc);
		if (found > 0)
			return our_check_wc(control, wc);
		if (found < 0)
			return -1;
		/* Sleep until the adapter makes the channel's fd readable. */
		ret = poll(&channel, 1, OUR_LOOKUP_MS);
		if (ret < 0 && errno != EINTR) {
			our_error("poll on the completion channel: %s",
				  strerror(errno));
			return -1;
		}
		if (ret > 0 && our_take_cq_event(control))
			return -1;
		/* Has the CM thread seen the peer go, or did Ctrl-C come? */
		if (ret <= 0 && our_wait_must_end(control, &give_up))
			return -1;
	}
}

void our_print_completion_counters(const struct our_control *control)
{
	our_print_cq_event_counters(control, "completion channel");
}
