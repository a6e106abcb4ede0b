/* SPDX-License-Identifier: MIT */
/*
 * interrupt.h - Ctrl-C (SIGINT) and SIGTERM end a run cleanly.
 *
 * While the exchange runs, the first of these signals asks the run to
 * end: the side that got it stops (giving a transfer in progress a
 * moment, where it watches the connection), disconnects, prints its
 * report for what was done, releases everything and exits with status
 * 128 plus the signal's number: 130 for Ctrl-C, 143 for SIGTERM, what a
 * shell shows for a program that a signal ended. A second signal ends
 * the program at once: under timeout(1), give it --foreground, or
 * timeout signals the program twice (it, then its process group). Before
 * and after the run (while connecting, say) the signals keep their usual
 * effect.
 */
#ifndef OUR_INTERRUPT_H
#define OUR_INTERRUPT_H

#include <signal.h>

/* What the signals did before they were caught, to give it back. */
struct our_interrupts {
	struct sigaction sigint;
	struct sigaction sigterm;
};

/*
 * From now on, SIGINT and SIGTERM ask the run to end; what they did
 * before is kept in *before. Returns 0, or -1 (reported). Undo with
 * our_release_interrupts(before).
 */
int our_catch_interrupts(struct our_interrupts *before);
void our_release_interrupts(const struct our_interrupts *before);

/* The signal that asked the run to end, or 0. */
int our_interrupted(void);

#endif
