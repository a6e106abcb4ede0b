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
#include "exchange.h"
#include "memory_wire.h"
#include "notice.h"
#include "posting.h"
#include "read_resources.h"
#include "remote_memory.h"
#include "report.h"

const char our_client_purpose[] =
	"Ping a server by RDMA read and time the round trips.";
const char our_server_purpose[] =
	"Answer one client's RDMA read pings, then exit.";

const struct our_option our_client_options[] = {
	OUR_COUNT_OPTION,
	OUR_SIZE_OPTION,
	OUR_VERIFY_OPTION,
	{ 0 },
};

const char our_transfer_unit[] = "round trip";
const uint32_t our_sizes_per_transfer = 2;
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

/* No data is sent: the send and receive slots carry the advertisements
 * and the notices, one of each in flight, with a read. */
static const struct our_buffer_plan messages = {
	.send_slots = 1, .send_size = OUR_MESSAGE_SIZE,
	.recv_slots = 1, .recv_size = OUR_MESSAGE_SIZE,
	.sends = 2,
};

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

/* Register the messages' slots, and slots of -s bytes that the peer
 * may read. */
static int setup_memory(struct our_control *control, uint32_t slots)
{
	if (our_setup_buffers(control, &messages))
		return -1;
	if (our_setup_remote(control, slots, control->size,
				remote_access(control))) {
		our_unsetup_buffers(control);
		return -1;
	}
	return 0;
}

int our_setup_client_memory(struct our_control *control)
{
	/* The ping, which the agent reads, and the pong, read into. */
	return setup_memory(control, 2);
}

int our_setup_agent_memory(struct our_control *control)
{
	/* The ping is read into it, and the client reads the pong from
	 * there: no copy. */
	return setup_memory(control, 1);
}

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

/* excerpt read */
/*
 * Post a signaled RDMA read of length bytes from the start of the peer's
 * advertised memory into slot of our own memory open to the peer
 * (control->exchange->mine). Returns 0, or -1 (reported).
 */
static int post_read(struct our_control *control, uint32_t slot,
		     uint32_t length)
{
	struct ibv_sge sge = our_sge(&control->exchange->mine, slot, length);
	struct ibv_send_wr wr = {
		.wr_id = OUR_WR_ID(OUR_WR_READ, slot),
		/* Where the bytes go: our memory. */
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
		/* Where they come from: the peer's memory, by its key. */
		.wr.rdma = {
			.remote_addr = control->exchange->peer.addr,
			.rkey = control->exchange->peer.rkey,
		},
	};

	/* Our adapter asks the peer's for the bytes and puts them in our
	 * memory; the peer's CPU takes no part. */
	return our_post_wr(control, &wr, "RDMA read");
}
/* end excerpt read */

int our_run_client(struct our_control *control)
{
	char *ping = our_slot(&control->exchange->mine, OUR_PING_SLOT);
	char *pong = our_slot(&control->exchange->mine, OUR_PONG_SLOT);
	struct ibv_wc wc;
	uint32_t i;

	/* The client speaks first (iWARP requires it). */
	if (our_advertise_memory(control, 0) ||
	    our_await_transfers(control, 1, true, &wc) ||
	    our_take_memory_ad(control, &wc, control->size))
		return -1;
	our_fill_data(ping, control->size, 0);
	for (i = 0; our_keep_going(control, i); i++) {
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
		/* The read, not the notice, ends the round trip: a read that
		 * fails fails the run, even the last (our_count_done). */
		control->answered = false;
		/* Fetch the pong; the read's completion says it is here. */
		if (post_read(control, OUR_PONG_SLOT, control->size) ||
		    our_await_transfers(control, 1, false, &wc))
			return -1;
		if (!our_pong_verified(control, pong, i))
			return -1;
		our_count_transfer(control);
	}
	/* The agent must keep the last pong until we have read it: a last
	 * notice, numbered with the count, says we have. (With no count,
	 * the agent waits for us to hang up; a run cut short needs no
	 * pong.) */
	if (control->count && i == control->count &&
	    (our_post_notice(control, 0, control->count) ||
	     our_await_transfers(control, 1, false, &wc)))
		return -1;
	return 0;
}

int our_run_agent(struct our_control *control)
{
	char *ping = our_slot(&control->exchange->mine, 0);
	struct ibv_wc wc;
	bool last;

	/* The client's advertisement is in; the receive for its first
	 * notice goes up before ours goes out. */
	if (our_await_transfers(control, 0, true, &wc) ||
	    our_take_memory_ad(control, &wc, control->size) ||
	    our_post_recv(control, 0) ||
	    our_advertise_memory(control, 0))
		return -1;
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
		/* Fetch the ping into our buffer: the read's failure, even
		 * the last's, fails the run (our_count_done). */
		control->answered = false;
		if (post_read(control, 0, control->size) ||
		    our_await_transfers(control, 1, false, &wc))
			return -1;
		if (control->verify &&
		    !our_verify_data(ping, control->size, i))
			return -1;
		/* The pong is the ping, read back from where it landed. */
		if (our_post_notice(control, 0, i))
			return -1;
		our_count_transfer(control);
	}
	/* Our last notice has gone, and the client has read the last pong
	 * from our buffer, which must stay until its last notice says so.
	 * That notice may come before our send's completion (when the
	 * acknowledgement is late): the two are awaited together. */
	last = control->count && control->end == OUR_RUN_AS_PLANNED;
	if (our_await_transfers(control, 1, last, &wc))
		return -1;
	if (last && !our_expected_notice(control, &wc, control->count))
		return -1;
	return 0;
}
