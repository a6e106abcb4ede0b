// SPDX-License-Identifier: MIT
/*
 * ping.c - the ping-pong exchange over a connected queue pair.
 *
 * The client sends a ping and waits for the pong; the agent echoes each
 * ping back. Each side posts the receive for the next message before it
 * sends, so a message never arrives to find no receive waiting.
 */
#include <string.h>

#include "buffers.h"
#include "cm_events.h"
#include "completions.h"
#include "exchange.h"
#include "private_data.h"
#include "posting.h"
#include "report.h"

const struct our_program our_client_program = {
	.name = "client",
	.purpose = "Send pings to a ping-pong server over RDMA and time them.",
	.role = OUR_CLIENT,
	.accepts = OUR_ACCEPTS_TRANSFER,
	.timed = &our_cm_sees_hang_up,
};

const struct our_program our_server_program = {
	.name = "server",
	.purpose = "Answer one ping-pong client over RDMA, then exit.",
	.role = OUR_SERVER,
	.told_by_client = &our_client_sets_run,
	.accepts = OUR_ACCEPTS_TRANSFER,
};

const char our_transfer_unit[] = "round trip";
const uint32_t our_sends_per_transfer = 1;
const uint32_t our_sges_per_message = 1;
const uint8_t our_reads_in_flight = 0;

/* The slot the agent's ping number i lands in, and its pong leaves from. */
#define OUR_AGENT_SLOT(i) ((i) % 2)

struct our_buffer_plan our_client_buffers(const struct our_control *control)
{
	/* One ping to send, one pong to receive. */
	return (struct our_buffer_plan){
		.send_slots = 1, .send_size = control->size,
		.recv_slots = 1, .recv_size = control->size,
	};
}

struct our_buffer_plan our_agent_buffers(const struct our_control *control)
{
	/* Each pong goes out from the slot its ping arrived in: no copy.
	 * Two slots, so the next ping's receive can go up while the pong
	 * of the last one is still being sent. */
	return (struct our_buffer_plan){ .recv_slots = 2,
					 .recv_size = control->size };
}

int our_prepare_client(struct our_control *control)
{
	/* The first pong's receive is posted before anything is sent. */
	return our_post_recv(control, 0);
}

int our_prepare_agent(struct our_control *control)
{
	/* The first ping's receive is posted before we accept. */
	return our_post_recv(control, OUR_AGENT_SLOT(0));
}

/*
 * A message arrived in a completion: check that it has the size we agreed
 * on. A different size means the two sides disagree on -s (problem 1).
 */
static bool expected_length(const struct our_control *control,
			    const struct ibv_wc *wc, uint32_t number)
{
	if (wc->byte_len == control->size)
		return true;
	our_error("size mismatch: message %u from %s has %u bytes, we expect "
		  "%u; do both sides use the same -s?",
		  number, control->peer_name, wc->byte_len, control->size);
	return false;
}

/*
 * Wait until a send (when send is true) and a receive (when recv is true)
 * have completed, in whichever order the completion queue gives them.
 * A receive's length is checked against the size we expect: *length_ok
 * says how that went. Returns 0, or -1 (see our_await_completion).
 */
static int await_transfers(struct our_control *control, bool send, bool recv,
			   uint32_t number, bool *length_ok)
{
	struct ibv_wc wc;

	if (our_await_transfers(control, send, recv, &wc))
		return -1;
	if (recv)
		*length_ok = expected_length(control, &wc, number);
	return 0;
}

int our_run_client(struct our_control *control)
{
	char *ping = our_slot(&control->send, 0);
	char *pong = our_slot(&control->recv, 0);
	bool length_ok = true;

	our_fill_data(ping, control->size, 0);
	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		uint64_t start = our_now_ns();

		/* The receive for this pong is up: from our_prepare_client,
		 * or from the end of the last round trip. */
		if (i > 0 && our_post_recv(control, 0))
			return -1;
		if (control->verify)
			our_fill_data(ping, control->size, i);
		if (our_post_send(control, &control->send, 0, control->size))
			return -1;
		if (await_transfers(control, true, true, i, &length_ok))
			return -1;
		if (!length_ok)
			return -1;
		if (!our_pong_verified(control, pong, i))
			return -1;
		our_count_transfer(&control->stats, 2ull * control->size,
				   our_now_ns() - start);
	}
	return 0;
}

int our_run_agent(struct our_control *control)
{
	bool sending = false;
	bool length_ok = true;
	uint64_t start = our_now_ns();

	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		uint32_t slot = OUR_AGENT_SLOT(i);
		char *ping = our_slot(&control->recv, slot);

		/* The previous pong's send may complete before or after
		 * this ping arrives; once it has, its slot is free. */
		if (await_transfers(control, sending, true, i, &length_ok))
			return -1;
		if (control->verify && length_ok &&
		    !our_verify_data(ping, control->size, i))
			return -1;
		/* The receive for the next ping goes up before this pong,
		 * into the other slot. */
		if (length_ok && our_post_recv(control, OUR_AGENT_SLOT(i + 1)))
			return -1;
		/* The pong is the ping itself, sent back from where it
		 * landed. Even a ping of the wrong size is answered, so the
		 * client learns of the mismatch too instead of waiting. */
		if (our_post_send(control, &control->recv, slot,
				  control->size))
			return -1;
		sending = true;
		if (!length_ok) {
			await_transfers(control, true, false, i, &length_ok);
			return -1;
		}
		our_count_transfer(&control->stats, 2ull * control->size,
				   our_now_ns() - start);
		start = our_now_ns();
	}
	return await_transfers(control, sending, false, 0, &length_ok);
}

void our_print_exchange_counters(const struct our_control *control)
{
	(void)control; /* one send and one receive a round trip: see above */
}
