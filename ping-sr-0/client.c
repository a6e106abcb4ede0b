// SPDX-License-Identifier: MIT
/*
 * client.c - the client: connect to a server, run the exchange (count
 * pings of size bytes, each awaiting its pong, in the ping stages), report.
 *
 * main() is the list of steps. Each step is one function with its undo,
 * in common/ or in one of the stage's pieces (the exchange, the CM
 * events, ...); the steps are undone in the reverse order of their
 * set-up. The same steps serve every stage: what a stage changes is the
 * pieces it is built from (see its Makefile).
 */
#include <stdlib.h>

#include "buffers.h"
#include "cm_events.h"
#include "connection.h"
#include "exchange.h"
#include "interrupt.h"
#include "queue_pair.h"

int main(int argc, char *argv[])
{
	struct our_options options;
	struct our_control control;
	enum our_parse_result parsed;
	int status = EXIT_FAILURE;
	int ret;

	parsed = our_parse_options(&our_client_program, argc, argv, &options);
	if (parsed != OUR_OPTIONS_RUN)
		return our_options_exit_status(parsed);
	our_init_control(&control, &options);

	/* excerpt steps */
	if (our_setup_stats(&control.stats, control.count, options.statistics))
		return EXIT_FAILURE;
	if (our_setup_cm_events(&control.cm_channel))
		goto out_unsetup_stats;
	if (our_resolve_server(&control))
		goto out_unsetup_cm_events;
	if (our_setup_qp(&control))
		goto out_destroy_id;
	if (our_setup_buffers(&control, our_client_buffers(&control)))
		goto out_unsetup_qp;
	/* Receives go up before anything can be sent to us. */
	if (our_prepare_client(&control))
		goto out_unsetup_buffers;
	if (our_connect(&control))
		goto out_unsetup_buffers;

	/* From here Ctrl-C ends the run after the transfer in progress. */
	if (our_catch_interrupts())
		goto out_disconnect;
	our_start_clock(&control.stats);
	ret = our_run_client(&control);
	our_stop_clock(&control.stats);
	our_release_interrupts();
	status = our_end_of_run(&control, ret);
	our_print_report(&control);
	/* end excerpt steps */
	/* excerpt undo */
out_disconnect:
	our_disconnect(&control);

out_unsetup_buffers:
	our_unsetup_buffers(&control);
out_unsetup_qp:
	our_unsetup_qp(&control);
out_destroy_id:
	our_destroy_id(&control);
out_unsetup_cm_events:
	our_unsetup_cm_events(&control.cm_channel);
out_unsetup_stats:
	our_unsetup_stats(&control.stats);
	return status;
	/* end excerpt undo */
}
