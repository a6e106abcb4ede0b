// SPDX-License-Identifier: MIT
/*
 * ping_write.c - the ping-pong by RDMA write.
 *
 * Each side registers one buffer that the peer may write into, and
 * advertises it (remote_memory.c) in its first message. Then the client
 * writes each ping straight into the agent's buffer, and the agent
 * writes the pong straight back into the client's, from where the ping
 * landed: no receive is used for the data, and the target's CPU does
 * nothing while the bytes arrive.
 *
 * But an RDMA write does not tell the target that anything happened. So
 * each write is followed, on the same queue pair, by a small send, the
 * notice: a reliable connection carries out a queue pair's work requests
 * in order, so when the notice's receive completes, the write before it
 * has landed. (A write with immediate data would tell the target by
 * itself, but iWARP does not have it; write then send works on every
 * transport.)
 */
#include "buffers.h"
#include "exchange.h"
#include "memory_wire.h"
#include "notice.h"
#include "posting.h"
#include "remote_memory.h"
#include "report.h"

const char our_client_purpose[] =
	"Ping a server by RDMA write and time the round trips.";
const char our_server_purpose[] =
	"Answer one client's RDMA write pings, then exit.";

const struct our_option our_client_options[] = {
	OUR_COUNT_OPTION,
	OUR_SIZE_OPTION,
	OUR_VERIFY_OPTION,
	{ 0 },
};

const char our_transfer_unit[] = "round trip";
const uint32_t our_sizes_per_transfer = 2;
const uint32_t our_sges_per_message = 1;

/* The client's send slots: the ping, and the small messages. */
#define OUR_PING_SLOT 0
#define OUR_MESSAGE_SLOT 1

/* The larger of the two messages: what a message slot must hold. */
#define OUR_MESSAGE_SIZE sizeof(struct our_memory_ad)

/*
 * Register what a side needs: plan's send and receive slots, and one
 * slot of -s bytes, that the peer may write into and nothing else.
 */
static int setup_memory(struct our_control *control,
			const struct our_buffer_plan *plan)
{
	if (our_setup_buffers(control, plan))
		return -1;
	if (our_setup_remote(control, 1, control->size,
				IBV_ACCESS_REMOTE_WRITE)) {
		our_unsetup_buffers(control);
		return -1;
	}
	return 0;
}

int our_setup_client_memory(struct our_control *control)
{
	uint32_t size = control->size > OUR_MESSAGE_SIZE ? control->size :
							  OUR_MESSAGE_SIZE;
	/* The ping goes out from a send slot; the pong lands in the remote
	 * slot. At most the write and a notice in flight. */
	const struct our_buffer_plan plan = {
		.send_slots = 2, .send_size = size,
		.recv_slots = 1, .recv_size = OUR_MESSAGE_SIZE,
		.sends = 2,
	};

	return setup_memory(control, &plan);
}

/* excerpt agent_memory */
int our_setup_agent_memory(struct our_control *control)
{
	/* The ping lands in the remote slot, and the pong leaves from it:
	 * no copy. Messages come and go in slots of their own. */
	const struct our_buffer_plan plan = {
		.send_slots = 1, .send_size = OUR_MESSAGE_SIZE,
		.recv_slots = 1, .recv_size = OUR_MESSAGE_SIZE,
		.sends = 2,
	};

	return setup_memory(control, &plan);
}
/* end excerpt agent_memory */

void our_unsetup_client_memory(struct our_control *control)
{
	our_unsetup_remote(control);
	our_unsetup_buffers(control);
}

void our_unsetup_agent_memory(struct our_control *control)
{
	our_unsetup_remote(control);
	our_unsetup_buffers(control);
}

int our_prepare_client(struct our_control *control)
{
	/* The agent's advertisement may come as soon as we connect. */
	return our_post_recv(control, 0);
}

int our_prepare_agent(struct our_control *control)
{
	/* The client's advertisement comes first of all. */
	return our_post_recv(control, 0);
}

/* Each side's first message: our memory out, the peer's in. */
static int swap_advertisements(struct our_control *control, uint32_t slot)
{
	struct ibv_wc wc;

	if (our_advertise_memory(control, slot))
		return -1;
	if (our_await_transfers(control, 1, true, &wc))
		return -1;
	return our_take_memory_ad(control, &wc, control->size);
}

int our_run_client(struct our_control *control)
{
	char *ping = our_slot(&control->send, OUR_PING_SLOT);
	char *pong = our_slot(&control->exchange->mine, 0);
	struct ibv_wc wc;

	/* The client speaks first (iWARP requires it). */
	if (swap_advertisements(control, OUR_MESSAGE_SLOT))
		return -1;
	our_fill_data(ping, control->size, 0);
	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		/* The receive for the agent's notice goes up first. */
		if (our_post_recv(control, 0))
			return -1;
		if (control->verify)
			our_fill_data(ping, control->size, i);
		if (our_post_write(control, &control->send, OUR_PING_SLOT,
				   control->size, 0))
			return -1;
		if (our_post_notice(control, OUR_MESSAGE_SLOT, i))
			return -1;
		/* The write, the notice, and the agent's notice. */
		if (our_await_transfers(control, 2, true, &wc))
			return -1;
		if (!our_expected_notice(control, &wc, i))
			return -1;
		/* The notice came after the pong: the pong is here. */
		if (!our_pong_verified(control, pong, i))
			return -1;
		our_count_transfer(control);
	}
	return 0;
}

int our_run_agent(struct our_control *control)
{
	char *ping = our_slot(&control->exchange->mine, 0);
	uint32_t sending = 0;
	struct ibv_wc wc;

	/* The client's advertisement is in; the receive for its first
	 * notice goes up before ours goes out. */
	if (our_await_transfers(control, 0, true, &wc) ||
	    our_take_memory_ad(control, &wc, control->size) ||
	    our_post_recv(control, 0) ||
	    our_advertise_memory(control, 0))
		return -1;
	sending = 1;
	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		/* Our last write and notice may complete before or after
		 * this notice arrives; the message slot is free once they
		 * have. */
		if (our_await_transfers(control, sending, true, &wc))
			return -1;
		if (!our_expected_notice(control, &wc, i))
			return -1;
		if (control->verify &&
		    !our_verify_data(ping, control->size, i))
			return -1;
		/* The notice is read: its slot takes the next one. */
		if (our_post_recv(control, 0))
			return -1;
		/* The pong is the ping, written back from where it landed;
		 * the client writes no ping until our notice is in. */
		if (our_post_write(control, &control->exchange->mine, 0,
				   control->size, 0) ||
		    our_post_notice(control, 0, i))
			return -1;
		sending = 2;
		our_count_transfer(control);
	}
	return our_await_transfers(control, sending, false, &wc);
}
