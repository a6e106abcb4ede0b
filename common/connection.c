// SPDX-License-Identifier: MIT
/*
 * connection.c - connection management with the RDMA CM, both ends.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include "cm_events.h"
#include "connection.h"
#include "exchange.h"
#include "instruments.h"
#include "private_data.h"
#include "report.h"

/* How long address and route resolution may take, in milliseconds. */
#define OUR_RESOLVE_TIMEOUT_MS 2000

/* IB CM reject reason: no one listens on the service (port) asked for. */
#define OUR_REJ_INVALID_SERVICE_ID 8
/* IB CM reject reason: the listening application said no. */
#define OUR_REJ_CONSUMER_DEFINED 28

/* Write "address:port" of addr into name, of 72 bytes or more. */
static void name_address(const struct sockaddr *addr, char *name,
			 size_t size)
{
	/* Numbers only: an IPv6 address and its scope fit in 64 bytes. */
	char host[64] = "?";
	char port[8] = "?";

	getnameinfo(addr, sizeof(struct sockaddr_storage), host, sizeof(host),
		    port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(name, size, "%s:%s", host, port);
}

/*
 * Look up host and port. A name that does not resolve is the student's
 * most common typo: say so plainly. Free the result with freeaddrinfo().
 */
static int look_up(const char *host, uint32_t port,
		   struct addrinfo **result)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		/* With no host (a server with no -a): every local address. */
		.ai_flags = AI_PASSIVE,
	};
	char service[12];
	int ret;

	snprintf(service, sizeof(service), "%u", port);
	ret = getaddrinfo(host, service, &hints, result);
	if (ret) {
		our_error("cannot resolve '%s': %s", host ? host : "*",
			  gai_strerror(ret));
		return -1;
	}
	return 0;
}

int our_ack_cm_event(struct rdma_cm_event *event)
{
	int ret = rdma_ack_cm_event(event);

	if (our_verb_failed(ret, "rdma_ack_cm_event"))
		return -1;
	return 0;
}

int our_check_cm_event(const char *peer, const struct rdma_cm_event *event,
		       enum rdma_cm_event_type expected)
{
	if (event->event == expected && event->status == 0)
		return 0;
	our_error("%s: %s where %s was due (status %d)", peer,
		  rdma_event_str(event->event), rdma_event_str(expected),
		  event->status);
	our_explain_cm_failure(peer, event);
	our_report_refusal(event);
	return -1;
}

void our_explain_cm_failure(const char *peer,
			    const struct rdma_cm_event *event)
{
	int status;
	enum rdma_cm_event_type type;

	/* A synchronous id's verb that failed at once leaves the last
	 * step's event, which went well, in place. */
	if (event && !event->status)
		event = NULL;
	status = event ? event->status : -errno;
	type = event ? event->event : 0;

	if (status == -ENODEV && !peer)
		our_error("no RDMA device on this machine: run the kit in "
			  "its lab ('make lab')");
	else if (status == -ENODEV)
		our_error("no RDMA device reaches %s: give the address of a "
			  "netdev that has an RDMA device on it", peer);
	else if (peer && (status == -ENETUNREACH || status == -EHOSTUNREACH))
		/* The kernel has no interface that is up on the way to the
		 * peer: on RoCE, the netdev under the device's port is down
		 * (rdma_resolve_addr fails at once). */
		our_error("no route to %s: no network interface that is up "
			  "reaches it; is the RDMA device's port down? "
			  "('rdma link' shows its state)", peer);
	else if (!event)
		return;
	else if (type == RDMA_CM_EVENT_REJECTED &&
		 (status == OUR_REJ_INVALID_SERVICE_ID ||
		  status == -ECONNREFUSED))
		our_error("no server listens at %s", peer);
	else if (type == RDMA_CM_EVENT_REJECTED)
		our_error("%s rejected the connection (%s)", peer,
			  status == OUR_REJ_CONSUMER_DEFINED ?
				  "the server said no" : "its CM said no");
	else if (type == RDMA_CM_EVENT_ADDR_ERROR ||
		 type == RDMA_CM_EVENT_ROUTE_ERROR)
		our_error("no route to %s", peer);
	else if (type == RDMA_CM_EVENT_UNREACHABLE && status == -ETIMEDOUT)
		/* The CM resends a request that gets no answer, then gives
		 * up: a host that is not there, or a listener whose backlog
		 * is full (its CM drops the request, so that we retry). */
		our_error("%s does not answer: timed out after the CM's "
			  "retries of our request (no host there, or its "
			  "server's backlog is full)", peer);
	else if (type == RDMA_CM_EVENT_UNREACHABLE ||
		 type == RDMA_CM_EVENT_CONNECT_ERROR)
		our_error("%s does not answer", peer);
}

int our_resolve_server(struct our_control *control,
		       const struct our_options *options)
{
	struct addrinfo *address;
	int ret;

	if (look_up(options->address, options->port, &address))
		return -1;
	name_address(address->ai_addr, control->peer_name,
		     sizeof(control->peer_name));

	/* excerpt resolve */
	/* An id is the CM's handle on one connection, like a socket. */
	if (our_create_id(&control->cm_id, control)) {
		our_explain_cm_failure(NULL, NULL);
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
		goto out_destroy_id;
	/* end excerpt resolve */
	freeaddrinfo(address);
	return 0;

out_destroy_id:
	our_destroy_id(&control->cm_id);
out_free_address:
	freeaddrinfo(address);
	return -1;
}

/* The connection parameters both sides ask for (rdma_accept ignores
 * retry_count: the client's holds for both). */
static const struct rdma_conn_param connection_parameters = {
	/* Not 7: Soft-RoCE takes 7 as "retry for ever", as the standard
	 * does only for rnr_retry_count, and a cut link would hang us. */
	.retry_count = OUR_RETRY_COUNT,
	/* Our receives are always posted before the matching send, so a
	 * "receiver not ready" NAK is a bug: fail at once rather than
	 * retry (7 would retry for ever). */
	.rnr_retry_count = 0,
};

/*
 * Set how long our queue pair waits for an acknowledgement before it
 * sends again. Left to the CM, RoCE waits about 2 s a try: a packet lost
 * would stall a run that long, and a cut link take 15 s to be noticed.
 */
static int set_ack_timeout(struct our_control *control)
{
	uint8_t timeout = OUR_ACK_TIMEOUT;
	int ret = rdma_set_option(control->cm_id, RDMA_OPTION_ID,
				  RDMA_OPTION_ID_ACK_TIMEOUT, &timeout,
				  sizeof(timeout));

	return our_verb_failed(ret, "rdma_set_option ACK timeout %u",
			       timeout) ? -1 : 0;
}

int our_connect(struct our_control *control)
{
	struct rdma_conn_param param = connection_parameters;
	int ret;

	if (our_ask_resources(control, &param))
		return -1;
	if (set_ack_timeout(control))
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

int our_setup_listener(struct our_listener *listener,
		       const struct our_options *options)
{
	struct addrinfo *address;
	char name[80];
	int ret;

	if (look_up(options->address, options->port, &address))
		return -1;
	name_address(address->ai_addr, name, sizeof(name));

	/* excerpt listen */
	if (our_create_id(&listener->cm_id, listener)) {
		our_explain_cm_failure(NULL, NULL);
		goto out_free_address;
	}

	/* Claim the address and port, as bind() does for a socket. */
	ret = rdma_bind_addr(listener->cm_id, address->ai_addr);
	if (our_verb_failed(ret, "rdma_bind_addr %s", name))
		goto out_destroy_id;

	/* Connection requests for our port now queue up until we take
	 * them: at most as many as the server serves at once. */
	ret = rdma_listen(listener->cm_id, (int)options->clients);
	if (our_verb_failed(ret, "rdma_listen %s", name))
		goto out_destroy_id;
	our_say("listening on %s", name);
	/* end excerpt listen */
	freeaddrinfo(address);
	return 0;

out_destroy_id:
	our_destroy_id(&listener->cm_id);
out_free_address:
	freeaddrinfo(address);
	return -1;
}

void our_unsetup_listener(struct our_listener *listener)
{
	our_destroy_id(&listener->cm_id);
}

int our_get_request(struct our_listener *listener,
		    struct our_control *control)
{
	struct rdma_cm_event *event;

	if (our_await_request(listener, &event))
		return -1;
	/* The request comes with a new id: the agent's end of the
	 * connection. */
	control->cm_id = event->id;
	name_address(rdma_get_peer_addr(control->cm_id), control->peer_name,
		     sizeof(control->peer_name));
	our_trace(1, "connection request from %s with %u bytes of private "
		  "data", control->peer_name,
		  event->param.conn.private_data_len);
	/* A request we refuse is rejected; the caller waits for the next. */
	if (our_refuse_request(control, event)) {
		our_drop_request(control, event);
		return 1;
	}
	return our_take_request(control, event);
}

int our_accept(struct our_control *control)
{
	struct rdma_conn_param param = connection_parameters;
	int ret;

	if (our_ask_resources(control, &param))
		return -1;
	if (set_ack_timeout(control))
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
