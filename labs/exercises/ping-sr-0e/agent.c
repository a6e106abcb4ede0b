// SPDX-License-Identifier: MIT
/*
 * agent.c - the agent's steps (ping-sr-0e, an exercise; see its
 * README): serve one client, once the listener has taken its
 * connection request.
 *
 * As given, this is ping-sr-0's agent.c without its undo, as client.c
 * is: the same two TODOs. The id is the request's, which
 * our_get_request (common/connection.h) made: it is the agent's to
 * undo, last.
 */
#include <stdlib.h>

#include "agent.h"
#include "buffers.h"
#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "exchange.h"
#include "interrupt.h"
#include "posting.h"

int our_serve_client(struct our_control *control)
{
	int status = EXIT_FAILURE;
	int ret;

	/* TODO 2: each failure goes to the label that undoes the last step
	 * that succeeded (the id, for the first). */
	if (our_create_pd(control))
		return EXIT_FAILURE;
	if (our_setup_agent_memory(control))
		return EXIT_FAILURE;
	if (our_create_cq(control))
		return EXIT_FAILURE;
	if (our_create_qp(control))
		return EXIT_FAILURE;
	/* Receives go up before we accept. */
	if (our_prepare_agent(control))
		return EXIT_FAILURE;
	if (our_accept(control))
		return EXIT_FAILURE;

	/* From here Ctrl-C ends the run cleanly, with a report. */
	if (our_start_run(control))
		return EXIT_FAILURE;
	ret = our_run_agent(control);
	status = our_end_run(control, ret);

	/* TODO 1: undo every step, each once, in the reverse order of
	 * set-up: the connection first, the request's id last; a label
	 * before each undo. */
	return status;
}
