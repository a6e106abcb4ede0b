// SPDX-License-Identifier: MIT
/*
 * fail-cm-event.c - faults of the connection manager for the tests,
 * loaded with LD_PRELOAD. $OUR_CM_FAULT says which:
 *  unset           rdma_get_cm_event fails with EIO when a thread other
 *                  than main calls it, that is in the CM event thread of
 *                  ping-sr-2, ping-sr-3 and blast-sr-2: the thread does
 *                  not die silently, the main thread ends the run with a
 *                  message instead of waiting for ever;
 *  disconnected    rdma_get_cm_event, in any thread, fails with EIO where
 *                  it would return the peer's disconnect (the event is
 *                  given back): the watch itself fails, in the one thread
 *                  of ping-sr-4 too, and the run must not blame the peer;
 *  rdma_disconnect rdma_disconnect fails with EINVAL: the report must say
 *                  so, not what a later call left in errno.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

static const char *fault(void)
{
	const char *name = getenv("OUR_CM_FAULT");

	return name ? name : "";
}

int rdma_get_cm_event(struct rdma_event_channel *channel,
		      struct rdma_cm_event **event)
{
	int (*real)(struct rdma_event_channel *, struct rdma_cm_event **);
	int (*ack)(struct rdma_cm_event *);
	int ret;

	if (!*fault() && gettid() != getpid()) {
		errno = EIO;
		return -1;
	}
	real = (int (*)(struct rdma_event_channel *, struct rdma_cm_event **))
		dlsym(RTLD_NEXT, "rdma_get_cm_event");
	ret = real(channel, event);
	if (ret == 0 && strcmp(fault(), "disconnected") == 0 &&
	    (*event)->event == RDMA_CM_EVENT_DISCONNECTED) {
		ack = (int (*)(struct rdma_cm_event *))
			dlsym(RTLD_NEXT, "rdma_ack_cm_event");
		ack(*event);
		errno = EIO;
		return -1;
	}
	return ret;
}

int rdma_disconnect(struct rdma_cm_id *id)
{
	int (*real)(struct rdma_cm_id *);

	if (strcmp(fault(), "rdma_disconnect") == 0) {
		errno = EINVAL;
		return -1;
	}
	real = (int (*)(struct rdma_cm_id *))dlsym(RTLD_NEXT,
						   "rdma_disconnect");
	return real(id);
}
