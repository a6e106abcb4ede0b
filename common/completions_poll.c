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
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "cq_events.h"
#include "report.h"
#include "stats.h"

int our_setup_completions(struct our_control *control)
{
	return our_create_completion_channel(control, true);
}

/* Milliseconds from now until give_up (our_now_ns() time), at least 0. */
static int ms_until(uint64_t give_up)
{
	uint64_t now = our_now_ns();

	return now >= give_up ? 0 : (int)((give_up - now) / 1000000 + 1);
}

/*
 * Sleep in poll() on the completion channel and the CM channel until
 * either has something, and take it; once the peer has disconnected, no
 * longer than its grace period. Returns 0, or -1 to end the wait
 * (reported).
 */
static int sleep_on_both(struct our_control *control, uint64_t *give_up)
{
	struct pollfd fds[2] = {
		{ .fd = control->completion_channel->fd, .events = POLLIN },
		{ .fd = control->cm_channel->fd, .events = POLLIN },
	};
	int ret;

	/* Only poll() reads the CM channel: after a disconnect it took,
	 * completions on their way get their grace period. */
	if (atomic_load(&control->disconnected) &&
	    our_disconnect_ends_wait(control, give_up))
		return -1;
	ret = poll(fds, 2, *give_up ? ms_until(*give_up) : -1);
	control->counters.poll_calls++;
	if (ret < 0 && errno != EINTR) {
		our_error("poll: %s", strerror(errno));
		return -1;
	}
	if (ret <= 0)
		return 0;
	/* The CM has news: take it (a disconnect sets the flag). */
	if (fds[1].revents)
		our_peer_disconnected(control);
	if (fds[0].revents)
		return our_take_cq_event(control);
	return 0;
}

int our_await_completion(struct our_control *control, struct ibv_wc *wc)
{
	return our_wait_on_cq(control, wc, sleep_on_both);
}

void our_print_completion_counters(const struct our_control *control)
{
	our_print_cq_event_counters(control, "completion channel and poll()");
}
