// SPDX-License-Identifier: MIT
/*
 * completions_poll.c - wait for a work completion in one poll() on two
 * file descriptors: the completion channel, in O_NONBLOCK mode, and the
 * CM event channel (see cm_nonblocking.c). No thread besides main: the
 * program waits the way a socket program does.
 *
 * Poll the CQ first; only when it is empty arm it (ibv_req_notify_cq) and
 * poll again, since a completion that arrived before the arm raises no
 * event; then sleep in poll() until the adapter signals a completion or
 * the CM has news of the connection (see cq_events.c).
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "cm_channel.h"
#include "cm_events.h"
#include "completions.h"
#include "cq_events.h"
#include "instruments.h"
#include "interrupt.h"
#include "nonblocking.h"
#include "posting.h"
#include "report.h"

int our_prepare_cq_channel(struct ibv_comp_channel *channel)
{
	/* Reading the channel must never block: poll() does the waiting. */
	return our_set_nonblocking(channel->fd, "completion channel");
}

/*
 * Sleep in poll() on the completion channel and the CM channel until
 * either has something, and take it; once the peer has disconnected or
 * Ctrl-C came, no longer than the grace period for the transfers on their
 * way. Returns 0, or -1 to end the wait.
 *
 * ppoll() is poll() that also sets the signal mask while it sleeps. Ctrl-C
 * and SIGTERM are blocked while we look at what they note, and unblocked
 * only inside ppoll(): one that comes just before the sleep cuts it short
 * (EINTR) instead of waiting there unseen until the next event.
 */
static int sleep_on_both(struct our_control *control)
{
	/* excerpt both_fds */
	struct pollfd fds[2] = {
		{ .fd = control->cq->channel->fd, .events = POLLIN },
		{ .fd = control->cm_id->channel->fd, .events = POLLIN },
	};
	uint64_t now = our_now_ns();
	uint64_t left = 0;
	/* end excerpt both_fds */
	struct timespec timeout;
	sigset_t interrupts;
	sigset_t awake;
	int ret;
	int err;

	sigemptyset(&interrupts);
	sigaddset(&interrupts, SIGINT);
	sigaddset(&interrupts, SIGTERM);
	sigprocmask(SIG_BLOCK, &interrupts, &awake);
	/* After a disconnect, or Ctrl-C, completions on their way get their
	 * grace period; no longer. */
	if (our_wait_must_end(control)) {
		sigprocmask(SIG_SETMASK, &awake, NULL);
		return -1;
	}
	/* excerpt ppoll */
	if (control->cm->give_up > now)
		left = control->cm->give_up - now;
	timeout = (struct timespec){ .tv_sec = (time_t)(left / 1000000000u),
				     .tv_nsec = (long)(left % 1000000000u) };
	ret = ppoll(fds, 2, control->cm->give_up ? &timeout : NULL, &awake);
	err = errno;
	sigprocmask(SIG_SETMASK, &awake, NULL);
	our_tally(control, "completion channel", "poll() calls", 1);
	if (ret < 0 && err != EINTR) {
		our_error("ppoll: %s", strerror(err));
		return -1;
	}
	/* The CM has news: take it (a disconnect is noted). */
	if (ret > 0 && fds[1].revents)
		our_peer_disconnected(control);
	if (ret > 0 && fds[0].revents)
		return our_take_cq_event(control);
	/* end excerpt ppoll */
	return 0;
}

/* excerpt await */
/* Poll, arm, poll again, then sleep on both channels at once. */
int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	int found;

	/* Poll; when the CQ is empty, arm it and poll again. */
	while ((found = our_poll_or_arm(control, wc)) == 0) {
		/* Then sleep until either channel has news. */
		if (sleep_on_both(control))
			return -1;
	}
	return found < 0 ? -1 : our_check_wc(control, wc);
}
/* end excerpt await */
