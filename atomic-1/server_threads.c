// SPDX-License-Identifier: MIT
/*
 * server_threads.c - a server for many clients at once: the listener
 * takes each client's request and starts an agent thread for it, up to
 * -n clients; then it waits for the agents and exits.
 *
 * Each agent runs the steps of every stage's agent (ping-sr-0/agent.c)
 * with a control structure of its own: its own id, queue pair, memory and
 * CM event channel. What they share is set up once, here (shared.h).
 * Threads, not processes: OFA resources do not survive fork().
 *
 * Ctrl-C and SIGTERM end the wait for clients, and the agents end their
 * runs as they see the note (interrupt.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cm_channel.h"
#include "cm_events.h"
#include "connection.h"
#include "exchange.h"
#include "interrupt.h"
#include "private_data.h"
#include "report.h"
#include "shared.h"

/* How often the wait for clients looks whether Ctrl-C came. */
#define OUR_LISTEN_LOOKUP_MS 200

/* One agent: its connection, its thread, and how its run ended. */
struct our_agent {
	struct our_control control;
	pthread_t thread;
	int status;
};

static void *serve(void *arg)
{
	struct our_agent *agent = arg;

	agent->status = our_serve_client(&agent->control);
	return NULL;
}

/*
 * Wait until a connection request is waiting on the listener's channel.
 * Returns 0 when one is, 1 when Ctrl-C or SIGTERM came instead, or -1
 * (reported).
 */
static int await_client(struct our_listener *listener)
{
	struct pollfd channel = { .fd = listener->cm_id->channel->fd,
				  .events = POLLIN };
	int ret;

	/* A look up every OUR_LISTEN_LOOKUP_MS: a signal that comes
	 * between the look and the poll is seen at the next. */
	while (!our_interrupted()) {
		ret = poll(&channel, 1, OUR_LISTEN_LOOKUP_MS);
		if (ret == 1)
			return 0;
		if (ret < 0 && errno != EINTR) {
			our_error("poll listener's CM channel: %s",
				  strerror(errno));
			return -1;
		}
	}
	return 1;
}

/* excerpt start_agent */
/* Start agent's thread. Returns 0, or -1 (reported). */
static int start_agent(struct our_agent *agent)
{
	return our_start_thread(&agent->thread, serve, agent, "agent");
}
/* end excerpt start_agent */

/*
 * Take up to options->clients requests, each served by an agent thread
 * of agents, until Ctrl-C; a refused request takes none. Returns how many
 * agents were started; *failed says whether the listener failed.
 */
static uint32_t take_clients(struct our_listener *listener,
			     struct our_agent *agents,
			     const struct our_options *options, bool *failed)
{
	uint32_t started = 0;
	int ret = 0;

	/* excerpt take_clients */
	while (started < options->clients &&
	       (ret = await_client(listener)) == 0) {
		struct our_agent *agent = &agents[started];

		/* A request waits, so taking it does not block. */
		our_init_control(&agent->control, options);
		ret = our_get_request(listener, &agent->control);
		if (ret > 0)
			continue; /* refused: wait for the next */
		if (ret < 0)
			break;
		ret = start_agent(agent);
		if (ret) {
			/* No agent for this client: its id goes, which
			 * refuses it. */
			our_destroy_id(&agent->control.cm_id);
			break;
		}
		started++;
	}
	/* end excerpt take_clients */
	*failed = ret < 0; /* not after Ctrl-C */
	return started;
}

/*
 * The listener's life: listen, take up to options->clients clients, each
 * to an agent thread of agents, and stop listening. Returns how many
 * agents were started in *started; returns 0, or -1 when the listener
 * failed (reported; agents may have started).
 */
static int listen_for_clients(const struct our_options *options,
			      struct our_agent *agents, uint32_t *started)
{
	struct our_listener listener;
	bool failed = false;

	*started = 0;
	if (our_setup_listener(&listener, options))
		return -1;
	*started = take_clients(&listener, agents, options, &failed);
	/* No more clients: one that comes now is refused at once, instead
	 * of waiting for the agents to end. */
	our_unsetup_listener(&listener);
	return failed ? -1 : 0;
}

/*
 * Wait for the started agents to end. Returns the server's exit status:
 * 128 plus the signal's number when a signal ended the run, 1 when the
 * listener or an agent failed, or a client's run was cut short; else 0.
 */
static int join_agents(struct our_agent *agents, uint32_t started,
		       bool failed)
{
	int status = failed ? EXIT_FAILURE : EXIT_SUCCESS;
	int ret;

	for (uint32_t i = 0; i < started; i++) {
		ret = pthread_join(agents[i].thread, NULL);
		if (our_verb_error(ret, "pthread_join agent") ||
		    agents[i].status != EXIT_SUCCESS)
			status = EXIT_FAILURE;
	}
	if (our_interrupted())
		status = 128 + our_interrupted();
	return status;
}

/* -n: how many clients, each as it comes. */
static const struct our_option many_clients[] = {
	OUR_CLIENTS_OPTION,
	{ 0 },
};

int main(int argc, char *argv[])
{
	const struct our_option *const tables[] = {
		our_server_address, many_clients, our_server_options, NULL,
	};
	const struct our_program program = {
		.name = "server",
		.purpose = our_server_purpose,
		.runs = true,
		.tables = tables,
	};
	struct our_interrupts interrupts;
	struct our_options options;
	struct our_agent *agents;
	uint32_t started;
	int status;
	int ret;

	status = our_parse_options(&program, argc, argv, &options);
	if (status >= 0)
		return status;
	status = EXIT_FAILURE;
	agents = calloc(options.clients, sizeof(*agents));
	if (!agents) {
		our_error("no memory for %u agents", options.clients);
		return EXIT_FAILURE;
	}
	if (our_setup_shared(&options))
		goto out_free_agents;
	/* Ctrl-C ends the wait for clients, and every agent's run. */
	if (our_catch_interrupts(&interrupts))
		goto out_unsetup_shared;
	ret = listen_for_clients(&options, agents, &started);
	status = join_agents(agents, started, ret != 0);
	our_release_interrupts(&interrupts);
	/* Every agent has ended: what they shared is ours again. */
	if (started > 0)
		our_report_shared(started);
out_unsetup_shared:
	our_unsetup_shared();
out_free_agents:
	free(agents);
	return status;
}
