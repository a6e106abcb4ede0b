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
#include "completions.h"
#include "connection.h"
#include "exchange.h"
#include "interrupt.h"
#include "posting.h"

int main(int argc, char *argv[])
{
	const struct our_option *const tables[] = {
		our_client_address, our_client_options, our_timed_options, NULL,
	};
	const struct our_program program = {
		.name = "client",
		.purpose = our_client_purpose,
		.runs = true,
		.needs_address = true,
		.tables = tables,
	};
	struct our_options options;
	struct our_control control;
	int status;
	int ret;

	status = our_parse_options(&program, argc, argv, &options);
	if (status >= 0)
		return status;
	status = EXIT_FAILURE;
	our_init_control(&control, &options);

	/* excerpt steps */
	if (our_resolve_server(&control, &options))
		return EXIT_FAILURE;
	if (our_create_pd(&control))
		goto out_destroy_id;
	if (our_setup_client_memory(&control))
		goto out_destroy_pd;
	if (our_create_cq(&control))
		goto out_unsetup_memory;
	if (our_create_qp(&control))
		goto out_destroy_cq;
	/* Receives go up before anything can be sent to us. */
	if (our_prepare_client(&control))
		goto out_destroy_qp;
	if (our_connect(&control))
		goto out_destroy_qp;

	/* From here Ctrl-C ends the run cleanly, with a report. */
	if (our_start_run(&control))
		goto out_disconnect;
	ret = our_run_client(&control);
	status = our_end_run(&control, ret);
	/* end excerpt steps */
	/* excerpt undo */
out_disconnect:
	our_disconnect(&control);
out_destroy_qp:
	our_destroy_qp(&control);
out_destroy_cq:
	our_destroy_cq(&control);
out_unsetup_memory:
	our_unsetup_client_memory(&control);
out_destroy_pd:
	our_destroy_pd(&control);
out_destroy_id:
	our_destroy_id(&control.cm_id);
	return status;
	/* end excerpt undo */
}
