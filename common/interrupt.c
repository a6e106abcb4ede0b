// SPDX-License-Identifier: MIT
/*
 * interrupt.c - Ctrl-C (SIGINT) and SIGTERM end a run cleanly.
 *
 * The handler only notes the signal: the exchange and the waits look at
 * the note between transfers and while they wait. It is installed without
 * SA_RESTART, so a system call that sleeps (poll(), a read of a channel)
 * returns early with EINTR and the note is seen at once.
 *
 * Catching nests: a server for many clients (atomic-1) catches the
 * signals for its whole life, and each of its agents around its run; the
 * signals get their usual effect back with the last release.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "interrupt.h"
#include "report.h"

/* Atomic: the agents of a server for many read it in their threads. */
static atomic_int interrupted_by;
/* The catches not released yet, and the lock that guards the count. */
static unsigned int catching;
static pthread_mutex_t catching_lock = PTHREAD_MUTEX_INITIALIZER;

/* Note the signal; the handler is reset, so a second one ends us. */
static void note_signal(int signal)
{
	atomic_store(&interrupted_by, signal);
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
	int ret = 0;

	pthread_mutex_lock(&catching_lock);
	sigemptyset(&action.sa_mask);
	if (catching == 0 && (sigaction(SIGINT, &action, NULL) ||
			      sigaction(SIGTERM, &action, NULL))) {
		our_error("sigaction SIGINT, SIGTERM: %s", strerror(errno));
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		ret = -1;
	} else {
		catching++;
	}
	pthread_mutex_unlock(&catching_lock);
	return ret;
}

void our_release_interrupts(void)
{
	pthread_mutex_lock(&catching_lock);
	if (catching > 0 && --catching == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	pthread_mutex_unlock(&catching_lock);
}

int our_interrupted(void)
{
	return atomic_load(&interrupted_by);
}

int our_start_thread(pthread_t *thread, void *(*start)(void *), void *arg,
		     const char *what)
{
	sigset_t interrupts;
	sigset_t old;
	int ret;

	our_interrupt_signals(&interrupts);
	ret = pthread_sigmask(SIG_BLOCK, &interrupts, &old);
	if (our_verb_error(ret, "pthread_sigmask"))
		return -1;
	/* The new thread starts with the mask of this one. */
	ret = pthread_create(thread, NULL, start, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return our_verb_error(ret, "pthread_create %s", what) ? -1 : 0;
}
