// SPDX-License-Identifier: MIT
/*
 * connection.c - connection management with the RDMA CM, both ends.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include "cm_events.h"
#include "connection.h"
#include "exchange.h"
#include "interrupt.h"
#include "private_data.h"
#include "report.h"

/* How long address and route resolution may take, in milliseconds. */
#define OUR_RESOLVE_TIMEOUT_MS 2000

/* IB CM reject reason: no one listens on the service (port) asked for. */
#define OUR_REJ_INVALID_SERVICE_ID 8
/* IB CM reject reason: the listening application said no. */
#define OUR_REJ_CONSUMER_DEFINED 28

/* Write "address:port" of addr into name. */
static void name_address(const struct sockaddr *addr, char *name,
			 size_t size)
{
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned int port = 0;

	if (addr->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)addr;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		port = ntohs(in->sin_port);
	} else if (addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)addr;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		port = ntohs(in6->sin6_port);
	}
	snprintf(name, size, "%s:%u", host, port);
}

/*
 * Look up host and port. A name that does not resolve is the student's
 * most common typo: say so plainly. Free the result with freeaddrinfo().
 */
static int look_up(const char *host, const char *port, bool passive,
		   struct addrinfo **result)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = passive ? AI_PASSIVE : 0,
	};
	int ret = getaddrinfo(host, port, &hints, result);

	if (ret) {
		our_error("cannot resolve '%s': %s", host ? host : "*",
			  gai_strerror(ret));
		return -1;
	}
	return 0;
}

bool our_wait_must_end(struct our_control *control, uint64_t *give_up)
{
	bool gone = our_peer_disconnected(control);

	if (atomic_load(&control->watch_failed))
		return true;
	if (!gone && !our_interrupted())
		return false;
	/* A disconnect travels on its own path and can overtake
	 * completions already on their way: give them a moment, and as
	 * long to a transfer in progress when Ctrl-C came. */
	if (!*give_up)
		*give_up = our_now_ns() + OUR_GRACE_MS * 1000000ull;
	if (our_now_ns() < *give_up)
		return false;
	control->end = gone ? OUR_RUN_PEER_GONE : OUR_RUN_INTERRUPTED;
	return true;
}

int our_ack_cm_event(struct rdma_cm_event *event)
{
	int ret = rdma_ack_cm_event(event);

	if (our_verb_failed(ret, "rdma_ack_cm_event"))
		return -1;
	return 0;
}

void our_keep_private_data(struct our_control *control,
			   const struct rdma_cm_event *event)
{
	uint8_t length = event->param.conn.private_data_len;

	/* private_data_len is a uint8_t: peer_data holds any length. */
	static_assert(sizeof(control->peer_data) > UINT8_MAX,
		      "peer_data must hold any private data");
	if (!event->param.conn.private_data)
		length = 0;
	memcpy(control->peer_data, event->param.conn.private_data, length);
	control->peer_data_len = length;
}

void our_explain_no_device(const struct our_control *control)
{
	our_error("no RDMA device reaches %s: give the address of a netdev "
		  "that has an RDMA device on it",
		  control->peer_name);
}

void our_explain_cm_event(const struct our_control *control,
			  const struct rdma_cm_event *event,
			  enum rdma_cm_event_type expected)
{
	const char *peer = control->peer_name;

	switch (event->event) {
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		if (event->status == -ENODEV)
			our_explain_no_device(control);
		else
			our_error("no route to %s (%s)", peer,
				  strerror(-event->status));
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		our_error("%s does not answer: %s", peer,
			  event->status < 0 ? strerror(-event->status) :
					      "no reply from its CM");
		break;
	case RDMA_CM_EVENT_REJECTED:
		if (event->status == OUR_REJ_INVALID_SERVICE_ID ||
		    event->status == -ECONNREFUSED)
			our_error("no server listens at %s", peer);
		else if (event->status == OUR_REJ_CONSUMER_DEFINED)
			our_error("the server at %s rejected the connection",
				  peer);
		else
			our_error("%s rejected the connection (CM reason %d)",
				  peer, event->status);
		our_explain_rejection(control);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		our_error("%s disconnected", peer);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		our_error("the RDMA device was removed");
		break;
	default:
		our_error("expected %s, got %s (status %d)",
			  rdma_event_str(expected),
			  rdma_event_str(event->event),
			  event->status);
		break;
	}
}

int our_resolve_server(struct our_control *control)
{
	const struct our_options *options = control->options;
	struct addrinfo *address;
	int ret;

	if (look_up(options->server_name, options->port, false, &address))
		return -1;
	name_address(address->ai_addr, control->peer_name,
		     sizeof(control->peer_name));

	/* excerpt resolve */
	/* An id is the CM's handle on one connection, like a socket. */
	ret = rdma_create_id(control->cm_channel, &control->cm_id, control,
			     RDMA_PS_TCP);
	if (our_verb_failed(ret, "rdma_create_id RDMA_PS_TCP")) {
		if (errno == ENODEV)
			our_error("no RDMA device on this machine: run the "
				  "kit in the lab ('make lab')");
		goto out_free_address;
	}

	/* Find the local RDMA device that reaches the server. */
	ret = rdma_resolve_addr(control->cm_id, NULL, address->ai_addr,
				OUR_RESOLVE_TIMEOUT_MS);
	if (our_await_cm_event(control, ret, RDMA_CM_EVENT_ADDR_RESOLVED,
			       "rdma_resolve_addr"))
		goto out_destroy_id;
	our_trace(2, "resolved %s on device %s port %u", control->peer_name,
		  ibv_get_device_name(control->cm_id->verbs->device),
		  control->cm_id->port_num);

	/* Find the path through the fabric to the server. */
	ret = rdma_resolve_route(control->cm_id, OUR_RESOLVE_TIMEOUT_MS);
	if (our_await_cm_event(control, ret, RDMA_CM_EVENT_ROUTE_RESOLVED,
			       "rdma_resolve_route"))
	/* end excerpt resolve */
		goto out_destroy_id;
	freeaddrinfo(address);
	return 0;

out_destroy_id:
	our_destroy_id(control);
out_free_address:
	freeaddrinfo(address);
	return -1;
}

void our_destroy_id(struct our_control *control)
{
	int ret = rdma_destroy_id(control->cm_id);

	our_verb_failed(ret, "rdma_destroy_id");
	control->cm_id = NULL;
}

/*
 * Whether the device can keep reads RDMA reads in flight at a queue pair
 * and from it. Returns 0, or -1 (reported).
 */
static int check_read_resources(const struct our_control *control,
				uint8_t reads)
{
	struct ibv_context *verbs = control->cm_id->verbs;
	struct ibv_device_attr attr;
	int ret;

	ret = ibv_query_device(verbs, &attr);
	if (our_verb_failed(ret, "ibv_query_device"))
		return -1;
	if (attr.max_qp_rd_atom < reads || attr.max_qp_init_rd_atom < reads) {
		our_error("%s allows %d RDMA reads in flight at a queue pair, "
			  "and %d from it; the exchange needs %u",
			  ibv_get_device_name(verbs->device),
			  attr.max_qp_rd_atom, attr.max_qp_init_rd_atom, reads);
		return -1;
	}
	our_trace(1, "asking for %u RDMA reads in flight each way", reads);
	return 0;
}

/*
 * The connection parameters both sides ask for. Returns 0, or -1 when
 * the device cannot keep the exchange's RDMA reads in flight (reported).
 */
static int connection_parameters(const struct our_control *control,
				 struct rdma_conn_param *param)
{
	uint8_t reads = our_reads_in_flight;

	if (reads && check_read_resources(control, reads))
		return -1;
	*param = (struct rdma_conn_param){
		/* RDMA reads (and atomics) the peer may have in flight at
		 * us: our adapter keeps this many answers going at once. */
		.responder_resources = reads,
		/* ... and those we may have in flight at the peer. Both
		 * sides run the same exchange, so they ask for the same; a
		 * server could take the client's figures from the connect
		 * request (event->param.conn) instead. */
		.initiator_depth = reads,
		/* Retry a lost packet up to 7 times before failing. */
		.retry_count = 7,
		/* Our receives are always posted before the matching send,
		 * so a "receiver not ready" NAK is a bug: fail at once
		 * rather than retry (7 would retry for ever). */
		.rnr_retry_count = 0,
	};
	return 0;
}

int our_connect(struct our_control *control)
{
	struct rdma_conn_param param;
	int ret;

	if (connection_parameters(control, &param))
		return -1;
	our_fill_private_data(control, &param);
	/* The CM exchanges queue pair numbers with the server's CM and
	 * brings our queue pair to the ready-to-send state. */
	ret = rdma_connect(control->cm_id, &param);
	if (our_await_cm_event(control, ret, RDMA_CM_EVENT_ESTABLISHED,
			       "rdma_connect"))
		return -1;
	return our_watch_connection(control);
}

/* Undo rdma_create_id for the listener. */
static void destroy_listener_id(struct our_listener *listener)
{
	int ret = rdma_destroy_id(listener->cm_id);

	our_verb_failed(ret, "rdma_destroy_id listener");
	listener->cm_id = NULL;
}

int our_setup_listener(struct our_listener *listener,
		       const struct our_options *options)
{
	struct addrinfo *address;
	char name[80];
	int ret;

	if (look_up(options->server_name, options->port, true, &address))
		return -1;
	name_address(address->ai_addr, name, sizeof(name));
	if (our_setup_cm_events(&listener->cm_channel))
		goto out_free_address;

	/* excerpt listen */
	ret = rdma_create_id(listener->cm_channel, &listener->cm_id, listener,
			     RDMA_PS_TCP);
	if (our_verb_failed(ret, "rdma_create_id RDMA_PS_TCP"))
		goto out_unsetup_cm_events;

	/* Claim the address and port, as bind() does for a socket. */
	ret = rdma_bind_addr(listener->cm_id, address->ai_addr);
	if (our_verb_failed(ret, "rdma_bind_addr %s", name))
		goto out_destroy_id;

	/* Connection requests for our port now queue up for us: as many
	 * as the server serves at once (-n; 1 for every server but
	 * atomic-1's). */
	ret = rdma_listen(listener->cm_id, (int)options->clients);
	if (our_verb_failed(ret, "rdma_listen %s", name))
		goto out_destroy_id;
	our_say("listening on %s", name);
	/* end excerpt listen */
	freeaddrinfo(address);
	return 0;

out_destroy_id:
	destroy_listener_id(listener);
out_unsetup_cm_events:
	our_unsetup_cm_events(&listener->cm_channel);
out_free_address:
	freeaddrinfo(address);
	return -1;
}

void our_unsetup_listener(struct our_listener *listener)
{
	destroy_listener_id(listener);
	our_unsetup_cm_events(&listener->cm_channel);
}

int our_get_request(struct our_listener *listener,
		    struct our_control *control)
{
	for (;;) {
		if (our_await_request(listener, control))
			return -1;
		name_address(rdma_get_peer_addr(control->cm_id),
			     control->peer_name, sizeof(control->peer_name));
		our_trace(1, "connection request from %s with %u bytes of "
			     "private data",
			  control->peer_name, control->peer_data_len);
		if (our_adopt_private_data(control) == 0)
			return 0;
		/* Refused: the listener waits for the next client. */
		our_destroy_id(control);
		our_unsetup_cm_events(&control->cm_channel);
	}
}

int our_accept(struct our_control *control)
{
	struct rdma_conn_param param;
	int ret;

	if (connection_parameters(control, &param))
		return -1;
	/* The CM brings our queue pair to ready-to-send and answers the
	 * client's CM; the connection is up when the client confirms. */
	ret = rdma_accept(control->cm_id, &param);
	if (our_await_cm_event(control, ret, RDMA_CM_EVENT_ESTABLISHED,
			       "rdma_accept"))
		return -1;
	if (our_watch_connection(control))
		return -1;
	our_say("%s connected", control->peer_name);
	return 0;
}

void our_reject(struct our_control *control, const void *reason,
		uint8_t reason_len)
{
	int ret = rdma_reject(control->cm_id, reason, reason_len);

	our_verb_failed(ret, "rdma_reject %s", control->peer_name);
}

void our_disconnect(struct our_control *control)
{
	int ret;

	/* With no channel, rdma_disconnect waits until the peer answers,
	 * and a peer that does not watch the connection (ping-sr-0 and 1)
	 * answers only once its own run is over. After a run that Ctrl-C cut
	 * short, the disconnect is left to rdma_destroy_id: it tells the
	 * peer too, and does not wait. */
	if (!our_cm_sees_hang_up && control->end == OUR_RUN_INTERRUPTED) {
		our_trace(1, "no rdma_disconnect: %s would not answer",
			  control->peer_name);
		return;
	}

	/* The CM tells the peer we are going; our queue pair goes to the
	 * error state and any work still posted is flushed. */
	ret = rdma_disconnect(control->cm_id);
	our_await_cm_event(control, ret, RDMA_CM_EVENT_DISCONNECTED,
			   "rdma_disconnect");
	our_unwatch_connection(control);
}
