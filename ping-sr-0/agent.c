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
#include "completions.h"
#include "connection.h"
#include "exchange.h"
#include "interrupt.h"
#include "posting.h"

int our_serve_client(struct our_control *control)
{
	int status = EXIT_FAILURE;
	int ret;

	if (our_create_pd(control))
		goto out_destroy_id;
	if (our_setup_agent_memory(control))
		goto out_destroy_pd;
	if (our_create_cq(control))
		goto out_unsetup_memory;
	if (our_create_qp(control))
		goto out_destroy_cq;
	/* Receives go up before we accept. */
	if (our_prepare_agent(control))
		goto out_destroy_qp;
	if (our_accept(control))
		goto out_destroy_qp;

	/* From here Ctrl-C ends the run cleanly, with a report. */
	if (our_start_run(control))
		goto out_disconnect;
	ret = our_run_agent(control);
	status = our_end_run(control, ret);
out_disconnect:
	our_disconnect(control);
out_destroy_qp:
	our_destroy_qp(control);
out_destroy_cq:
	our_destroy_cq(control);
out_unsetup_memory:
	our_unsetup_agent_memory(control);
out_destroy_pd:
	our_destroy_pd(control);
out_destroy_id:
	our_destroy_id(&control->cm_id);
	return status;
}
