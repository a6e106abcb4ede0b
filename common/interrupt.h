/* SPDX-License-Identifier: MIT */
/*
 * interrupt.h - Ctrl-C (SIGINT) and SIGTERM end a run cleanly.
 *
 * While the exchange runs, the first of these signals asks the run to
 * end: the side that got it finishes the transfer in progress (giving it
 * OUR_GRACE_MS at most), disconnects, prints its report for what was done,
 * releases everything and exits with status 128 plus the signal's number:
 * 130 for Ctrl-C, 143 for SIGTERM, what a shell shows for a program that a
 * signal ended. A second signal ends the program at once. Before and after
 * the run (while connecting, say) the signals keep their usual effect.
 */
#ifndef OUR_INTERRUPT_H
#define OUR_INTERRUPT_H

#include <pthread.h>
#include <signal.h>

/*
 * From now on, SIGINT and SIGTERM ask the run to end. Returns 0, or -1
 * (reported). Undo with our_release_interrupts(). Calls nest: only the
 * release of the last catch gives the signals their usual effect back.
 */
int our_catch_interrupts(void);
void our_release_interrupts(void);

/* The signal that asked the run to end, or 0. */
int our_interrupted(void);

/* Fill set with the signals that ask a run to end. */
void our_interrupt_signals(sigset_t *set);

/*
 * Start a thread running start(arg), with SIGINT and SIGTERM blocked in
 * it, so that they reach the thread that cut its waits short for them
 * (the main thread; in a server for many, the listener's). what names the
 * thread in messages. Returns 0, or -1 (reported). Undo with
 * pthread_join.
 */
int our_start_thread(pthread_t *thread, void *(*start)(void *), void *arg,
		     const char *what);

#endif
