// SPDX-License-Identifier: MIT
/*
 * late_receiver.c - given: this exercise's server is late on purpose.
 * ping-sr-2's agent (ping-sr-0's ping-pong) posts the receive for the
 * first ping before it accepts (our_prepare_agent); this one posts it
 * only once it gets SIGUSR1. Until then the client's first ping finds no
 * receive: the server's adapter refuses it with a receiver-not-ready
 * (RNR) NAK, and the client's adapter sends it again, or gives up, as
 * the connection's rnr_retry_count says.
 *
 * The linker calls these in place of ping-sr-0's two steps (--wrap in
 * the Makefile), which stay reachable as __real_our_*.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cm_events.h"
#include "exchange.h"
#include "interrupt.h"
#include "report.h"

int __wrap_our_prepare_agent(struct our_control *control);
int __wrap_our_run_agent(struct our_control *control);
int __real_our_prepare_agent(struct our_control *control);
int __real_our_run_agent(struct our_control *control);

/* SIGUSR1 came: set by the handler, in whichever thread takes it. */
static atomic_bool told;
/* 0, or the errno of a failure to catch SIGUSR1. */
static int catch_error;

static void note_told(int signal)
{
	(void)signal;
	atomic_store(&told, true);
}

/* From the program's start, so that a signal sent early is noted, not
 * fatal; SA_RESTART, so that it interrupts no verb. */
__attribute__((constructor)) static void catch_sigusr1(void)
{
	struct sigaction action = {
		.sa_handler = note_told,
		.sa_flags = SA_RESTART,
	};

	sigemptyset(&action.sa_mask);
	if (sigaction(SIGUSR1, &action, NULL))
		catch_error = errno;
}

/* Before the agent accepts: no receive is posted. */
int __wrap_our_prepare_agent(struct our_control *control)
{
	(void)control;
	if (catch_error) {
		our_error("sigaction SIGUSR1: %s", strerror(catch_error));
		return -1;
	}
	printf("server: the first ping's receive is not posted: it will be "
	       "on SIGUSR1 (kill -USR1 %d)\n", (int)getpid());
	fflush(stdout);
	return 0;
}

/* Connected: wait for SIGUSR1, looking each tenth of a second for a
 * Ctrl-C or a client that left; then post the first receive as
 * ping-sr-0 would have, and run the agent, which says how the run
 * ended. */
int __wrap_our_run_agent(struct our_control *control)
{
	const struct timespec tenth = { .tv_nsec = 100000000 };

	while (!atomic_load(&told) && !our_interrupted() &&
	       !our_peer_disconnected(control))
		nanosleep(&tenth, NULL);
	if (atomic_load(&told)) {
		printf("server: SIGUSR1: posting the first ping's receive\n");
		fflush(stdout);
	}
	if (__real_our_prepare_agent(control))
		return -1;
	return __real_our_run_agent(control);
}
