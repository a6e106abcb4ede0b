// SPDX-License-Identifier: MIT
/*
 * ping_sg.c - the ping-pong with each message in two pieces: a header
 * that numbers it, and the payload.
 *
 * The two pieces live apart, the headers in a small buffer of their own
 * and the payloads in the send and receive slots. A send gathers a
 * message from both in one work request, with a list of two
 * scatter-gather elements; a receive scatters it back into two places.
 * Neither side copies a byte to put a message together or take it
 * apart. The agent sends each ping back from where its two pieces
 * landed.
 */
#include <arpa/inet.h>

#include <stdlib.h>

#include "buffers.h"
#include "completions.h"
#include "exchange.h"
#include "posting.h"
#include "report.h"

const char our_client_purpose[] =
	"Send pings, each a header and a payload, to a ping-pong server over "
	"RDMA and time them.";
const char our_server_purpose[] =
	"Answer one ping-pong client over RDMA, each message a header and a "
	"payload, then exit.";

const struct our_option our_client_options[] = {
	OUR_COUNT_OPTION,
	OUR_SIZE_OPTION,
	OUR_VERIFY_OPTION,
	{ 0 },
};

const char our_transfer_unit[] = "round trip";
const uint32_t our_sizes_per_transfer = 2;
const uint32_t our_sges_per_message = 2;

/* What goes before each payload, in a scatter-gather element of its own
 * (on the wire, in network byte order). */
struct our_head {
	uint32_t number; /* the ping's number, from 0 */
	uint32_t length; /* the payload's bytes: the client's -s */
};

/* What the exchange keeps: control->exchange, the headers' slots. */
struct our_exchange {
	struct our_buffers heads;
};

/* The client's header slots: the ping's going out, the pong's coming in. */
#define OUR_PING_HEAD 0
#define OUR_PONG_HEAD 1

/* The agent's slot (header and payload) for ping number i. */
#define OUR_AGENT_SLOT(i) ((i) % 2)

/* Register plan's slots, and two header slots beside them. */
static int setup_memory(struct our_control *control,
			const struct our_buffer_plan *plan)
{
	control->exchange = calloc(1, sizeof(*control->exchange));
	if (!control->exchange) {
		our_error("no memory for the headers");
		return -1;
	}
	if (our_setup_buffers(control, plan))
		goto out_free;
	if (our_register_buffers(control, &control->exchange->heads, 2,
				 sizeof(struct our_head),
				 IBV_ACCESS_LOCAL_WRITE, "header"))
		goto out_unsetup_buffers;
	return 0;

out_unsetup_buffers:
	our_unsetup_buffers(control);
out_free:
	free(control->exchange);
	control->exchange = NULL;
	return -1;
}

/* Undo setup_memory. */
static void unsetup_memory(struct our_control *control)
{
	our_deregister_buffers(&control->exchange->heads, "header");
	our_unsetup_buffers(control);
	free(control->exchange);
	control->exchange = NULL;
}

int our_setup_client_memory(struct our_control *control)
{
	const struct our_buffer_plan plan = {
		.send_slots = 1, .send_size = control->size,
		.recv_slots = 1, .recv_size = control->size,
		.sends = 1,
	};

	return setup_memory(control, &plan);
}

int our_setup_agent_memory(struct our_control *control)
{
	/* Two receive slots, and two headers (setup_memory), so that the
	 * next ping's receive can go up while the last pong is still being
	 * sent from the other. */
	const struct our_buffer_plan plan = {
		.recv_slots = 2, .recv_size = control->size,
		.sends = 1,
	};

	return setup_memory(control, &plan);
}

void our_unsetup_client_memory(struct our_control *control)
{
	unsetup_memory(control);
}

void our_unsetup_agent_memory(struct our_control *control)
{
	unsetup_memory(control);
}

/* The two pieces of a message: header slot head_slot, payload slot slot. */
static void message_sges(const struct our_control *control,
			 const struct our_buffers *payloads, uint32_t head_slot,
			 uint32_t slot, struct ibv_sge sges[2])
{
	sges[0] = our_sge(&control->exchange->heads, head_slot,
			  sizeof(struct our_head));
	sges[1] = our_sge(payloads, slot, control->size);
}

/* Post a receive that puts the next message's header into header slot
 * head_slot and its payload into receive slot slot. */
static int post_receive(struct our_control *control, uint32_t head_slot,
			uint32_t slot)
{
	struct ibv_sge sges[2];

	message_sges(control, &control->recv, head_slot, slot, sges);
	return our_post_recvv(control, OUR_WR_ID(OUR_WR_RECV, slot), sges, 2);
}

/* Post the send of header slot head_slot and payload slot slot of
 * payloads (the send or the receive slots). */
static int post_message(struct our_control *control,
			const struct our_buffers *payloads, uint32_t head_slot,
			uint32_t slot)
{
	struct ibv_sge sges[2];

	message_sges(control, payloads, head_slot, slot, sges);
	return our_post_sendv(control, OUR_WR_ID(OUR_WR_SEND, slot), sges, 2);
}

int our_prepare_client(struct our_control *control)
{
	return post_receive(control, OUR_PONG_HEAD, 0);
}

int our_prepare_agent(struct our_control *control)
{
	return post_receive(control, OUR_AGENT_SLOT(0), OUR_AGENT_SLOT(0));
}

/*
 * The message that wc brought, its header in header slot head_slot: true
 * when it is message number and as long as we agreed; otherwise says
 * what it was.
 */
static bool expected_message(const struct our_control *control,
			     const struct ibv_wc *wc, uint32_t head_slot,
			     uint32_t number)
{
	const struct our_head *h =
		(const void *)our_slot(&control->exchange->heads, head_slot);
	uint32_t expected = sizeof(*h) + control->size;

	if (wc->byte_len != expected) {
		our_error("size mismatch: message %u from %s has %u bytes, "
			  "we expect %u (a %zu-byte header and %u of payload)",
			  number, control->peer_name, wc->byte_len, expected,
			  sizeof(*h), control->size);
		return false;
	}
	if (ntohl(h->number) != number || ntohl(h->length) != control->size) {
		our_error("message %u from %s has the header of message %u "
			  "with %u bytes of payload",
			  number, control->peer_name, ntohl(h->number),
			  ntohl(h->length));
		return false;
	}
	return true;
}

int our_run_client(struct our_control *control)
{
	struct our_head *head = (void *)our_slot(&control->exchange->heads,
						 OUR_PING_HEAD);
	char *ping = our_slot(&control->send, 0);
	struct ibv_wc wc = { 0 }; /* set by our_await_transfers */

	our_fill_data(ping, control->size, 0);
	head->length = htonl(control->size);
	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		/* The pong's receive: our_prepare_client posted the first,
		 * each later round trip posts its own here. */
		if (i > 0 && post_receive(control, OUR_PONG_HEAD, 0))
			return -1;
		head->number = htonl(i);
		if (control->verify)
			our_fill_data(ping, control->size, i);
		if (post_message(control, &control->send, OUR_PING_HEAD, 0) ||
		    our_await_transfers(control, 1, true, &wc) ||
		    !expected_message(control, &wc, OUR_PONG_HEAD, i))
			return -1;
		if (!our_pong_verified(control, our_slot(&control->recv, 0), i))
			return -1;
		our_count_transfer(control);
	}
	return 0;
}

int our_run_agent(struct our_control *control)
{
	uint32_t sending = 0; /* the last pong's send, until it completes */
	struct ibv_wc wc;

	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		uint32_t slot = OUR_AGENT_SLOT(i);

		/* The last pong's send may complete before or after this
		 * ping arrives; once it has, its slots are free. */
		if (our_await_transfers(control, sending, true, &wc))
			return -1;
		if (!expected_message(control, &wc, slot, i) ||
		    (control->verify &&
		     !our_verify_data(our_slot(&control->recv, slot),
				      control->size, i)))
			return -1;
		/* The next ping's receive goes up first, into the other
		 * slots; then the pong: the ping's own header and payload,
		 * gathered from where they landed. */
		if (post_receive(control, OUR_AGENT_SLOT(i + 1),
				 OUR_AGENT_SLOT(i + 1)) ||
		    post_message(control, &control->recv, slot, slot))
			return -1;
		sending = 1;
		our_count_transfer(control);
	}
	return our_await_transfers(control, sending, false, &wc);
}
