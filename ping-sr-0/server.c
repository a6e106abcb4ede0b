// SPDX-License-Identifier: MIT
/*
 * server.c - the server: a listener that waits for one client, and the
 * agent that runs the exchange with it (in the ping stages, each ping
 * comes back as a pong).
 *
 * main() is the list of steps, undone in the reverse order of set-up; the
 * same steps serve every stage. The server serves one client, then exits.
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
	struct our_listener listener;
	struct our_control control;
	enum our_parse_result parsed;
	int status = EXIT_FAILURE;
	int ret;

	parsed = our_parse_options(&our_server_program, argc, argv, &options);
	if (parsed != OUR_OPTIONS_RUN)
		return our_options_exit_status(parsed);
	our_init_control(&control, &options);

	if (our_setup_listener(&listener, &options))
		return EXIT_FAILURE;
	/* The agent runs what the client asked for, where the stage lets
	 * the client say; a client whose request is refused is rejected. */
	if (our_get_request(&listener, &control))
		goto out_unsetup_listener;
	if (our_setup_stats(&control.stats, control.count, options.statistics))
		goto out_destroy_id;
	if (our_setup_qp(&control))
		goto out_unsetup_stats;
	if (our_setup_buffers(&control, our_agent_buffers(&control)))
		goto out_unsetup_qp;
	/* Receives go up before we accept. */
	if (our_prepare_agent(&control))
		goto out_unsetup_buffers;
	if (our_accept(&control))
		goto out_unsetup_buffers;

	/* From here Ctrl-C ends the run after the transfer in progress. */
	if (our_catch_interrupts())
		goto out_disconnect;
	our_start_clock(&control.stats);
	ret = our_run_agent(&control);
	our_stop_clock(&control.stats);
	our_release_interrupts();
	status = our_end_of_run(&control, ret);
	our_print_report(&control);
out_disconnect:
	our_disconnect(&control);

out_unsetup_buffers:
	our_unsetup_buffers(&control);
out_unsetup_qp:
	our_unsetup_qp(&control);
out_unsetup_stats:
	our_unsetup_stats(&control.stats);
out_destroy_id:
	our_destroy_id(&control);
	/* The agent's own event channel, where the stage gives it one. */
	our_unsetup_cm_events(&control.cm_channel);
out_unsetup_listener:
	our_unsetup_listener(&listener);
	return status;
}
