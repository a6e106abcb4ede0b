// SPDX-License-Identifier: MIT
/*
 * cm_thread.c - an explicit event channel, and a thread that watches it
 * once the connection is up.
 *
 * During set-up the program waits for each CM event on its channel in
 * turn. Once connected, a thread takes every event that arrives; when it
 * sees the peer disconnect it says so in control->cm, which the
 * completion loop looks at while it waits. The thread calls no verb on
 * the queue pair: the main thread owns it.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cm_channel.h"
#include "cm_events.h"
#include "connection.h"
#include "instruments.h"
#include "report.h"

/* How often the thread looks up from its channel to see if it must stop. */
#define OUR_WATCH_INTERVAL_MS 100
/* How long our own disconnect may take to be confirmed. */
#define OUR_DISCONNECT_WAIT_MS 3000

int our_prepare_channel(struct rdma_event_channel *channel)
{
	(void)channel; /* reading it blocks until an event comes */
	return 0;
}

/* excerpt get_event */
/*
 * Take the next event from channel; it must be expected, and is then
 * returned in *event, still to be given back. Otherwise it is explained
 * (peer names the other end), given back, and -1 returned.
 */
static int get_event(const char *peer, struct rdma_event_channel *channel,
		     enum rdma_cm_event_type expected,
		     struct rdma_cm_event **event)
{
	/* Block until the CM has an event for one of the channel's ids. */
	int ret = rdma_get_cm_event(channel, event);

	if (our_verb_failed(ret, "rdma_get_cm_event"))
		return -1;
	our_trace(1, "rdma_get_cm_event -> %s (status %d)",
		  rdma_event_str((*event)->event), (*event)->status);
	if (our_check_cm_event(peer, *event, expected) == 0)
		return 0;
	our_ack_cm_event(*event);
	return -1;
}
/* end excerpt get_event */

int our_await_cm_event(struct our_control *control, int ret,
		       enum rdma_cm_event_type expected, const char *verb)
{
	struct rdma_cm_event *event;

	if (our_verb_failed(ret, "%s %s", verb, control->peer_name)) {
		our_explain_cm_failure(control->peer_name, NULL);
		return -1;
	}
	if (get_event(control->peer_name, control->cm_id->channel, expected,
		      &event))
		return -1;
	/* Each event is given back once we are done with it. */
	return our_ack_cm_event(event);
}

int our_await_request(struct our_listener *listener,
		      struct rdma_cm_event **event)
{
	return get_event("a client", listener->cm_id->channel,
			 RDMA_CM_EVENT_CONNECT_REQUEST, event);
}

/* excerpt thread */
/*
 * The thread: take each event as it arrives; on the end of the
 * connection, tell the main thread and end. Every OUR_WATCH_INTERVAL_MS
 * it looks whether it has been asked to stop. If it cannot take an
 * event, it says so, and tells the main thread that the connection is as
 * good as gone: the run ends, instead of waiting blind.
 */
static void *watch_events(void *arg)
{
	/* excerpt watch_what */
	struct our_control *control = arg;
	struct our_cm *cm = control->cm;
	struct pollfd channel = { .fd = control->cm_id->channel->fd,
				  .events = POLLIN };
	struct rdma_cm_event *event;
	enum rdma_cm_event_type type;
	/* end excerpt watch_what */

	/* excerpt watch_loop */
	while (!atomic_load(&cm->stop)) {
		int ready = poll(&channel, 1, OUR_WATCH_INTERVAL_MS);

		if (ready == 0 || (ready < 0 && errno == EINTR))
			continue;
		/* An event is waiting: take it, and give it back. */
		if (ready < 0 ||
		    rdma_get_cm_event(control->cm_id->channel, &event)) {
			our_error("the connection to %s can no longer be "
				  "watched (%s): ending the run",
				  control->peer_name, strerror(errno));
			atomic_store(&cm->failed, true);
			break;
		}
		type = event->event;
		our_trace(1, "cm thread: %s (status %d)", rdma_event_str(type),
			  event->status);
		our_ack_cm_event(event);
		if (type == RDMA_CM_EVENT_DISCONNECTED ||
		    type == RDMA_CM_EVENT_DEVICE_REMOVAL ||
		    type == RDMA_CM_EVENT_TIMEWAIT_EXIT)
			break;
	}
	/* end excerpt watch_loop */
	/* excerpt watch_end */
	/* Unless asked to stop, the connection is gone. */
	if (!atomic_load(&cm->stop))
		atomic_store(&cm->disconnected, true);
	/* end excerpt watch_end */
	return NULL;
}
/* end excerpt thread */

int our_start_thread(pthread_t *thread, void *(*start)(void *), void *arg,
		     const char *what)
{
	sigset_t interrupts, before;
	int ret;

	/* A new thread starts with its creator's signal mask: with Ctrl-C
	 * and SIGTERM blocked there, they go to the main thread, which
	 * looks for them while it waits. */
	sigemptyset(&interrupts);
	sigaddset(&interrupts, SIGINT);
	sigaddset(&interrupts, SIGTERM);
	ret = pthread_sigmask(SIG_BLOCK, &interrupts, &before);
	if (our_verb_error(ret, "pthread_sigmask"))
		return -1;
	ret = pthread_create(thread, NULL, start, arg);
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	return our_verb_error(ret, "pthread_create %s", what) ? -1 : 0;
}

int our_start_watching(struct our_control *control)
{
	return our_start_thread(&control->cm->thread, watch_events, control,
				"cm thread");
}

void our_disconnect(struct our_control *control)
{
	struct our_cm *cm = control->cm;
	int ret;

	/* The CM tells the peer we are going; our queue pair goes to the
	 * error state and any work still posted is flushed. */
	ret = rdma_disconnect(control->cm_id);
	/* A failure after the peer has gone is expected: not reported. */
	if (!our_peer_disconnected(control))
		our_verb_failed(ret, "rdma_disconnect %s", control->peer_name);
	/* The thread takes the disconnect event, and ends on it. After a
	 * run that Ctrl-C or a silent peer ended, no answer is awaited. */
	for (int waited = 0; control->end == OUR_RUN_AS_PLANNED &&
			     waited < OUR_DISCONNECT_WAIT_MS &&
			     !atomic_load(&cm->disconnected);
	     waited += 10)
		poll(NULL, 0, 10);
	atomic_store(&cm->stop, true);
	ret = pthread_join(cm->thread, NULL);
	our_verb_error(ret, "pthread_join cm thread");
	free(cm);
	control->cm = NULL;
}

bool our_peer_disconnected(struct our_control *control)
{
	return control->cm && atomic_load(&control->cm->disconnected);
}
