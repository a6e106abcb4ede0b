// SPDX-License-Identifier: MIT
/*
 * completions_channel.c - wait for a work completion by sleeping on a
 * completion channel until the adapter signals one.
 *
 * Poll the CQ first; only when it is empty arm it and poll again, since
 * a completion that arrived before the arm raises no event; then sleep
 * until the channel's fd is readable and take the event (see
 * cq_events.c). The sleep looks up every OUR_LOOKUP_MS to see whether
 * the CM piece saw the peer go, or Ctrl-C came; Ctrl-C cuts it short at
 * once (EINTR) when this thread is the one that takes it.
 * The CPU rests while it waits, at the price of a wake-up per completion.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "cm_events.h"
#include "completions.h"
#include "cq_events.h"
#include "posting.h"
#include "report.h"

/* How often a sleep looks up to check for a disconnect. */
#define OUR_LOOKUP_MS 200

int our_prepare_cq_channel(struct ibv_comp_channel *channel)
{
	(void)channel; /* reading it blocks until an event comes */
	return 0;
}

/* excerpt await */
int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	/* excerpt wait */
	struct pollfd channel = { .fd = control->cq->channel->fd,
				  .events = POLLIN };
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
		/* Has the peer been seen to go, or did Ctrl-C come? */
		if (ret <= 0 && our_wait_must_end(control))
			return -1;
	}
	/* end excerpt wait */
}
/* end excerpt await */
