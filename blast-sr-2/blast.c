// SPDX-License-Identifier: MIT
/*
 * blast.c - a one-way stream of messages, with flow control by credits.
 *
 * The client streams control->count messages of control->size bytes to
 * the agent (or as many as its -D allows), up to control->buffers (-b) of
 * them in flight. Every message is a plain SEND into a receive with one
 * scatter-gather element: the operations that InfiniBand, RoCE and iWARP
 * all support. With -v the client fills each message with the pattern of
 * its number, and the agent checks it: RC delivers in order, so message n
 * must carry pattern n.
 *
 * Flow control: a credit is one receive posted at the agent. The agent
 * posts the receives for the first min(buffers, count) messages before it
 * accepts, and the client starts with that many credits: it knows both
 * numbers, since it sent them. Each message spends a credit. The client
 * posts as many messages as it has credits and free send slots, chained
 * into one ibv_post_send. The agent posts each message's receive again
 * while messages are still to come that have none, and returns those
 * credits in batches: a 4-byte message, the number of credits in network
 * byte order. The client keeps control->buffers receives posted for them.
 * So no message ever arrives to find no receive waiting, whatever the
 * count, size and buffers.
 *
 * The end. A side that hangs up (rdma_disconnect) moves its own queue
 * pair to the error state, flushing what it still has posted; the other
 * side's CM thread flags the disconnect, and a wait for a completion
 * then ends after OUR_GRACE_MS (OUR_LAST_RETRY_MS with the count done).
 * Each side's last completion is caused by the other side and may be
 * polled after the other side has seen its own last one: a side that
 * hung up as soon as it was done would leave the other to that wait.
 * So, in a run with a count:
 *   - the agent, once every message is in and its credit messages have
 *     completed, sends a last credit message with no credits: "all in";
 *   - the client stops once its sends have all completed and "all in"
 *     has come, and hangs up; the agent is polling for nothing by then;
 *   - the agent waits for that hang-up, then disconnects in its turn.
 * In a timed run, or one that Ctrl-C ends, the client stops posting, waits
 * for its sends in flight to complete (the agent has them all) and hangs
 * up; the agent ends the run there (with a count, as the client's doing).
 */
#include <arpa/inet.h>
#include <poll.h>
#include <string.h>

#include "buffers.h"
#include "cm_events.h"
#include "completions.h"
#include "exchange.h"
#include "instruments.h"
#include "posting.h"
#include "report.h"

/* The credits in the agent's last message: every message is in. */
#define OUR_ALL_IN 0u
/* How long the agent waits for the client to hang up, in milliseconds. */
#define OUR_HANG_UP_WAIT_MS 5000

/* A credit message: how many receives the agent has posted again. */
typedef uint32_t our_credits; /* in network byte order on the wire */

/* What the client keeps track of while it streams. */
struct blast {
	uint32_t posted;    /* messages posted */
	uint32_t completed; /* ... whose send has completed */
	uint32_t credits;   /* messages the agent has receives for */
	uint32_t returned;  /* credits the agent has returned so far */
	bool all_in;        /* the agent has said it has every message */
};

/* What the agent keeps track of while it takes the messages in. */
struct drain {
	uint32_t received;   /* messages arrived */
	uint32_t posted;     /* receives posted, in all */
	uint32_t unreturned; /* re-posted receives the client has no credit
			      * for yet */
	uint32_t sending;    /* credit messages whose send has not completed */
	uint32_t sent;       /* credit messages posted, in all */
};

const char our_client_purpose[] =
	"Stream messages to a blast server over RDMA, with flow control, and "
	"time them.";
const char our_server_purpose[] =
	"Take in one blast client's stream of messages over RDMA, then exit.";

const struct our_option our_client_options[] = {
	OUR_COUNT_OPTION,
	OUR_SIZE_OPTION,
	OUR_BUFFERS_OPTION,
	OUR_VERIFY_OPTION,
	{ 0 },
};

const char our_transfer_unit[] = "message";
const uint32_t our_sizes_per_transfer = 1;
const uint32_t our_sges_per_message = 1;

static uint32_t smaller(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* The receives the agent posts before it accepts: the client's first
 * credits. A run with no count may go on for ever: all the buffers. */
static uint32_t first_receives(const struct our_control *control)
{
	if (control->count == 0)
		return control->buffers;
	return smaller(control->buffers, control->count);
}

/*
 * How many credits the agent gathers before it returns them: half the
 * buffers, so the client refills half its window while the other half is
 * still in flight. One credit message then pays for that many messages.
 */
static uint32_t credit_batch(const struct our_control *control)
{
	return control->buffers / 2 ? control->buffers / 2 : 1;
}

int our_setup_client_memory(struct our_control *control)
{
	/* A slot per message in flight; a small one per credit message. */
	const struct our_buffer_plan plan = {
		.send_slots = control->buffers, .send_size = control->size,
		.recv_slots = control->buffers,
		.recv_size = sizeof(our_credits),
		.sends = control->buffers,
	};

	return our_setup_buffers(control, &plan);
}

int our_setup_agent_memory(struct our_control *control)
{
	/* As many credit messages in flight as the client has receives. */
	const struct our_buffer_plan plan = {
		.send_slots = control->buffers,
		.send_size = sizeof(our_credits),
		.recv_slots = control->buffers, .recv_size = control->size,
		.sends = control->buffers,
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
	/* The receives for the agent's credits, before it can send any. */
	for (uint32_t slot = 0; slot < control->buffers; slot++) {
		if (our_post_recv(control, slot))
			return -1;
	}
	return 0;
}

int our_prepare_agent(struct our_control *control)
{
	/* The receives for the first messages: the client's first credits. */
	for (uint32_t slot = 0; slot < first_receives(control); slot++) {
		if (our_post_recv(control, slot))
			return -1;
	}
	return 0;
}

/*
 * Post n signaled sends, 1 to OUR_MAX_BUFFERS of them, chained in one
 * ibv_post_send: message i sends length bytes from slot (first_slot + i)
 * modulo the number of slots of control->send. Returns 0 or -1 (reported).
 */
static int post_send_chain(struct our_control *control, uint32_t first_slot,
			   uint32_t n, uint32_t length)
{
	struct ibv_sge sges[OUR_MAX_BUFFERS];
	struct ibv_send_wr wrs[OUR_MAX_BUFFERS];
	struct ibv_send_wr *bad_wr;
	int ret;

	if (n < 1 || n > OUR_MAX_BUFFERS) {
		our_error("cannot post %u sends in one call: 1 to %u", n,
			  OUR_MAX_BUFFERS);
		return -1;
	}
	/* excerpt chain */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = (first_slot + i) % control->send.slots;

		sges[i] = our_sge(&control->send, slot, length);
		wrs[i] = (struct ibv_send_wr){
			.wr_id = OUR_WR_ID(OUR_WR_SEND, slot),
			.next = i + 1 < n ? &wrs[i + 1] : NULL,
			.sg_list = &sges[i],
			.num_sge = 1,
			.opcode = IBV_WR_SEND,
			.send_flags = IBV_SEND_SIGNALED,
		};
	}

	/* One call posts the whole chain (on a failure, bad_wr is the first
	 * request not posted); the adapter sends the messages in order, and
	 * a completion says when each is done. */
	ret = ibv_post_send(control->qp, wrs, &bad_wr);
	/* end excerpt chain */
	our_tally(control, "posting", "ibv_post_send calls", 1);
	our_tally(control, "posting", "messages", n);
	if (our_verb_error(ret, "ibv_post_send %u message%s from slot %u, "
				"%u bytes each",
			   n, n == 1 ? "" : "s", first_slot, length))
		return -1;
	return 0;
}

/*
 * Client: post as many messages as we have credits and free send slots
 * for, in one chain; no more than the count, where there is one. The
 * slots are used in turn: sends complete in the order they were posted,
 * so the slot of message n is free once message n - buffers has completed.
 */
static int post_messages(struct our_control *control, struct blast *blast)
{
	uint32_t in_flight = blast->posted - blast->completed;
	uint32_t first_slot = blast->posted % control->buffers;
	uint32_t n = control->buffers - in_flight;

	n = smaller(n, blast->credits);
	if (control->count)
		n = smaller(n, control->count - blast->posted);
	if (n == 0)
		return 0;
	if (control->verify) {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t slot = (first_slot + i) % control->buffers;

			our_fill_data(our_slot(&control->send, slot),
				      control->size, blast->posted + i);
		}
	}
	if (post_send_chain(control, first_slot, n, control->size))
		return -1;
	blast->posted += n;
	blast->credits -= n;
	return 0;
}

/* Client: a credit message arrived in the receive wc names. */
static int take_credits(struct our_control *control, struct blast *blast,
			const struct ibv_wc *wc)
{
	uint32_t slot = OUR_WR_SLOT(wc->wr_id);
	/* Each credit pays for a message that arrived: no more can come
	 * back than we posted, nor, with a count, than it leaves owed. */
	uint32_t most = control->count ?
				control->count - first_receives(control) :
				blast->posted;
	uint32_t owed = most - blast->returned;
	our_credits wire;
	uint32_t credits;

	if (wc->byte_len != sizeof(wire)) {
		our_error("a credit message from %s has %u bytes, not %zu",
			  control->peer_name, wc->byte_len, sizeof(wire));
		return -1;
	}
	memcpy(&wire, our_slot(&control->recv, slot), sizeof(wire));
	credits = ntohl(wire);
	if (credits > owed) {
		our_error("%s returned %u credits, more than the %u it owes us",
			  control->peer_name, credits, owed);
		return -1;
	}
	if (credits == OUR_ALL_IN) {
		if (owed > 0 || control->count == 0) {
			our_error("%s says every message is in, but it still "
				  "owes us %u credits",
				  control->peer_name, owed);
			return -1;
		}
		our_trace(2, "%s has every message", control->peer_name);
		blast->all_in = true;
		return 0;
	}
	our_trace(2, "%u credits from %s", credits, control->peer_name);
	/* The receive goes up again before the credits are spent: the
	 * credits that the messages they pay for earn back come into it. */
	if (our_post_recv(control, slot))
		return -1;
	blast->credits += credits;
	blast->returned += credits;
	our_tally(control, "flow control", "credits returned", credits);
	return 0;
}

/*
 * Client: stream the messages while the run goes on. Return once every
 * send has completed and, after a whole counted run, the agent has said
 * that every message is in: then, and only then, may the client hang up.
 */
int our_run_client(struct our_control *control)
{
	struct blast blast = {
		.credits = first_receives(control),
	};
	struct ibv_wc wc;
	bool more;
	bool whole;

	for (;;) {
		more = our_keep_going(control, blast.posted);
		whole = control->count && blast.posted == control->count;
		if (!more && blast.completed == blast.posted &&
		    (blast.all_in || !whole))
			break;
		if (more && post_messages(control, &blast))
			return -1;
		if (our_await_completion(control, &wc))
			return -1;
		if (OUR_WR_KIND(wc.wr_id) == OUR_WR_RECV) {
			if (take_credits(control, &blast, &wc))
				return -1;
			continue;
		}
		/* A send completed: its slot is free again. */
		blast.completed++;
		our_count_transfer(control);
	}
	return 0;
}

/* Agent: check message number, which arrived in the receive wc names. */
static int check_message(const struct our_control *control,
			 const struct ibv_wc *wc, uint32_t number)
{
	const char *data = our_slot(&control->recv, OUR_WR_SLOT(wc->wr_id));

	if (wc->byte_len != control->size) {
		our_error("message %u from %s has %u bytes, we expect %u",
			  number, control->peer_name, wc->byte_len,
			  control->size);
		return -1;
	}
	if (control->verify && !our_verify_data(data, control->size, number))
		return -1;
	return 0;
}

/* Agent: a message arrived in the receive wc names. */
static int take_message(struct our_control *control, struct drain *drain,
			const struct ibv_wc *wc)
{
	if (check_message(control, wc, drain->received))
		return -1;
	drain->received++;
	our_count_transfer(control);
	if (control->count && drain->posted == control->count)
		return 0;
	/* The slot is free again: post it for a message still to come, and
	 * owe the client a credit for it. */
	if (our_post_recv(control, OUR_WR_SLOT(wc->wr_id)))
		return -1;
	drain->posted++;
	drain->unreturned++;
	return 0;
}

/* Agent: send a credit message that returns credits (0: "all in"). The
 * send slots are used in turn, as the client does with its own. */
static int send_credits(struct our_control *control, struct drain *drain,
			uint32_t credits)
{
	uint32_t slot = drain->sent % control->send.slots;
	our_credits wire = htonl(credits);

	memcpy(our_slot(&control->send, slot), &wire, sizeof(wire));
	if (our_post_send(control, &control->send, slot, sizeof(wire)))
		return -1;
	drain->sent++;
	drain->sending++;
	return 0;
}

/*
 * Agent: return the credits owed once there are a batch of them, or when
 * they are the last; while the send queue has room for one more message.
 */
static int return_credits(struct our_control *control, struct drain *drain)
{
	bool last = control->count && drain->posted == control->count;

	if (drain->unreturned == 0 || drain->sending == control->buffers)
		return 0;
	if (drain->unreturned < credit_batch(control) && !last)
		return 0;
	if (send_credits(control, drain, drain->unreturned))
		return -1;
	our_tally(control, "flow control", "credits returned",
		  drain->unreturned);
	drain->unreturned = 0;
	return 0;
}

/*
 * Agent: wait until the client has hung up, which it does once it has
 * our "all in", but only up to OUR_HANG_UP_WAIT_MS: then we disconnect
 * all the same.
 */
static void await_hang_up(struct our_control *control)
{
	our_trace(1, "waiting for %s to hang up", control->peer_name);
	for (int waited = 0; waited < OUR_HANG_UP_WAIT_MS; waited++) {
		if (our_peer_disconnected(control))
			return;
		poll(NULL, 0, 1);
	}
	our_trace(1, "%s has not hung up", control->peer_name);
}

/*
 * Agent: take the messages in and return the credits, while the run goes
 * on; once every message of a counted run is in, say so and wait for the
 * client to hang up. A run with no count ends when the client hangs up.
 * Each message counts with the time since the previous one arrived.
 */
int our_run_agent(struct our_control *control)
{
	struct drain drain = {
		.posted = first_receives(control),
	};
	struct ibv_wc wc;

	/* The last credits go back before the last messages can come, so
	 * none is owed once they are in. */
	for (;;) {
		bool more = our_keep_going(control, drain.received);

		/* Once the run is over (the count is in, or Ctrl-C came:
		 * seen here, so one batch more may go), only our credit
		 * messages in flight are waited for: more would keep the
		 * stream going. */
		if (!more && drain.sending == 0)
			break;
		if (our_await_completion(control, &wc))
			return -1;
		if (OUR_WR_KIND(wc.wr_id) == OUR_WR_SEND)
			drain.sending--;
		else if (more && take_message(control, &drain, &wc))
			return -1;
		if (more && return_credits(control, &drain))
			return -1;
	}
	if (control->end == OUR_RUN_INTERRUPTED)
		return 0;
	/* "All in": a credit message with no credits. */
	if (send_credits(control, &drain, OUR_ALL_IN))
		return -1;
	await_hang_up(control);
	return 0;
}
