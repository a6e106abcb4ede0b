// SPDX-License-Identifier: MIT
/*
 * catch-signals.c - a unit test of the catch of Ctrl-C and SIGTERM
 * (common/interrupt.c), which a server's agents share with it: the first
 * signal is noted, and the second, of either kind, ends the program at
 * once, even when an agent's run started between the two.
 *
 * usage: catch-signals   (prints each case; exits 0 when all held)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interrupt.h"

static int wrong;

/* check HOLDS WHAT: print WHAT, right or WRONG. */
static void check(int holds, const char *what)
{
	printf("catch-signals: %s: %s\n", what, holds ? "right" : "WRONG");
	wrong += !holds;
}

/* Whether SIGNAL has its usual effect now. */
static int usual(int signal)
{
	struct sigaction now;

	return sigaction(signal, NULL, &now) == 0 && now.sa_handler == SIG_DFL;
}

/* In a child, a server's catch, then FIRST, then an agent's run starting,
 * then SECOND: whether the second signal ended the child. */
static int second_ends(int first, int second)
{
	struct our_interrupts server, agent;
	int status;
	pid_t child;

	fflush(stdout);
	child = fork();
	if (child == 0) {
		if (our_catch_interrupts(&server))
			_exit(2);
		raise(first);
		if (our_interrupted() != first ||
		    our_catch_interrupts(&agent))
			_exit(3);
		raise(second);
		_exit(0);
	}
	return child > 0 && waitpid(child, &status, 0) == child &&
	       WIFSIGNALED(status) && WTERMSIG(status) == second;
}

int main(void)
{
	struct our_interrupts server, agent;

	check(our_catch_interrupts(&server) == 0 && !usual(SIGINT) &&
		      !usual(SIGTERM),
	      "the server catches SIGINT and SIGTERM");
	check(our_catch_interrupts(&agent) == 0, "an agent shares the catch");
	our_release_interrupts(&agent);
	check(!usual(SIGINT) && !usual(SIGTERM),
	      "an agent's end leaves the server's catch");
	our_release_interrupts(&server);
	check(usual(SIGINT) && usual(SIGTERM),
	      "the server's end gives both signals back");
	check(second_ends(SIGINT, SIGINT),
	      "a second Ctrl-C ends the program, after an agent started");
	check(second_ends(SIGTERM, SIGINT),
	      "a Ctrl-C after SIGTERM ends the program");
	return wrong ? 1 : 0;
}
