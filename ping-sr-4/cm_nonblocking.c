// SPDX-License-Identifier: MIT
/*
 * cm_nonblocking.c - an event channel in O_NONBLOCK mode, watched with
 * poll(): no thread besides main.
 *
 * The channel is a file descriptor like a socket's: poll() says when an
 * event is waiting, and rdma_get_cm_event() never blocks, failing with
 * EAGAIN when there is none. While the program waits for a completion,
 * the same poll() watches this channel and the completion channel (see
 * completions_poll.c), so a disconnect of the peer is seen at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "cm_channel.h"
#include "cm_events.h"
#include "connection.h"
#include "instruments.h"
#include "nonblocking.h"
#include "report.h"

int our_set_nonblocking(int fd, const char *what)
{
	int flags = fcntl(fd, F_GETFL);
	int ret = flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);

	if (our_verb_failed(ret, "fcntl O_NONBLOCK %s fd %d", what, fd))
		return -1;
	return 0;
}

int our_prepare_channel(struct rdma_event_channel *channel)
{
	/* Reading the channel must never block: poll() does the waiting. */
	return our_set_nonblocking(channel->fd, "CM channel");
}

/*
 * Take the next event off channel, sleeping in poll() while there is
 * none. Returns 0 with *event to give back, or -1 (reported).
 */
static int get_event(struct rdma_event_channel *channel,
		     struct rdma_cm_event **event)
{
	struct pollfd channel_fd = { .fd = channel->fd, .events = POLLIN };

	/* The CM hands us the oldest event queued on the channel. */
	while (rdma_get_cm_event(channel, event)) {
		if (errno != EAGAIN) {
			our_verb_failed(-1, "rdma_get_cm_event");
			return -1;
		}
		/* Nothing yet: sleep until the channel's fd is readable. */
		if (poll(&channel_fd, 1, -1) < 0 && errno != EINTR) {
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
	int status;

	if (our_verb_failed(ret, "%s %s", verb, control->peer_name)) {
		our_explain_cm_failure(control->peer_name, NULL);
		return -1;
	}
	if (get_event(control->cm_id->channel, &event))
		return -1;
	status = our_check_cm_event(control->peer_name, event, expected);
	return our_ack_cm_event(event) ? -1 : status;
}

int our_await_request(struct our_listener *listener,
		      struct rdma_cm_event **event)
{
	if (get_event(listener->cm_id->channel, event))
		return -1;
	if (our_check_cm_event("a client", *event,
			       RDMA_CM_EVENT_CONNECT_REQUEST) == 0)
		return 0;
	our_ack_cm_event(*event);
	return -1;
}

int our_start_watching(struct our_control *control)
{
	(void)control; /* nothing to start: poll() watches the channel */
	return 0;
}

void our_disconnect(struct our_control *control)
{
	/* Once the peer has gone, its disconnect was taken already; after
	 * a run that Ctrl-C or a silent peer ended, no answer is awaited.
	 * (Asked first: the channel's EAGAIN would hide why rdma_disconnect
	 * failed.) */
	bool answers = control->end == OUR_RUN_AS_PLANNED &&
		       !our_peer_disconnected(control);
	/* The CM tells the peer we are going; our queue pair goes to the
	 * error state and any work still posted is flushed. */
	int ret = rdma_disconnect(control->cm_id);

	if (answers)
		our_await_cm_event(control, ret, RDMA_CM_EVENT_DISCONNECTED,
				   "rdma_disconnect");
	free(control->cm);
	control->cm = NULL;
}

bool our_peer_disconnected(struct our_control *control)
{
	struct our_cm *cm = control->cm;
	struct rdma_cm_event *event;

	/* Take every event waiting, even after the disconnect: one left
	 * there would keep poll() from sleeping. The channel never blocks. */
	while (cm && !atomic_load(&cm->failed)) {
		if (rdma_get_cm_event(control->cm_id->channel, &event)) {
			if (errno == EAGAIN)
				break;
			/* Unable to watch the connection: do not wait
			 * blind, and do not blame the peer. */
			our_verb_failed(-1, "rdma_get_cm_event %s",
					control->peer_name);
			atomic_store(&cm->failed, true);
			atomic_store(&cm->disconnected, true);
			break;
		}
		our_trace(1, "rdma_get_cm_event -> %s, status %d",
			  rdma_event_str(event->event), event->status);
		if (event->event == RDMA_CM_EVENT_DISCONNECTED ||
		    event->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			atomic_store(&cm->disconnected, true);
		our_ack_cm_event(event);
	}
	return cm && atomic_load(&cm->disconnected);
}
