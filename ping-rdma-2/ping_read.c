// SPDX-License-Identifier: MIT
/*
 * ping_read.c - the ping-pong by RDMA read.
 *
 * Each side registers one buffer that the peer may read, and advertises
 * it (ping-rdma-1's remote_memory.c) in its first message. Then, in each
 * round trip, the client puts the ping in its buffer and says so with a
 * notice (ping-rdma-1's notice.c); the agent reads the ping into its own
 * buffer, and says that the pong is ready; the client reads the pong
 * back, from where the ping landed in the agent.
 *
 * A read is the other way round from a write: the side that wants the
 * bytes fetches them, and its own work completion says they are here.
 * The side that has the bytes takes no part, and learns nothing: it must
 * say when they are ready, and must not change them until the reader is
 * done, which the reader's next notice tells it.
 */
#include <stdbool.h>

#include "buffers.h"
#include "cm_events.h"
#include "exchange.h"
#include "memory_wire.h"
#include "notice.h"
#include "posting.h"
#include "private_data.h"
#include "remote_memory.h"
#include "report.h"

const struct our_program our_client_program = {
	.name = "client",
	.purpose = "Ping a server by RDMA read and time the round trips.",
	.role = OUR_CLIENT,
	.accepts = OUR_ACCEPTS_TRANSFER,
	.timed = &our_cm_sees_hang_up,
};

const struct our_program our_server_program = {
	.name = "server",
	.purpose = "Answer one client's RDMA read pings, then exit.",
	.role = OUR_SERVER,
	.told_by_client = &our_client_sets_run,
	.accepts = OUR_ACCEPTS_TRANSFER,
};

const char our_transfer_unit[] = "round trip";
/* The read, and the notice that goes with it. */
const uint32_t our_sends_per_transfer = 2;
const uint32_t our_sges_per_message = 1;
/* One read in flight each way: the agent's of the ping, the client's of
 * the pong. */
const uint8_t our_reads_in_flight = 1;

/* The client's remote slots: the ping, which the agent reads, and the
 * pong, which the client reads into. */
#define OUR_PING_SLOT 0
#define OUR_PONG_SLOT 1

/* The larger of the two messages: what a message slot must hold. */
#define OUR_MESSAGE_SIZE sizeof(struct our_memory_ad)

/* excerpt access */
/*
 * The remote access our buffer needs: the peer reads it. We also read
 * into it, which needs local write only; but on iWARP a read is answered
 * with an RDMA write into the reader's memory, so there the memory a
 * read lands in must be open to remote writes too.
 */
static unsigned int remote_access(const struct our_control *control)
{
	const struct ibv_device *device = control->cm_id->verbs->device;

	if (device->transport_type == IBV_TRANSPORT_IWARP)
		return IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	return IBV_ACCESS_REMOTE_READ;
}
/* end excerpt access */

struct our_buffer_plan our_client_buffers(const struct our_control *control)
{
	/* No data is sent: the send and receive slots carry the
	 * advertisements and the notices. */
	return (struct our_buffer_plan){
		.send_slots = 1, .send_size = OUR_MESSAGE_SIZE,
		.recv_slots = 1, .recv_size = OUR_MESSAGE_SIZE,
		.remote_slots = 2, .remote_size = control->size,
		.remote_access = remote_access(control),
	};
}

struct our_buffer_plan our_agent_buffers(const struct our_control *control)
{
	/* The ping is read into the remote slot, and the client reads the
	 * pong from there: no copy. */
	return (struct our_buffer_plan){
		.send_slots = 1, .send_size = OUR_MESSAGE_SIZE,
		.recv_slots = 1, .recv_size = OUR_MESSAGE_SIZE,
		.remote_slots = 1, .remote_size = control->size,
		.remote_access = remote_access(control),
	};
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

/* excerpt read */
/*
 * Post a signaled RDMA read of length bytes from the start of the peer's
 * advertised memory into slot of control->remote. Returns 0, or -1
 * (reported).
 */
static int post_read(struct our_control *control, uint32_t slot,
		     uint32_t length)
{
	struct ibv_sge sge = our_sge(&control->remote, slot, length);
	struct ibv_send_wr wr = {
		.wr_id = our_wr_id(OUR_WR_READ, slot),
		/* Where the bytes go: our memory. */
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
		/* Where they come from: the peer's memory, by its key. */
		.wr.rdma = {
			.remote_addr = control->peer_memory.addr,
			.rkey = control->peer_memory.rkey,
		},
	};

	/* Our adapter asks the peer's for the bytes and puts them in our
	 * memory; the peer's CPU takes no part. */
	return our_post_wr(control, &wr);
}
/* end excerpt read */

int our_run_client(struct our_control *control)
{
	char *ping = our_slot(&control->remote, OUR_PING_SLOT);
	char *pong = our_slot(&control->remote, OUR_PONG_SLOT);
	struct ibv_wc wc;
	uint32_t i;

	/* The client speaks first (iWARP requires it). */
	if (our_advertise_memory(control, 0) ||
	    our_await_transfers(control, 1, true, &wc) ||
	    our_take_memory_ad(control, &wc, control->size))
		return -1;
	our_fill_data(ping, control->size, 0);
	for (i = 0; our_keep_going(control, i); i++) {
		uint64_t start = our_now_ns();

		/* The receive for the agent's notice goes up first. */
		if (our_post_recv(control, 0))
			return -1;
		/* The agent read the last ping before it said the pong was
		 * ready: the ping slot is ours to fill again. */
		if (control->verify)
			our_fill_data(ping, control->size, i);
		if (our_post_notice(control, 0, i))
			return -1;
		/* Our notice, and the agent's: the pong is ready. */
		if (our_await_transfers(control, 1, true, &wc))
			return -1;
		if (!our_expected_notice(control, &wc, i))
			return -1;
		/* Fetch the pong; the read's completion says it is here. */
		if (post_read(control, OUR_PONG_SLOT, control->size) ||
		    our_await_transfers(control, 1, false, &wc))
			return -1;
		if (!our_pong_verified(control, pong, i))
			return -1;
		our_count_transfer(&control->stats, 2ull * control->size,
				   our_now_ns() - start);
	}
	/* The agent must keep the last pong until we have read it: a last
	 * notice, numbered with the count, says we have. (A timed run's
	 * agent waits for us to hang up; a run cut short needs no pong.) */
	if (control->count && i == control->count)
		return our_post_notice(control, 0, control->count) ||
		       our_await_transfers(control, 1, false, &wc);
	return 0;
}

int our_run_agent(struct our_control *control)
{
	char *ping = our_slot(&control->remote, 0);
	struct ibv_wc wc;
	uint64_t start;

	/* The client's advertisement is in; the receive for its first
	 * notice goes up before ours goes out. */
	if (our_await_transfers(control, 0, true, &wc) ||
	    our_take_memory_ad(control, &wc, control->size) ||
	    our_post_recv(control, 0) ||
	    our_advertise_memory(control, 0))
		return -1;
	start = our_now_ns();
	for (uint32_t i = 0; our_keep_going(control, i); i++) {
		/* Our last notice (or advertisement) has gone, and the
		 * client's says ping i is ready. It comes after the client
		 * has read the last pong, so our buffer is free. */
		if (our_await_transfers(control, 1, true, &wc))
			return -1;
		if (!our_expected_notice(control, &wc, i))
			return -1;
		/* The notice is read: its slot takes the next one. */
		if (our_post_recv(control, 0))
			return -1;
		/* Fetch the ping into our buffer. */
		if (post_read(control, 0, control->size) ||
		    our_await_transfers(control, 1, false, &wc))
			return -1;
		if (control->verify &&
		    !our_verify_data(ping, control->size, i))
			return -1;
		/* The pong is the ping, read back from where it landed. */
		if (our_post_notice(control, 0, i))
			return -1;
		our_count_transfer(&control->stats, 2ull * control->size,
				   our_now_ns() - start);
		start = our_now_ns();
	}
	if (our_await_transfers(control, 1, false, &wc))
		return -1;
	/* The client reads the last pong from our buffer: it must stay
	 * until the client's last notice says it has. */
	if (control->count && control->end == OUR_RUN_AS_PLANNED) {
		if (our_await_transfers(control, 0, true, &wc) ||
		    !our_expected_notice(control, &wc, control->count))
			return -1;
	}
	return 0;
}

void our_print_exchange_counters(const struct our_control *control)
{
	(void)control; /* a read and a notice each way: see above */
}
