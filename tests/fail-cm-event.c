// SPDX-License-Identifier: MIT
/*
 * fail-cm-event.c - a fault for the tests, loaded with LD_PRELOAD:
 * rdma_get_cm_event fails with EIO when a thread other than main calls
 * it, that is in the CM event thread of ping-sr-2, ping-sr-3 and
 * blast-sr-2. It shows that the thread does not die silently: the main
 * thread ends the run with a message instead of waiting for ever.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

int rdma_get_cm_event(struct rdma_event_channel *channel,
		      struct rdma_cm_event **event)
{
	int (*real)(struct rdma_event_channel *, struct rdma_cm_event **);

	if (gettid() != getpid()) {
		errno = EIO;
		return -1;
	}
	real = (int (*)(struct rdma_event_channel *,
			struct rdma_cm_event **))dlsym(RTLD_NEXT,
						       "rdma_get_cm_event");
	return real(channel, event);
}
