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
#include "completions.h"
#include "exchange.h"
#include "posting.h"
#include "report.h"

const struct our_program our_client_program = {
	.name = "client",
	.purpose = "Send pings to a ping-pong server over RDMA and time them.",
	.role = OUR_CLIENT,
	.accepts = OUR_ACCEPTS_TRANSFER,
};

const struct our_program our_server_program = {
	.name = "server",
	.purpose = "Answer one ping-pong client over RDMA, then exit.",
	.role = OUR_SERVER,
	.accepts = OUR_ACCEPTS_TRANSFER,
};

const char our_transfer_unit[] = "round trip";

int our_prepare_client(struct our_control *control)
{
	/* The first pong's receive is posted before anything is sent. */
	return our_post_recv(control, 0);
}

int our_prepare_agent(struct our_control *control)
{
	/* The first ping's receive is posted before we accept. */
	return our_post_recv(control, 0);
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
 * says how that went. Returns 0, or -1 (reported).
 */
static int await_transfers(struct our_control *control, bool send, bool recv,
			   uint32_t number, bool *length_ok)
{
	struct ibv_wc wc;

	while (send || recv) {
		if (our_await_completion(control, &wc))
			return -1;
		if (our_wr_kind(wc.wr_id) == OUR_WR_SEND) {
			send = false;
		} else {
			recv = false;
			*length_ok = expected_length(control, &wc, number);
		}
	}
	return 0;
}

int our_run_client(struct our_control *control)
{
	char *ping = our_slot(&control->send, 0);
	char *pong = our_slot(&control->recv, 0);
	bool verify = control->options->verify;
	bool length_ok = true;

	our_fill_data(ping, control->size, 0);
	for (uint32_t i = 0; i < control->count; i++) {
		uint64_t start = our_now_ns();

		if (verify)
			our_fill_data(ping, control->size, i);
		if (our_post_send(control, 0, control->size))
			return -1;
		if (await_transfers(control, true, true, i, &length_ok))
			return -1;
		if (!length_ok)
			return -1;
		if (verify && !our_verify_data(pong, control->size, i)) {
			our_error("pong %u differs from its ping", i);
			return -1;
		}
		/* The receive for the next pong goes up before its ping. */
		if (i + 1 < control->count && our_post_recv(control, 0))
			return -1;
		our_count_transfer(&control->stats, 2ull * control->size,
				   our_now_ns() - start);
	}
	return 0;
}

int our_run_agent(struct our_control *control)
{
	char *ping = our_slot(&control->recv, 0);
	char *pong = our_slot(&control->send, 0);
	bool verify = control->options->verify;
	bool sending = false;
	bool length_ok = true;
	uint64_t start = our_now_ns();

	for (uint32_t i = 0; i < control->count; i++) {
		/* The previous pong's send may complete before or after
		 * this ping arrives. */
		if (await_transfers(control, sending, true, i, &length_ok))
			return -1;
		if (verify && length_ok &&
		    !our_verify_data(ping, control->size, i))
			return -1;
		memcpy(pong, ping, control->size);
		/* The receive for the next ping goes up before this pong. */
		if (length_ok && i + 1 < control->count &&
		    our_post_recv(control, 0))
			return -1;
		/* Answer even a ping of the wrong size, so the client learns
		 * of the mismatch too instead of waiting for ever. */
		if (our_post_send(control, 0, control->size))
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
