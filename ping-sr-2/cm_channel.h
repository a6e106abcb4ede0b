/* SPDX-License-Identifier: MIT */
/*
 * cm_channel.h - what every CM piece with an explicit event channel
 * shares (cm_thread.c here, cm_nonblocking.c in ping-sr-4): what it keeps
 * of a connection it watches, and the channel each id gets. cm_channel.c
 * implements for both the functions of cm_events.h that do not depend on
 * how the events are taken.
 */
#ifndef OUR_CM_CHANNEL_H
#define OUR_CM_CHANNEL_H

#include <pthread.h>
#include <stdatomic.h>

#include "control.h"

/* What is kept of the connection that is watched: control->cm. */
struct our_cm {
	atomic_bool disconnected; /* the connection is down, or can no longer
				   * be watched */
	atomic_bool failed;       /* ... the latter: the watch failed */
	uint64_t give_up;         /* when a wait that must end ends */
	/* The thread that watches, where one does. */
	pthread_t thread;
	atomic_bool stop;         /* the thread is to stop */
};

/*
 * Prepare a new event channel, before any id is put on it: put it in
 * the mode events are taken in. Returns 0, or -1 (reported).
 */
int our_prepare_channel(struct rdma_event_channel *channel);

/*
 * Start a thread running start(arg), with Ctrl-C and SIGTERM left to the
 * main thread; what names it in messages. Returns 0, or -1 (reported).
 */
int our_start_thread(pthread_t *thread, void *(*start)(void *), void *arg,
		     const char *what);

/* Start watching control's connection, once control->cm is there.
 * Returns 0, or -1 (reported). */
int our_start_watching(struct our_control *control);

#endif
