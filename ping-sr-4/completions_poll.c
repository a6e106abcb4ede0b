// SPDX-License-Identifier: MIT
/*
 * completions_poll.c - wait for a work completion in one poll() on two
 * file descriptors: the completion channel, in O_NONBLOCK mode, and the
 * CM event channel (see cm_nonblocking.c). No thread besides main: the
 * program waits the way a socket program does (ping-sr-4).
 *
 * Poll the CQ first; only when it is empty arm it (ibv_req_notify_cq) and
 * poll again, since a completion that arrived before the arm raises no
 * event; then sleep in poll() until the adapter signals a completion or
 * the CM has news of the connection (see cq_events.c). Events are
 * acknowledged in batches, and all of them before the CQ is destroyed.
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "cq_events.h"
#include "interrupt.h"
#include "nonblocking.h"
#include "posting.h"
#include "report.h"
#include "stats.h"

int our_setup_completions(struct our_control *control)
{
	if (our_create_completion_channel(control))
		return -1;
	/* Reading the channel must never block: poll() does the waiting. */
	if (our_set_nonblocking(control->completion_channel->fd,
				"completion channel")) {
		our_destroy_completion_channel(control);
		return -1;
	}
	return 0;
}

/* The time from now until give_up (our_now_ns() time), at least 0. */
static struct timespec time_until(uint64_t give_up)
{
	uint64_t now = our_now_ns();
	uint64_t left = now >= give_up ? 0 : give_up - now;

	return (struct timespec){ .tv_sec = (time_t)(left / 1000000000u),
				  .tv_nsec = (long)(left % 1000000000u) };
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
static int sleep_on_both(struct our_control *control, uint64_t *give_up)
{
	struct pollfd fds[2] = {
		{ .fd = control->completion_channel->fd, .events = POLLIN },
		{ .fd = control->cm_channel->fd, .events = POLLIN },
	};
	struct timespec timeout;
	sigset_t interrupts;
	sigset_t awake;
	int ret;
	int err;

	our_interrupt_signals(&interrupts);
	sigprocmask(SIG_BLOCK, &interrupts, &awake);
	/* Only poll() reads the CM channel: after a disconnect it took, or
	 * Ctrl-C, completions on their way get their grace period. */
	if ((atomic_load(&control->disconnected) ||
	     atomic_load(&control->watch_failed) || our_interrupted()) &&
	    our_wait_must_end(control, give_up)) {
		sigprocmask(SIG_SETMASK, &awake, NULL);
		return -1;
	}
	/* excerpt ppoll */
	timeout = time_until(*give_up);
	ret = ppoll(fds, 2, *give_up ? &timeout : NULL, &awake);
	err = errno;
	sigprocmask(SIG_SETMASK, &awake, NULL);
	control->counters.poll_calls++;
	if (ret < 0 && err != EINTR) {
		our_error("ppoll: %s", strerror(err));
		return -1;
	}
	if (ret <= 0)
		return 0;
	/* The CM has news: take it (a disconnect sets the flag). */
	if (fds[1].revents)
		our_peer_disconnected(control);
	if (fds[0].revents)
		return our_take_cq_event(control);
	/* end excerpt ppoll */
	return 0;
}

/* Poll, arm, poll again, then sleep on both channels at once. */
int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	uint64_t give_up = 0;
	int found;

	for (;;) {
		/* Poll; when the CQ is empty, arm it and poll again. */
		found = our_poll_or_arm(control, wc);
		if (found)
			break;
		/* Then sleep until either channel has news. */
		if (sleep_on_both(control, &give_up))
			return -1;
	}
	return found < 0 ? -1 : our_check_wc(control, wc);
}

void our_print_completion_counters(const struct our_control *control)
{
	our_print_cq_event_counters(control, "completion channel and poll()");
}
