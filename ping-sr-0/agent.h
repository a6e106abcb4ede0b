/* SPDX-License-Identifier: MIT */
/*
 * agent.h - the agent: the steps that serve one client, once the
 * listener has taken its connection request.
 *
 * The server of every stage runs them for its one client (server.c); a
 * server for many clients at once runs them in a thread for each
 * (atomic-1's server_threads.c).
 */
#ifndef OUR_AGENT_H
#define OUR_AGENT_H

#include "control.h"

/*
 * Serve the client whose request control holds (see our_get_request):
 * set up the protection domain, memory and queues, accept, run the
 * exchange, report, disconnect, and undo it all, the request's id
 * included. Returns the exit status the run deserves (see
 * our_end_run).
 */
int our_serve_client(struct our_control *control);

#endif
