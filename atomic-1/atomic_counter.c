// SPDX-License-Identifier: MIT
/*
 * atomic_counter.c - many clients add to one counter in the server, by
 * remote atomics.
 *
 * The server holds one 8-byte counter, which all its agents share
 * (shared.h): each agent registers it in its own protection domain, with
 * remote atomic access and nothing more, and advertises it to its client
 * (ping-rdma-1's remote_memory.c) in answer to the client's first notice.
 * The client then adds 1 to the counter, -c times: by turns, with a
 * fetch-and-add, and with a compare-and-swap that expects the value its
 * last addition left. Either brings back the value the counter had
 * before; a compare-and-swap that finds another value (another client
 * came between) swaps nothing, and is tried again with the value found.
 * Last, the client tells its agent in a notice how many it added.
 *
 * The server's CPU takes no part: its adapter does each atomic, whole,
 * before the next one on that counter, whichever client it comes from.
 * The counter ends at the sum of every client's count, and -v checks
 * that no value a client brings back is below one it saw before.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "buffers.h"
#include "exchange.h"
#include "instruments.h"
#include "memory_wire.h"
#include "notice.h"
#include "posting.h"
#include "read_resources.h"
#include "remote_memory.h"
#include "report.h"
#include "shared.h"
#include "shared_memory.h"

const char our_client_purpose[] =
	"Add to a server's shared counter by remote atomics, and time them.";
const char our_server_purpose[] =
	"Share one counter among clients that add to it by remote atomics,\n"
	"serving -n of them at once, then exit.";

/* No -s: every transfer is an atomic on 8 bytes. -c counts additions,
 * and -v checks the counter. */
const struct our_option our_client_options[] = {
	{ 'c', OUR_MAX_COUNT, OUR_FIELD(count),
	  "-c N         additions, 1 to 10000000 (default 100)" },
	{ 'v', 0, OUR_FIELD(verify),
	  "-v           check that the counter never goes back" },
	{ 0 },
};

/* An addition may take several atomics: a compare-and-swap that misses
 * is tried again. The report counts additions. */
const char our_transfer_unit[] = "addition";
const uint32_t our_sizes_per_transfer = 1;
const uint32_t our_sges_per_message = 1;
/* An atomic takes a responder resource, as an RDMA read does. */
const uint8_t our_reads_in_flight = 1;

/* The client's send slots: its notices, and the value an atomic brings
 * back, which the adapter writes there (local write is all it needs). */
#define OUR_MESSAGE_SLOT 0
#define OUR_RESULT_SLOT 1

/* The larger of the two messages: what a message slot must hold. */
#define OUR_MESSAGE_SIZE sizeof(struct our_memory_ad)

/*
 * What the agents share: the counter, and the adapter that does the
 * atomics on it. IBV_ATOMIC_HCA keeps atomics atomic among those of one
 * adapter only, so clients that come through another adapter (a server
 * that listens on every address may have several) are refused, unless
 * both adapters are IBV_ATOMIC_GLOB.
 */
struct our_counter {
	uint64_t value; /* first: calloc's memory is aligned for any type,
			 * so the counter is on an 8-byte boundary */
	pthread_mutex_t lock;        /* for adapter and cap */
	struct ibv_context *adapter; /* the first client's; NULL before */
	enum ibv_atomic_cap cap;     /* ... and what it says of atomics */
};

/* The server's one counter, which every agent reaches. */
static struct our_counter *counter;

int our_setup_shared(const struct our_options *options)
{
	int ret;

	(void)options;
	counter = calloc(1, sizeof(*counter));
	if (!counter) {
		our_error("no memory for the counter");
		return -1;
	}
	ret = pthread_mutex_init(&counter->lock, NULL);
	if (our_verb_error(ret, "pthread_mutex_init")) {
		free(counter);
		counter = NULL;
		return -1;
	}
	return 0;
}

void our_unsetup_shared(void)
{
	pthread_mutex_destroy(&counter->lock);
	free(counter);
	counter = NULL;
}

void our_report_shared(uint32_t clients)
{
	/* Read only now: the adapter's atomics are atomic among themselves
	 * (IBV_ATOMIC_HCA), not against the CPU's own accesses. */
	our_say("the counter is %" PRIu64 " after %u client%s",
		((volatile struct our_counter *)counter)->value, clients,
		clients == 1 ? "" : "s");
}

/* excerpt atomic_cap */
/*
 * Atomics are optional: a device says in atomic_cap whether it does them.
 * Returns 0 when control's device does, with its atomic_cap in *cap, or
 * -1 (reported).
 */
static int check_atomics(const struct our_control *control,
			 enum ibv_atomic_cap *cap)
{
	struct ibv_device_attr attr;
	int ret;

	ret = ibv_query_device(control->cm_id->verbs, &attr);
	if (our_verb_error(ret, "ibv_query_device"))
		return -1;
	our_trace(1, "ibv_query_device %s: atomic_cap %d, max_qp_rd_atom %d",
		  ibv_get_device_name(control->cm_id->verbs->device),
		  attr.atomic_cap, attr.max_qp_rd_atom);
	if (attr.atomic_cap == IBV_ATOMIC_NONE) {
		our_error("device %s does no atomics (its atomic_cap is "
			  "IBV_ATOMIC_NONE): atomic-1 needs one that does",
			  ibv_get_device_name(control->cm_id->verbs->device));
		return -1;
	}
	*cap = attr.atomic_cap;
	return 0;
}
/* end excerpt atomic_cap */

int our_setup_client_memory(struct our_control *control)
{
	/* Nothing of ours is open to the server: notices, and the values
	 * the atomics bring back. */
	const struct our_buffer_plan plan = {
		.send_slots = 2, .send_size = OUR_MESSAGE_SIZE,
		.recv_slots = 1, .recv_size = OUR_MESSAGE_SIZE,
		.sends = 1,
		/* The adapter writes the atomic's result into a send slot. */
		.send_access = IBV_ACCESS_LOCAL_WRITE,
	};
	enum ibv_atomic_cap cap;

	control->size = sizeof(uint64_t); /* what each atomic moves */
	if (check_atomics(control, &cap) || our_setup_buffers(control, &plan))
		return -1;
	/* None of our memory is open: room for the counter's address. */
	if (our_setup_remote(control, 0, 0, 0)) {
		our_unsetup_buffers(control);
		return -1;
	}
	return 0;
}

/*
 * The counter's atomics must all be done by one adapter, unless every
 * adapter that does them says IBV_ATOMIC_GLOB: the first client's sets
 * it. Returns 0 when control's client came through it, or through an
 * adapter whose atomics, and the first's, are atomic together; or -1
 * (reported).
 */
static int check_adapter(const struct our_control *control,
			 enum ibv_atomic_cap cap)
{
	struct ibv_context *adapter = control->cm_id->verbs;
	int ret = 0;

	pthread_mutex_lock(&counter->lock);
	if (!counter->adapter) {
		counter->adapter = adapter;
		counter->cap = cap;
	}
	if (counter->adapter != adapter &&
	    (cap != IBV_ATOMIC_GLOB || counter->cap != IBV_ATOMIC_GLOB)) {
		our_error("%s came through device %s, the counter's first "
			  "client through %s: their atomics would not be "
			  "atomic together (both must be IBV_ATOMIC_GLOB)",
			  control->peer_name,
			  ibv_get_device_name(adapter->device),
			  ibv_get_device_name(counter->adapter->device));
		ret = -1;
	}
	pthread_mutex_unlock(&counter->lock);
	return ret;
}

/* excerpt counter */
int our_setup_agent_memory(struct our_control *control)
{
	const struct our_buffer_plan plan = {
		.send_slots = 1, .send_size = OUR_MESSAGE_SIZE,
		.recv_slots = 1, .recv_size = OUR_MESSAGE_SIZE,
		.sends = 1,
	};
	enum ibv_atomic_cap cap;

	/* The device must do atomics before anything is opened to them. */
	if (check_atomics(control, &cap) || check_adapter(control, cap) ||
	    our_setup_buffers(control, &plan))
		return -1;
	/* The counter is the server's, not the agent's: the agent registers
	 * it in its own protection domain, open to atomics alone. */
	if (our_register_shared(control, &counter->value, 1, sizeof(uint64_t),
				IBV_ACCESS_REMOTE_ATOMIC)) {
		our_unsetup_buffers(control);
		return -1;
	}
	return 0;
}
/* end excerpt counter */

void our_unsetup_client_memory(struct our_control *control)
{
	our_unsetup_remote(control);
	our_unsetup_buffers(control);
}

void our_unsetup_agent_memory(struct our_control *control)
{
	our_deregister_shared(control);
	our_unsetup_buffers(control);
}

int our_prepare_client(struct our_control *control)
{
	/* The agent's advertisement, in answer to our first notice. */
	return our_post_recv(control, 0);
}

int our_prepare_agent(struct our_control *control)
{
	/* The client's first notice comes first of all. */
	return our_post_recv(control, 0);
}

/* excerpt atomic */
/*
 * Post a signaled atomic on the counter the agent advertised: a
 * fetch-and-add of add, or a compare-and-swap of compare for swap. The
 * value the counter had before lands in our result slot. Returns 0, or
 * -1 (reported).
 */
static int post_atomic(struct our_control *control,
		       enum ibv_wr_opcode opcode, uint64_t compare_add,
		       uint64_t swap)
{
	struct ibv_sge sge = our_sge(&control->send, OUR_RESULT_SLOT,
				     sizeof(uint64_t));
	struct ibv_send_wr wr = {
		.wr_id = OUR_WR_ID(OUR_WR_ATOMIC, OUR_RESULT_SLOT),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = opcode,
		.send_flags = IBV_SEND_SIGNALED,
		/* The counter, by its address and key; and the operands. */
		.wr.atomic = {
			.remote_addr = control->exchange->peer.addr,
			.compare_add = compare_add,
			.swap = swap,
			.rkey = control->exchange->peer.rkey,
		},
	};

	return our_post_wr(control, &wr, opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ?
						 "fetch-and-add" :
						 "compare-and-swap");
}
/* end excerpt atomic */

/*
 * Post one atomic and wait for it. Returns the value the counter had
 * before it in *before; returns 0, or -1 (reported).
 */
static int run_atomic(struct our_control *control, enum ibv_wr_opcode opcode,
		      uint64_t compare_add, uint64_t swap, uint64_t *before)
{
	uint64_t *result = (uint64_t *)our_slot(&control->send,
						OUR_RESULT_SLOT);
	struct ibv_wc wc;

	if (post_atomic(control, opcode, compare_add, swap) ||
	    our_await_transfers(control, 1, false, &wc))
		return -1;
	/* Soft-RoCE brings the old value back in our byte order. Some
	 * adapters bring it big-endian: check yours before you copy this,
	 * or a compare-and-swap on the value read never matches, for ever. */
	*before = *result;
	our_trace(2, "%s -> the counter was %" PRIu64,
		  opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ? "fetch-and-add" :
							   "compare-and-swap",
		  *before);
	return 0;
}

/* excerpt add */
/*
 * Add 1 to the counter, by a fetch-and-add when i is even and by a
 * compare-and-swap when it is odd. *last is the value our last addition
 * left, and becomes this one's. Returns 0, or -1 (reported).
 */
static int add_one(struct our_control *control, uint32_t i, uint64_t *last)
{
	/* excerpt add_one_op */
	uint64_t expected = *last;
	uint64_t before;

	if (i % 2 == 0) {
		if (run_atomic(control, IBV_WR_ATOMIC_FETCH_AND_ADD, 1, 0,
			       &before))
			return -1;
	} else {
		/* Swap in expected + 1 if the counter still holds expected;
		 * if another client came between, try with what it left. */
		for (;;) {
			if (run_atomic(control, IBV_WR_ATOMIC_CMP_AND_SWP,
				       expected, expected + 1, &before))
				return -1;
			if (before == expected)
				break;
			our_tally(control, "atomics", "compare-and-swaps that "
				  "found another client's value", 1);
			expected = before;
		}
	}
	/* end excerpt add_one_op */
	/* excerpt add_one_check */
	/* The counter only grows: no value comes back below one seen. */
	if (control->verify && before < *last) {
		our_error("the counter went back: %" PRIu64 " after %" PRIu64,
			  before, *last);
		return -1;
	}
	*last = before + 1;
	return 0;
	/* end excerpt add_one_check */
}
/* end excerpt add */

int our_run_client(struct our_control *control)
{
	uint64_t last = 0;
	struct ibv_wc wc;
	uint32_t added;

	/* The client speaks first (iWARP requires it): a notice that asks
	 * for the counter. */
	if (our_post_notice(control, OUR_MESSAGE_SLOT, 0) ||
	    our_await_transfers(control, 1, true, &wc) ||
	    our_take_memory_ad(control, &wc, sizeof(uint64_t)))
		return -1;
	if (control->exchange->peer.addr % sizeof(uint64_t)) {
		our_error("the counter at 0x%" PRIx64 " is not on an 8-byte "
			  "boundary, as atomics need",
			  control->exchange->peer.addr);
		return -1;
	}
	for (added = 0; our_keep_going(control, added); added++) {
		if (add_one(control, added, &last))
			return -1;
		our_count_transfer(control);
	}
	/* Tell the agent how many we added: its report, and the end. */
	if (our_post_notice(control, OUR_MESSAGE_SLOT, added) ||
	    our_await_transfers(control, 1, false, &wc))
		return -1;
	return 0;
}

int our_run_agent(struct our_control *control)
{
	uint32_t added;
	struct ibv_wc wc;

	/* The client's first notice is in: the receive for its last goes
	 * up before the advertisement goes out. */
	if (our_await_transfers(control, 0, true, &wc) ||
	    !our_expected_notice(control, &wc, 0) ||
	    our_post_recv(control, 0) ||
	    our_advertise_memory(control, 0))
		return -1;
	/* Then nothing for us to do until the client says it is done. */
	if (our_await_transfers(control, 1, true, &wc) ||
	    our_take_notice(control, &wc, &added))
		return -1;
	/* Our CPU timed nothing: the report gives the client's count. */
	control->transfers = added;
	our_say("%s added %u", control->peer_name, added);
	return 0;
}
