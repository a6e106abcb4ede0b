// SPDX-License-Identifier: MIT
/*
 * control.c - the per-connection control structure, and how a run goes on,
 * ends and reports.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "control.h"
#include "exchange.h"
#include "instruments.h"
#include "interrupt.h"
#include "report.h"

/*
 * A timed run, the client's -D (where the stage's CM piece offers it:
 * see our_timed_options in cm_events.h): a run bounded by time, not by a
 * count, which the agent runs until the client hangs up. It serves the
 * lab (the instruments' rates, the tests) rather than the lesson, and
 * the single files leave it out. Keep its seconds with no count.
 */
static void time_run(struct our_control *control,
		     const struct our_options *options)
{
	control->duration = options->duration;
	if (control->duration)
		control->count = 0;
}

/* A timed run's time is up. */
static bool time_is_up(const struct our_control *control)
{
	return control->duration && our_now_ns() - control->start_ns >=
					    control->duration * 1000000000ull;
}

/* A timed run: its agent's hang-up came before the time was up. */
static bool timed_run(const struct our_control *control)
{
	return control->duration;
}

void our_init_control(struct our_control *control,
		      const struct our_options *options)
{
	memset(control, 0, sizeof(*control));
	control->count = options->count;
	control->size = options->size;
	control->buffers = options->buffers;
	control->verify = options->verify;
	time_run(control, options);
}

uint64_t our_now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

bool our_keep_going(struct our_control *control, uint64_t done)
{
	if (our_interrupted()) {
		control->end = OUR_RUN_INTERRUPTED;
		return false;
	}
	if (time_is_up(control))
		return false;
	/* With no count, an agent runs until the client hangs up. */
	return !control->count || done < control->count;
}

void our_count_transfer(struct our_control *control)
{
	control->transfers++;
	control->answered = false;
	our_record_latency(control);
}

int our_start_run(struct our_control *control)
{
	if (our_catch_interrupts(&control->interrupts))
		return -1;
	control->start_ns = our_now_ns();
	our_start_statistics(control);
	return 0;
}

/* Say how the run ended when a signal ended it, or the peer (where the
 * program watches the connection), and return the exit status. */
static int run_status(const struct our_control *control, int ret)
{
	unsigned long long done = control->transfers;
	int signal = our_interrupted();
	char of[16] = ""; /* " of COUNT" */

	if (control->end == OUR_RUN_INTERRUPTED) {
		our_error("interrupted by %s after %llu %s%s",
			  signal == SIGINT ? "Ctrl-C (SIGINT)" : "SIGTERM",
			  done, our_transfer_unit, done == 1 ? "" : "s");
		return 128 + signal;
	}
	if (control->end != OUR_RUN_PEER_GONE)
		return ret ? EXIT_FAILURE : EXIT_SUCCESS;
	if (control->count)
		snprintf(of, sizeof(of), " of %u", control->count);
	our_error("%s ended the run after %llu%s %s%s", control->peer_name,
		  done, of, our_transfer_unit,
		  done == 1 && !control->count ? "" : "s");
	if (control->count)
		return EXIT_FAILURE;
	if (timed_run(control))
		return EXIT_FAILURE;
	/* An agent with no count runs until the client hangs up. */
	return EXIT_SUCCESS;
}

int our_end_run(struct our_control *control, int ret)
{
	int status;
	double elapsed;

	control->end_ns = our_now_ns();
	our_stop_statistics(control);
	our_release_interrupts(&control->interrupts);
	status = run_status(control, ret);
	elapsed = (double)(control->end_ns - control->start_ns) / 1e9;
	/* One report's lines together, whatever other threads print. */
	flockfile(stdout);
	printf("%s: %" PRIu64 " %s%s of %u byte%s in %.6f s\n",
	       our_program_name, control->transfers, our_transfer_unit,
	       control->transfers == 1 ? "" : "s", control->size,
	       control->size == 1 ? "" : "s", elapsed);
	our_print_statistics(control);
	/* Out now: the disconnect that follows may take a while. */
	fflush(stdout);
	funlockfile(stdout);
	return status;
}
