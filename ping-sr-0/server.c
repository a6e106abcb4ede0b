// SPDX-License-Identifier: MIT
/*
 * server.c - the server: a listener that waits for one client, and the
 * agent that runs the exchange with it (in the ping stages, each ping
 * comes back as a pong).
 *
 * main() is the listener's steps; the agent's are in agent.c. The same
 * steps serve every stage. The server serves one client, then exits.
 */
#include <stdlib.h>

#include "agent.h"
#include "connection.h"
#include "exchange.h"
#include "private_data.h"

int main(int argc, char *argv[])
{
	const struct our_option *const tables[] = {
		our_server_address, our_server_options, NULL,
	};
	const struct our_program program = {
		.name = "server",
		.purpose = our_server_purpose,
		.runs = true,
		.tables = tables,
	};
	struct our_options options;
	struct our_listener listener;
	struct our_control control;
	int status, ret;

	status = our_parse_options(&program, argc, argv, &options);
	if (status >= 0)
		return status;
	status = EXIT_FAILURE;
	our_init_control(&control, &options);

	if (our_setup_listener(&listener, &options))
		return EXIT_FAILURE;
	/* The agent runs what the client asked for, where the stage lets
	 * the client say; a refused request is rejected: wait for the next. */
	while ((ret = our_get_request(&listener, &control)) > 0)
		;
	if (ret)
		goto out_unsetup_listener;
	status = our_serve_client(&control);
out_unsetup_listener:
	our_unsetup_listener(&listener);
	return status;
}
