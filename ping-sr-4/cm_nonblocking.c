// SPDX-License-Identifier: MIT
/*
 * cm_nonblocking.c - an event channel in O_NONBLOCK mode, watched with
 * poll(): no thread besides main (ping-sr-4).
 *
 * The channel is a file descriptor like a socket's: poll() says when an
 * event is waiting, and rdma_get_cm_event() never blocks, failing with
 * EAGAIN when there is none. While the program waits for a completion,
 * the same poll() watches this channel and the completion channel (see
 * completions_poll.c), so a disconnect of the peer is seen at once.
 *
 * The agent's id is moved to a channel of its own, so that its poll()
 * watches its own connection and nothing else of the listener's; the
 * server's main undoes that channel after the agent's id.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>

#include "cm_channel.h"
#include "cm_events.h"
#include "connection.h"
#include "nonblocking.h"
#include "report.h"

/* poll() on the channel sees the peer hang up while we wait. */
const bool our_cm_sees_hang_up = true;

int our_set_nonblocking(int fd, const char *what)
{
	int flags = fcntl(fd, F_GETFL);
	int ret = flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);

	if (our_verb_failed(ret, "fcntl O_NONBLOCK %s fd %d", what, fd))
		return -1;
	return 0;
}

int our_setup_cm_events(struct rdma_event_channel **channel)
{
	/* The CM queues the events of the ids we attach here for us. */
	*channel = rdma_create_event_channel();
	if (our_verb_null(*channel, "rdma_create_event_channel"))
		return -1;
	/* Reading the channel must never block: poll() does the waiting. */
	if (our_set_nonblocking((*channel)->fd, "CM channel"))
		goto out_destroy_channel;
	return 0;

out_destroy_channel:
	rdma_destroy_event_channel(*channel);
	*channel = NULL;
	return -1;
}

/*
 * Take the next event off channel, sleeping in poll() while there is
 * none. Returns 0 with *event to acknowledge, or -1 (reported).
 */
static int get_event(struct rdma_event_channel *channel,
		     struct rdma_cm_event **event)
{
	struct pollfd channel_fd = { .fd = channel->fd, .events = POLLIN };
	int ret;

	for (;;) {
		/* The CM hands us the oldest event queued on the channel. */
		ret = rdma_get_cm_event(channel, event);
		if (ret == 0)
			break;
		if (errno != EAGAIN) {
			our_verb_failed(ret, "rdma_get_cm_event");
			return -1;
		}
		/* Nothing yet: sleep until the channel's fd is readable. */
		ret = poll(&channel_fd, 1, -1);
		if (ret < 0 && errno != EINTR) {
			our_error("poll CM channel: %s", strerror(errno));
			return -1;
		}
	}
	our_trace(1, "rdma_get_cm_event -> %s, status %d",
		  rdma_event_str((*event)->event), (*event)->status);
	return 0;
}

int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb)
{
	struct rdma_cm_event *event;
	int status = 0;

	if (our_verb_failed(ret, "%s %s", verb, control->peer_name)) {
		if (errno == ENODEV)
			our_explain_no_device(control);
		return -1;
	}
	/* The peer's disconnect may already have been taken off the
	 * channel while we waited for a completion. */
	if (expected == RDMA_CM_EVENT_DISCONNECTED &&
	    atomic_load(&control->disconnected))
		return 0;
	if (get_event(control->cm_channel, &event))
		return -1;
	/* Kept before the event goes back: a rejection's reason is there. */
	our_keep_private_data(control, event);
	if (event->event != expected || event->status) {
		our_explain_cm_event(control, event, expected);
		status = -1;
	} else if (expected == RDMA_CM_EVENT_DISCONNECTED) {
		atomic_store(&control->disconnected, true);
	}
	if (our_ack_cm_event(event))
		status = -1;
	return status;
}

int our_await_request(struct our_listener *listener,
		      struct our_control *control)
{
	struct rdma_cm_event *event;

	if (get_event(listener->cm_channel, &event))
		return -1;
	if (event->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
		our_explain_cm_event(control, event,
				     RDMA_CM_EVENT_CONNECT_REQUEST);
		our_ack_cm_event(event);
		return -1;
	}
	return our_take_request(control, event);
}

int our_watch_connection(struct our_control *control)
{
	(void)control; /* nothing to start: poll() watches the channel */
	return 0;
}

void our_unwatch_connection(struct our_control *control)
{
	(void)control;
}

bool our_peer_disconnected(struct our_control *control)
{
	struct rdma_cm_event *event;
	int ret;

	while (!atomic_load(&control->disconnected)) {
		/* Take an event if one is waiting; the channel never blocks. */
		ret = rdma_get_cm_event(control->cm_channel, &event);
		if (ret) {
			if (errno == EAGAIN)
				break;
			our_verb_failed(ret, "rdma_get_cm_event %s",
					control->peer_name);
			/* Unable to watch the connection: do not wait blind. */
			atomic_store(&control->watch_failed, true);
			break;
		}
		our_trace(1, "rdma_get_cm_event -> %s, status %d",
			  rdma_event_str(event->event), event->status);
		if (event->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			our_explain_cm_event(control, event,
					     RDMA_CM_EVENT_DISCONNECTED);
		if (event->event == RDMA_CM_EVENT_DISCONNECTED ||
		    event->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			atomic_store(&control->disconnected, true);
		if (our_ack_cm_event(event))
			atomic_store(&control->watch_failed, true);
	}
	return atomic_load(&control->disconnected);
}
