// SPDX-License-Identifier: MIT
/*
 * catch-signals.c - a unit test of the catch of Ctrl-C that a server
 * shares with its agents (common/interrupt.c): an agent whose run starts
 * after the first Ctrl-C, which SA_RESETHAND has given back, must not
 * catch it again, or the second Ctrl-C would not end the program.
 *
 * usage: catch-signals   (prints each case; exits 0 when all held)
 */
#include <signal.h>
#include <stdio.h>

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

int main(void)
{
	struct our_interrupts server, agent, late;

	check(our_catch_interrupts(&server) == 0 && !usual(SIGINT) &&
		      !usual(SIGTERM),
	      "the server catches SIGINT and SIGTERM");
	check(our_catch_interrupts(&agent) == 0, "an agent shares the catch");
	our_release_interrupts(&agent);
	check(!usual(SIGINT), "an agent's end leaves the server's catch");
	raise(SIGINT);
	check(our_interrupted() == SIGINT && usual(SIGINT),
	      "the first Ctrl-C is noted, and the next one ends the program");
	check(our_catch_interrupts(&late) == 0 && usual(SIGINT),
	      "an agent that starts after it does not catch the next one");
	our_release_interrupts(&late);
	our_release_interrupts(&server);
	check(usual(SIGINT) && usual(SIGTERM),
	      "the server's end gives both signals back");
	return wrong ? 1 : 0;
}
