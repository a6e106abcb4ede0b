// SPDX-License-Identifier: MIT
/*
 * cm_thread.c - an explicit event channel, and a thread that watches it
 * once the connection is up.
 *
 * During set-up the program waits for each CM event on its channel in
 * turn. Once connected, a thread takes every event that arrives and
 * records the latest; when it sees the peer disconnect it sets
 * control->disconnected, which the completion loop checks while it waits
 * (ping-sr-2, ping-sr-3, blast-sr-2). The thread calls no verb on the
 * queue pair: the main thread owns it.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "cm_channel.h"
#include "cm_events.h"
#include "connection.h"
#include "interrupt.h"
#include "report.h"

/* The thread sees the peer hang up while the main thread waits. */
const bool our_cm_sees_hang_up = true;

/* How often the thread looks up from its channel to see if it must stop. */
#define OUR_WATCH_INTERVAL_MS 100
/* How long our own disconnect may take to be confirmed. */
#define OUR_DISCONNECT_WAIT_MS 3000

int our_setup_cm_events(struct rdma_event_channel **channel)
{
	/* The CM reports the events of our ids on this channel's fd. */
	*channel = rdma_create_event_channel();
	if (our_verb_null(*channel, "rdma_create_event_channel"))
		return -1;
	return 0;
}

/*
 * Take the next event from channel; it must be expected, and is then
 * returned in *event, still to be acknowledged. Otherwise it is explained,
 * acknowledged, and -1 returned.
 */
static int get_event(struct our_control *control,
		     struct rdma_event_channel *channel,
		     enum rdma_cm_event_type expected,
		     struct rdma_cm_event **event)
{
	int ret;

	/* Block until the CM has an event for one of the channel's ids. */
	ret = rdma_get_cm_event(channel, event);
	if (our_verb_failed(ret, "rdma_get_cm_event"))
		return -1;
	our_trace(1, "rdma_get_cm_event -> %s (status %d)",
		  rdma_event_str((*event)->event), (*event)->status);
	our_keep_private_data(control, *event);
	if ((*event)->event == expected && (*event)->status == 0)
		return 0;
	our_explain_cm_event(control, *event, expected);
	our_ack_cm_event(*event);
	return -1;
}

int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb)
{
	struct rdma_cm_event *event;

	if (expected == RDMA_CM_EVENT_DISCONNECTED &&
	    control->cm_thread_started) {
		/* The thread takes the event and ends on it. A failure after
		 * the peer has gone is expected: it is not reported. */
		if (ret == 0 || !atomic_load(&control->disconnected))
			our_verb_failed(ret, "%s %s", verb, control->peer_name);
		for (int waited = 0; waited < OUR_DISCONNECT_WAIT_MS &&
				     !atomic_load(&control->disconnected) &&
				     !atomic_load(&control->watch_failed);
		     waited += 10)
			poll(NULL, 0, 10);
		our_unwatch_connection(control);
		return 0;
	}
	if (our_verb_failed(ret, "%s %s", verb, control->peer_name)) {
		if (errno == ENODEV)
			our_explain_no_device(control);
		return -1;
	}
	if (get_event(control, control->cm_channel, expected, &event))
		return -1;
	/* Each event is acknowledged once we are done with it. */
	return our_ack_cm_event(event);
}

int our_await_request(struct our_listener *listener,
		      struct our_control *control)
{
	struct rdma_cm_event *event;

	if (get_event(control, listener->cm_channel,
		      RDMA_CM_EVENT_CONNECT_REQUEST, &event))
		return -1;
	return our_take_request(control, event);
}

/* True for the events after which the connection is gone. */
static bool ends_connection(enum rdma_cm_event_type type)
{
	return type == RDMA_CM_EVENT_DISCONNECTED ||
	       type == RDMA_CM_EVENT_DEVICE_REMOVAL ||
	       type == RDMA_CM_EVENT_TIMEWAIT_EXIT;
}

/*
 * Take the event waiting on control's channel, record it and give it
 * back. Returns its type, or -1 when the channel failed us (reported).
 */
static int take_event(struct our_control *control)
{
	struct rdma_cm_event *event;
	int type;

	if (our_verb_failed(rdma_get_cm_event(control->cm_channel, &event),
			    "cm thread: rdma_get_cm_event"))
		return -1;
	type = (int)event->event;
	atomic_store(&control->last_cm_event, type);
	our_trace(1, "cm thread: %s (status %d)", rdma_event_str(event->event),
		  event->status);
	if (our_ack_cm_event(event))
		return -1;
	return type;
}

/*
 * The thread: take each event as it arrives and record it; on the end of
 * the connection, tell the main thread and end. Every
 * OUR_WATCH_INTERVAL_MS it looks whether it has been asked to stop. If it
 * cannot take an event, it says so and tells the main thread, which ends
 * the run instead of waiting blind.
 */
static void *watch_events(void *arg)
{
	struct our_control *control = arg;
	struct pollfd channel = { .fd = control->cm_channel->fd,
				  .events = POLLIN };
	int ready;
	int type;

	while (!atomic_load(&control->cm_thread_stop)) {
		ready = poll(&channel, 1, OUR_WATCH_INTERVAL_MS);
		if (ready < 0 && errno != EINTR) {
			our_error("cm thread: poll CM channel: %s",
				  strerror(errno));
			atomic_store(&control->watch_failed, true);
			break;
		}
		if (ready <= 0)
			continue;
		/* An event is waiting: take it. */
		type = take_event(control);
		if (type < 0) {
			our_error("the connection to %s can no longer be "
				  "watched: ending the run",
				  control->peer_name);
			atomic_store(&control->watch_failed, true);
			break;
		}
		if (ends_connection((enum rdma_cm_event_type)type)) {
			atomic_store(&control->disconnected, true);
			break;
		}
	}
	return NULL;
}

int our_watch_connection(struct our_control *control)
{
	/* Ctrl-C and SIGTERM go to the main thread, where they cut its
	 * waits short: the thread starts with them blocked. */
	if (our_start_thread(&control->cm_thread, watch_events, control,
			     "cm thread"))
		return -1;
	control->cm_thread_started = true;
	return 0;
}

void our_unwatch_connection(struct our_control *control)
{
	int type;
	int ret;

	if (!control->cm_thread_started)
		return;
	/* The thread stops at its next look up, or has ended already. */
	atomic_store(&control->cm_thread_stop, true);
	ret = pthread_join(control->cm_thread, NULL);
	our_verb_error(ret, "pthread_join cm thread");
	control->cm_thread_started = false;
	/* What the thread recorded last is the connection's last news. */
	type = atomic_load(&control->last_cm_event);
	our_trace(1, "cm thread ended; the last CM event it took: %s",
		  type < 0 ? "none" :
			     rdma_event_str((enum rdma_cm_event_type)type));
}

bool our_peer_disconnected(struct our_control *control)
{
	return atomic_load(&control->disconnected);
}
