// SPDX-License-Identifier: MIT
/*
 * agent.c - the agent: the steps that serve one client, once the
 * listener has taken its connection request.
 *
 * Like main() in client.c, this is the list of steps, undone in the
 * reverse order of set-up; the same steps serve every stage.
 */
#include <stdlib.h>

#include "agent.h"
#include "buffers.h"
#include "cm_events.h"
#include "connection.h"
#include "exchange.h"
#include "interrupt.h"
#include "queue_pair.h"

int our_serve_client(struct our_control *control)
{
	int status = EXIT_FAILURE;
	int ret;

	if (our_setup_stats(&control->stats, control->count,
			    control->options->statistics))
		goto out_destroy_id;
	if (our_setup_qp(control))
		goto out_unsetup_stats;
	if (our_setup_buffers(control, our_agent_buffers(control)))
		goto out_unsetup_qp;
	/* Receives go up before we accept. */
	if (our_prepare_agent(control))
		goto out_unsetup_buffers;
	if (our_accept(control))
		goto out_unsetup_buffers;

	/* From here Ctrl-C ends the run after the transfer in progress. */
	if (our_catch_interrupts())
		goto out_disconnect;
	our_start_clock(&control->stats);
	ret = our_run_agent(control);
	our_stop_clock(&control->stats);
	our_release_interrupts();
	status = our_end_of_run(control, ret);
	our_print_report(control);
out_disconnect:
	our_disconnect(control);

out_unsetup_buffers:
	our_unsetup_buffers(control);
out_unsetup_qp:
	our_unsetup_qp(control);
out_unsetup_stats:
	our_unsetup_stats(&control->stats);
out_destroy_id:
	our_destroy_id(control);
	/* The agent's own event channel, where the stage gives it one. */
	our_unsetup_cm_events(&control->cm_channel);
	return status;
}
