// SPDX-License-Identifier: MIT
/*
 * interrupt.c - Ctrl-C (SIGINT) and SIGTERM end a run cleanly.
 *
 * The handler only notes the first signal: the exchange and the waits
 * look at the note between transfers and while they wait. It is
 * installed without SA_RESTART, so a system call that sleeps (poll(), a
 * read of a channel) in the thread that takes the signal returns early
 * with EINTR and the note is seen at once; a thread that sleeps
 * elsewhere sees it when it next looks up. It stays installed until the
 * run ends, and a second signal has its usual effect: the handler gives
 * it back and raises it.
 */
#include <errno.h>
#include <string.h>

#include "interrupt.h"
#include "report.h"

/* The signal that came, or 0: lock-free, for a handler and threads. */
static _Atomic int interrupted_by;

static void note_signal(int number)
{
	/* The first signal asks; the next one gets the usual end. signal()
	 * and raise() are safe in a handler, and this signal is held until
	 * the handler returns. */
	if (interrupted_by && signal(number, SIG_DFL) != SIG_ERR)
		raise(number);
	interrupted_by = number;
}

int our_catch_interrupts(struct our_interrupts *before)
{
	struct sigaction action = { .sa_handler = note_signal };

	/* Caught already for the whole program (a server of many clients
	 * catches once for all its agents, until it ends): leave the catch
	 * as it is, and its undo to the one who made it. */
	if (sigaction(SIGINT, NULL, &before->sigint) == 0 &&
	    before->sigint.sa_handler == note_signal)
		return 0;
	sigemptyset(&action.sa_mask);
	if (sigaction(SIGINT, &action, &before->sigint) == 0) {
		if (sigaction(SIGTERM, &action, &before->sigterm) == 0)
			return 0;
		/* Half caught is not caught: SIGINT goes back as it was. */
		sigaction(SIGINT, &before->sigint, NULL);
	}
	our_error("sigaction SIGINT, SIGTERM: %s", strerror(errno));
	return -1;
}

void our_release_interrupts(const struct our_interrupts *before)
{
	if (before->sigint.sa_handler == note_signal)
		return; /* not ours to give back */
	sigaction(SIGTERM, &before->sigterm, NULL);
	sigaction(SIGINT, &before->sigint, NULL);
}

int our_interrupted(void)
{
	return interrupted_by;
}
