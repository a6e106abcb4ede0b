// SPDX-License-Identifier: MIT
/*
 * interrupt.c - Ctrl-C (SIGINT) and SIGTERM end a run cleanly.
 *
 * The handler only notes the signal: the exchange and the waits look at
 * the note between transfers and while they wait. It is installed without
 * SA_RESTART, so a system call that sleeps (poll(), a read of a channel)
 * returns early with EINTR and the note is seen at once.
 */
#include <errno.h>
#include <string.h>

#include "interrupt.h"
#include "report.h"

static volatile sig_atomic_t interrupted_by;

/* Note the signal; the handler is reset, so a second one ends us. */
static void note_signal(int signal)
{
	interrupted_by = signal;
}

void our_interrupt_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
}

int our_catch_interrupts(void)
{
	struct sigaction action = {
		.sa_handler = note_signal,
		/* The first signal asks; the next one gets the usual end. */
		.sa_flags = SA_RESETHAND,
	};

	sigemptyset(&action.sa_mask);
	if (sigaction(SIGINT, &action, NULL) ||
	    sigaction(SIGTERM, &action, NULL)) {
		our_error("sigaction SIGINT, SIGTERM: %s", strerror(errno));
		our_release_interrupts();
		return -1;
	}
	return 0;
}

void our_release_interrupts(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

int our_interrupted(void)
{
	return interrupted_by;
}
