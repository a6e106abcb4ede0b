// SPDX-License-Identifier: MIT
/*
 * ping.c - the ping-pong exchange over a connected queue pair.
 *
 * The client sends a ping and waits for the pong; the agent echoes each
 * ping back. Each side posts the receive for the next message before it
 * sends, so a message never arrives to find no receive waiting.
 */
#include "buffers.h"
#include "completions.h"
#include "exchange.h"
#include "posting.h"
#include "report.h"

const char our_client_purpose[] =
	"Send pings to a ping-pong server over RDMA and time them.";
const char our_server_purpose[] =
	"Answer one ping-pong client over RDMA, then exit.";

const struct our_option our_client_options[] = {
	OUR_COUNT_OPTION,
	OUR_SIZE_OPTION,
	OUR_VERIFY_OPTION,
	{ 0 },
};

const char our_transfer_unit[] = "round trip";
const uint32_t our_sizes_per_transfer = 2;
const uint32_t our_sges_per_message = 1;

/* The slot the agent's ping number i lands in, and its pong leaves from. */
#define OUR_AGENT_SLOT(i) ((i) % 2)

int our_setup_client_memory(struct our_control *control)
{
	/* One ping to send, one pong to receive: one of each in flight. */
	const struct our_buffer_plan plan = {
		.send_slots = 1, .send_size = control->size,
		.recv_slots = 1, .recv_size = control->size,
		.sends = 1,
	};

	return our_setup_buffers(control, &plan);
}

int our_setup_agent_memory(struct our_control *control)
{
	/* Each pong goes out from the slot its ping arrived in: no copy.
	 * Two slots, so the next ping's receive can go up while the pong
	 * of the last one is still being sent. */
	const struct our_buffer_plan plan = {
		.recv_slots = 2, .recv_size = control->size,
		.sends = 1,
	};

	return our_setup_buffers(control, &plan);
}

void our_unsetup_client_memory(struct our_control *control)
{
	our_unsetup_buffers(control);
}

void our_unsetup_agent_memory(struct our_control *control)
{
	our_unsetup_buffers(control);
}

int our_prepare_client(struct our_control *control)
{
	/* The first pong's receive is posted before anything is sent. */
	return our_post_recv(control, 0);
}

int our_prepare_agent(struct our_control *control)
{
	/* The first ping's: the client sends it once connected. */
	return our_post_recv(control, OUR_AGENT_SLOT(0));
}

/*
 * A message arrived in a completion: check that it has the size we agreed
 * on. A different size means the two sides disagree on -s.
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

int our_run_client(struct our_control *control)
{
	/* excerpt round_trip */
	char *ping = our_slot(&control->send, 0);
	char *pong = our_slot(&control->recv, 0);
	struct ibv_wc wc = { 0 }; /* set by our_await_transfers */

	our_fill_data(ping, control->size, 0);
	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		/* The receive for this pong: our_prepare_client posted the
		 * first one, each round trip posts the next. */
		if (i > 0 && our_post_recv(control, 0))
			return -1;
		if (control->verify)
			our_fill_data(ping, control->size, i);
		if (our_post_send(control, &control->send, 0, control->size))
			return -1;
		/* The send and the pong, in whichever order they come. */
		if (our_await_transfers(control, 1, true, &wc))
			return -1;
		if (!expected_length(control, &wc, i) ||
		    !our_pong_verified(control, pong, i))
			return -1;
		our_count_transfer(control);
	}
	/* end excerpt round_trip */
	return 0;
}

int our_run_agent(struct our_control *control)
{
	uint32_t sending = 0; /* the last pong's send, until it completes */
	struct ibv_wc wc;

	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		uint32_t slot = OUR_AGENT_SLOT(i);
		char *ping = our_slot(&control->recv, slot);
		bool length_ok;

		/* The previous pong's send may complete before or after
		 * this ping arrives; once it has, its slot is free. */
		if (our_await_transfers(control, sending, true, &wc))
			return -1;
		length_ok = expected_length(control, &wc, i);
		if (length_ok && control->verify &&
		    !our_verify_data(ping, control->size, i))
			return -1;
		/* The receive for the next ping goes up before this pong,
		 * into the other slot. */
		if (length_ok && our_post_recv(control, OUR_AGENT_SLOT(i + 1)))
			return -1;
		/* The pong is the ping itself, sent back from where it
		 * landed. A ping shorter than agreed is answered too, so the
		 * client learns of the mismatch instead of waiting (a longer
		 * one does not fit: its receive fails). */
		if (our_post_send(control, &control->recv, slot, control->size))
			return -1;
		sending = 1;
		if (!length_ok) {
			our_await_transfers(control, 1, false, &wc);
			return -1;
		}
		our_count_transfer(control);
	}
	return our_await_transfers(control, sending, false, &wc);
}
