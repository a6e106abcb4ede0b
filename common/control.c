// SPDX-License-Identifier: MIT
/*
 * control.c - the per-connection control structure, and how a run goes on
 * and ends.
 */
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "control.h"
#include "exchange.h"
#include "interrupt.h"
#include "report.h"

void our_init_control(struct our_control *control,
		      const struct our_options *options)
{
	memset(control, 0, sizeof(*control));
	control->options = options;
	control->count = options->duration ? 0 : options->count;
	control->duration = options->duration;
	control->size = options->size;
	control->buffers = options->buffers;
	control->verify = options->verify;
	atomic_init(&control->disconnected, false);
	atomic_init(&control->watch_failed, false);
	atomic_init(&control->cm_thread_stop, false);
	atomic_init(&control->last_cm_event, -1);
}

bool our_keep_going(struct our_control *control, uint64_t done)
{
	uint64_t elapsed_ns;

	if (our_interrupted()) {
		control->end = OUR_RUN_INTERRUPTED;
		return false;
	}
	if (control->count)
		return done < control->count;
	if (!control->duration)
		return true; /* an agent: the client says when it is over */
	elapsed_ns = our_now_ns() - control->stats.start_ns;
	return elapsed_ns < control->duration * 1000000000ull;
}

int our_end_of_run(const struct our_control *control, int ret)
{
	uint64_t done = control->stats.transfers;
	const char *plural = done == 1 ? "" : "s";
	int signal = our_interrupted();

	switch (control->end) {
	case OUR_RUN_INTERRUPTED:
		our_error("interrupted by %s after %llu %s%s",
			  signal == SIGINT ? "Ctrl-C (SIGINT)" : "SIGTERM",
			  (unsigned long long)done, our_transfer_unit, plural);
		return 128 + signal;
	case OUR_RUN_PEER_GONE:
		if (control->count)
			our_error("%s ended the run after %llu of %u %ss",
				  control->peer_name, (unsigned long long)done,
				  control->count, our_transfer_unit);
		else
			our_error("%s ended the run after %llu %s%s",
				  control->peer_name, (unsigned long long)done,
				  our_transfer_unit, plural);
		/* An agent with no count runs until the client hangs up. */
		return control->count || control->duration ? EXIT_FAILURE :
							     EXIT_SUCCESS;
	case OUR_RUN_AS_PLANNED:
		break;
	}
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}

bool our_pong_verified(const struct our_control *control, const char *pong,
		       uint32_t number)
{
	if (!control->verify || our_verify_data(pong, control->size, number))
		return true;
	our_error("pong %u differs from its ping", number);
	return false;
}
