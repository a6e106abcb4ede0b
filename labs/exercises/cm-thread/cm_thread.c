// SPDX-License-Identifier: MIT
/*
 * cm_thread.c - an explicit event channel, and a thread that watches it
 * once the connection is up (cm-thread, an exercise; see its README).
 *
 * During set-up the program waits for each CM event on its channel in
 * turn: that part is given. Once connected, a thread is to take every
 * event that arrives; when it sees the peer disconnect it says so in
 * control->cm, which the completion loop looks at while it waits. The
 * thread calls no verb on the queue pair: the main thread owns it.
 *
 * The three TODOs are yours. Until they are done the programs build and
 * a ping-pong works, but nobody reads the channel once connected: a
 * peer that goes away mid-run leaves the survivor waiting for ever.
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

/*
 * The thread: take each event as it arrives; on the end of the
 * connection, tell the main thread and end. Every OUR_WATCH_INTERVAL_MS
 * it looks whether it has been asked to stop.
 */
static void *watch_events(void *arg)
{
	struct our_control *control = arg;
	struct our_cm *cm = control->cm;

	/*
	 * TODO 2: until cm->stop is set (atomic_load), poll() the channel's
	 * fd (control->cm_id->channel->fd) for POLLIN, OUR_WATCH_INTERVAL_MS
	 * at a time, so that a stop is seen; when an event is waiting, take
	 * it (rdma_get_cm_event), trace it (our_trace(1, "cm thread: %s
	 * (status %d)", ...), with rdma_event_str), give it back
	 * (our_ack_cm_event), and end the loop on
	 * RDMA_CM_EVENT_DISCONNECTED, RDMA_CM_EVENT_DEVICE_REMOVAL or
	 * RDMA_CM_EVENT_TIMEWAIT_EXIT. If poll() or rdma_get_cm_event
	 * fails (but for EINTR), say so with our_error, set cm->failed and
	 * end the loop: the connection can no longer be watched. After the
	 * loop, unless asked to stop, set cm->disconnected (atomic_store):
	 * the main thread ends the run.
	 */
	(void)cm;
	return NULL;
}

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
	/*
	 * TODO 1: start watch_events, with control, on a thread of its own
	 * named "cm thread" (our_start_thread, above: Ctrl-C and SIGTERM
	 * stay with the main thread), its handle in control->cm->thread.
	 * Return 0, or -1 when it could not start.
	 */
	(void)watch_events;
	(void)control;
	return 0;
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
	if (!cm)
		return;
	/*
	 * TODO 3: the thread takes the disconnect event, and ends on it:
	 * give it up to OUR_DISCONNECT_WAIT_MS to set cm->disconnected
	 * (look every 10 ms: poll(NULL, 0, 10)), then ask it to stop
	 * (cm->stop) and join it (pthread_join, checked with
	 * our_verb_error). Only then may the id go: the teardown destroys it
	 * after this returns.
	 */
	free(cm);
	control->cm = NULL;
}

bool our_peer_disconnected(struct our_control *control)
{
	return control->cm && atomic_load(&control->cm->disconnected);
}
