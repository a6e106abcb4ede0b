// SPDX-License-Identifier: MIT
/*
 * client.c - the client's steps (ping-sr-0e, an exercise; see its
 * README): connect to a server, run the ping-pong, report.
 *
 * As given, this is ping-sr-0's client.c without its undo: each step is
 * set up, none is undone, and a step that fails leaves the ones before
 * it standing. It works: the kernel takes back what a program leaves
 * when it exits. Two TODOs make it undo every step, as a program must
 * that does not exit at once (a server that serves the next client, a
 * library) and as valgrind asks.
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

	/*
	 * TODO 2: a step that fails leaves nothing of its own behind, but
	 * the steps before it stand. Make each failure below go to the
	 * label of TODO 1 that undoes the last step that succeeded, and on
	 * down from there.
	 */
	if (our_resolve_server(&control, &options))
		return EXIT_FAILURE;
	if (our_create_pd(&control))
		return EXIT_FAILURE;
	if (our_setup_client_memory(&control))
		return EXIT_FAILURE;
	if (our_create_cq(&control))
		return EXIT_FAILURE;
	if (our_create_qp(&control))
		return EXIT_FAILURE;
	/* Receives go up before anything can be sent to us. */
	if (our_prepare_client(&control))
		return EXIT_FAILURE;
	if (our_connect(&control))
		return EXIT_FAILURE;

	/* From here Ctrl-C ends the run cleanly, with a report. */
	if (our_start_run(&control))
		return EXIT_FAILURE;
	ret = our_run_client(&control);
	status = our_end_run(&control, ret);

	/*
	 * TODO 1: undo every step above, each once, in the reverse order
	 * of set-up: the connection first, the id last. The comment on each
	 * step's function in its header (common/connection.h, buffers.h,
	 * exchange.h, completions.h, posting.h) names its undo. Put a label
	 * before each undo, named for what it undoes (out_destroy_qp:), for
	 * TODO 2.
	 */
	return status;
}
