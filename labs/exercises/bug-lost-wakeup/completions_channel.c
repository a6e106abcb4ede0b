// SPDX-License-Identifier: MIT
/*
 * completions_channel.c - wait for a work completion by sleeping on a
 * completion channel until the adapter signals one.
 *
 * bug-lost-wakeup, a bug hunt: a completions piece that sleeps, with one
 * mistake in it (see README.md).
 *
 * Arm the CQ (ibv_req_notify_cq): its next completion then raises an
 * event on the channel. Sleep until the channel's fd is readable, take
 * the event (see cq_events.c) and poll the CQ for the completion. The
 * sleep looks up every OUR_LOOKUP_MS to see whether the CM piece saw the
 * peer go, or Ctrl-C came; Ctrl-C cuts it short at once (EINTR) when this
 * thread is the one that takes it. The CPU rests while it waits, at the
 * price of a wake-up per completion.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "cm_events.h"
#include "completions.h"
#include "cq_events.h"
#include "instruments.h"
#include "posting.h"
#include "report.h"

/* How often a sleep looks up to check for a disconnect. */
#define OUR_LOOKUP_MS 200

int our_prepare_cq_channel(struct ibv_comp_channel *channel)
{
	(void)channel; /* reading it blocks until an event comes */
	return 0;
}

/* Arm the CQ: its next completion raises an event. Returns 0 or -1. */
static int arm_cq(struct our_control *control)
{
	int ret = ibv_req_notify_cq(control->cq, 0);

	return our_verb_error(ret, "ibv_req_notify_cq") ? -1 : 0;
}

/*
 * Sleep until the channel's fd says that the CQ has had a completion
 * since it was armed, and take that event. Looks up every OUR_LOOKUP_MS
 * to see whether the wait must end (see our_wait_must_end). Returns 0,
 * or -1 (reported, or control->end says why).
 */
static int sleep_until_event(struct our_control *control)
{
	struct pollfd channel = { .fd = control->cq->channel->fd,
				  .events = POLLIN };
	int ret;

	for (;;) {
		ret = poll(&channel, 1, OUR_LOOKUP_MS);
		if (ret < 0 && errno != EINTR) {
			our_error("poll on the completion channel: %s",
				  strerror(errno));
			return -1;
		}
		if (ret > 0)
			return our_take_cq_event(control);
		/* Has the peer been seen to go, or did Ctrl-C come? */
		if (our_wait_must_end(control))
			return -1;
	}
}

int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	int found;

	for (;;) {
		/* Arm the CQ, sleep until its next completion raises an
		 * event, then take that completion. */
		if (arm_cq(control))
			return -1;
		if (sleep_until_event(control))
			return -1;
		found = ibv_poll_cq(control->cq, 1, wc);
		our_tally(control, "completion channel", "ibv_poll_cq calls",
			  1);
		if (found > 0)
			return our_check_wc(control, wc);
		if (found < 0) {
			our_error("ibv_poll_cq: failed with %d", found);
			return -1;
		}
	}
}
