// SPDX-License-Identifier: MIT
/*
 * blast_write.c - a one-way stream of RDMA writes into a ring in the
 * agent's memory, with flow control.
 *
 * The agent registers a ring of -b slots of -s bytes that the client may
 * write into, and advertises it (ping-rdma-1's remote_memory.c) once the
 * client's first message, a notice numbered 0, is in: the client speaks
 * first, as iWARP requires. The client writes message n into slot n
 * modulo -b of the ring. It posts as many writes as it has credits and
 * free send slots for, half the ring at most (one at -b 1), in one
 * ibv_post_send, and ends each chain with a notice (ping-rdma-1's
 * struct our_notice, built here to go last in the chain) that carries
 * the number of messages written so far: a reliable connection carries
 * out a queue pair's work requests in order, so when the notice is in,
 * every write before it has landed.
 *
 * Flow control: a credit is a slot of the ring that the agent is done
 * with. The client starts with -b of them, and each write spends one. On
 * each notice the agent takes in the messages that have landed since the
 * last one (with -v, it checks each), then gives their slots back with a
 * notice of its own, numbered with the messages it has read. So no write
 * lands on a message that the agent has yet to read, and the agent's CPU
 * does nothing for each message but count it (and with -v check it).
 * The agent's notices go out from slots of their own, one at a time
 * each: a slot is taken again only once the send from it has completed,
 * since until then the adapter may still read it (to send it again, if
 * it was lost). With every slot busy, the agent gives the slots back in
 * its next notice instead.
 *
 * The end. In a run with a count, the client stops once every write and
 * notice has completed and every slot has come back: the agent has read
 * every message. The agent stops once its last notice's send has
 * completed. In a timed run, or one that Ctrl-C ends, the client stops
 * posting, waits for what it has in flight, and hangs up; the agent
 * ends the run there (with a count, as the client's doing).
 */
#include <arpa/inet.h>
#include <string.h>

#include "buffers.h"
#include "completions.h"
#include "exchange.h"
#include "instruments.h"
#include "memory_wire.h"
#include "notice.h"
#include "posting.h"
#include "remote_memory.h"
#include "report.h"

/* What the client keeps track of while it streams. */
struct stream {
	uint32_t posted;    /* messages written */
	uint32_t completed; /* ... whose write has completed */
	uint32_t credits;   /* ring slots we may write into */
	uint32_t returned;  /* messages the agent has read, and given back */
	uint32_t notices;   /* notices whose send has not completed */
	uint32_t sent;      /* notices posted, in all */
};

/* What the agent keeps track of while it reads the ring. */
struct ring {
	uint32_t read;    /* messages read (and checked, with -v) */
	uint32_t sending; /* sends that have not completed */
	uint32_t sent;    /* sends posted, in all */
	bool owed;        /* a notice is due, and waits for a free slot */
};

const char our_client_purpose[] =
	"Stream RDMA writes into a blast server's memory, with flow control, "
	"and time them.";
const char our_server_purpose[] =
	"Take in one blast client's stream of RDMA writes, then exit.";

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

/*
 * The longest chain: half the ring, so that one chain lands while the
 * agent reads the one before it. A chain of the whole ring would leave
 * the client waiting, with no credits, for each chain to be read.
 */
static uint32_t longest_chain(const struct our_control *control)
{
	return control->buffers / 2 ? control->buffers / 2 : 1;
}

/* The client's send slot for notice number sent: after the -b slots of
 * the messages, -b more, one for each notice that may be in flight. */
static uint32_t notice_slot(const struct our_control *control, uint32_t sent)
{
	return control->buffers + sent % control->buffers;
}

int our_setup_client_memory(struct our_control *control)
{
	uint32_t size = control->size > sizeof(struct our_notice) ?
				control->size :
				sizeof(struct our_notice);
	/* A send slot per message in flight and one per notice; receives
	 * for the agent's advertisement and its notices. */
	const struct our_buffer_plan plan = {
		.send_slots = 2 * control->buffers, .send_size = size,
		.recv_slots = control->buffers,
		.recv_size = sizeof(struct our_memory_ad),
		.sends = 2 * control->buffers,
	};

	if (our_setup_buffers(control, &plan))
		return -1;
	/* None of our memory is open: room for the ring's address alone. */
	if (our_setup_remote(control, 0, 0, 0)) {
		our_unsetup_buffers(control);
		return -1;
	}
	return 0;
}

int our_setup_agent_memory(struct our_control *control)
{
	/* The messages in and out are small. */
	const struct our_buffer_plan plan = {
		.send_slots = control->buffers,
		.send_size = sizeof(struct our_memory_ad),
		.recv_slots = control->buffers,
		.recv_size = sizeof(struct our_notice),
		.sends = control->buffers,
	};

	if (our_setup_buffers(control, &plan))
		return -1;
	/* The ring, which the client may write and nothing else. */
	if (our_setup_remote(control, control->buffers, control->size,
				IBV_ACCESS_REMOTE_WRITE)) {
		our_unsetup_buffers(control);
		return -1;
	}
	return 0;
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
	/* The agent's advertisement and notices. The agent answers our
	 * notices with its own, never more of them (one may answer several
	 * of ours); a notice of ours not yet answered tells of at least one
	 * write whose slot is not given back yet, and at most -b are: -b
	 * receives are enough. */
	return our_post_receives(control);
}

int our_prepare_agent(struct our_control *control)
{
	/* The client's first message, and its notices. */
	return our_post_receives(control);
}

/*
 * Client: post as many writes as we have credits and free send slots
 * for (no more than the count, where there is one, nor than the longest
 * chain), and the notice that follows them, chained in one
 * ibv_post_send. Message n goes from send
 * slot n modulo -b into ring slot n modulo -b.
 */
static int post_chain(struct our_control *control, struct stream *stream)
{
	struct ibv_sge sges[OUR_MAX_BUFFERS + 1];
	struct ibv_send_wr wrs[OUR_MAX_BUFFERS + 1];
	uint32_t n = control->buffers - (stream->posted - stream->completed);
	struct our_notice notice;
	struct ibv_send_wr *bad_wr;
	uint32_t slot;
	int ret;

	n = smaller(smaller(n, stream->credits), longest_chain(control));
	if (control->count)
		n = smaller(n, control->count - stream->posted);
	if (n == 0 || stream->notices == control->buffers)
		return 0;
	/* excerpt chain */
	for (uint32_t i = 0; i < n; i++) {
		slot = (stream->posted + i) % control->buffers;
		if (control->verify)
			our_fill_data(our_slot(&control->send, slot),
				      control->size, stream->posted + i);
		sges[i] = our_sge(&control->send, slot, control->size);
		wrs[i] = (struct ibv_send_wr){
			.wr_id = OUR_WR_ID(OUR_WR_WRITE, slot),
			.next = &wrs[i + 1],
			.sg_list = &sges[i],
			.num_sge = 1,
			.opcode = IBV_WR_RDMA_WRITE,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = {
				.remote_addr = control->exchange->peer.addr +
					       (uint64_t)slot * control->size,
				.rkey = control->exchange->peer.rkey,
			},
		};
	}
	/* end excerpt chain */
	/* excerpt notice */
	/* Last in the chain, the notice: every write before it has landed
	 * once it is in. */
	slot = notice_slot(control, stream->sent);
	notice.number = htonl(stream->posted + n);
	memcpy(our_slot(&control->send, slot), &notice, sizeof(notice));
	sges[n] = our_sge(&control->send, slot, sizeof(notice));
	wrs[n] = (struct ibv_send_wr){
		.wr_id = OUR_WR_ID(OUR_WR_SEND, slot),
		.sg_list = &sges[n],
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};

	/* One call posts the whole chain. */
	ret = ibv_post_send(control->qp, wrs, &bad_wr);
	/* end excerpt notice */
	our_tally(control, "posting", "ibv_post_send calls", 1);
	our_tally(control, "posting", "work requests", n + 1);
	our_tally_size(control, "posting", "RDMA writes per chain", n);
	if (our_verb_error(ret, "ibv_post_send %u RDMA writes from slot %u, "
				"%u bytes each, and a notice",
			   n, stream->posted % control->buffers,
			   control->size))
		return -1;
	stream->posted += n;
	stream->credits -= n;
	stream->notices++;
	stream->sent++;
	return 0;
}

/* Client: the agent's notice in the receive wc names gives slots back. */
static int take_credits(struct our_control *control, struct stream *stream,
			const struct ibv_wc *wc)
{
	uint32_t read;

	if (our_take_notice(control, wc, &read))
		return -1;
	if (read <= stream->returned || read > stream->posted) {
		our_error("%s says it has read %u messages; we have written "
			  "%u, and it had read %u",
			  control->peer_name, read, stream->posted,
			  stream->returned);
		return -1;
	}
	our_trace(2, "%s has read %u messages", control->peer_name, read);
	if (our_post_recv(control, OUR_WR_SLOT(wc->wr_id)))
		return -1;
	stream->credits += read - stream->returned;
	our_tally(control, "flow control", "slots given back",
		  read - stream->returned);
	stream->returned = read;
	return 0;
}

/*
 * Client: stream the messages while the run goes on. Return once every
 * write and notice has completed and, after a whole counted run, the
 * agent has read every message.
 */
int our_run_client(struct our_control *control)
{
	struct stream stream = { .credits = control->buffers };
	struct ibv_wc wc;
	bool more;
	bool whole;

	/* We speak first; the agent answers with its ring. */
	if (our_post_notice(control, notice_slot(control, 0), 0) ||
	    our_await_transfers(control, 1, true, &wc) ||
	    our_take_memory_ad(control, &wc,
			       control->buffers * control->size) ||
	    our_post_recv(control, OUR_WR_SLOT(wc.wr_id)))
		return -1;
	stream.sent = 1;
	for (;;) {
		more = our_keep_going(control, stream.posted);
		whole = control->count && stream.posted == control->count;
		if (!more && stream.completed == stream.posted &&
		    stream.notices == 0 &&
		    (!whole || stream.returned == stream.posted))
			break;
		if (more && post_chain(control, &stream))
			return -1;
		if (our_await_completion(control, &wc))
			return -1;
		switch (OUR_WR_KIND(wc.wr_id)) {
		case OUR_WR_RECV:
			if (take_credits(control, &stream, &wc))
				return -1;
			break;
		case OUR_WR_WRITE:
			/* Its send slot is free again. */
			stream.completed++;
			our_count_transfer(control);
			break;
		default:
			stream.notices--;
			break;
		}
	}
	return 0;
}

/* excerpt give_back */
/*
 * Agent: give the slots read so far back to the client, in a notice from
 * a free send slot. The slots are used in turn, and sends complete in
 * order: with fewer sends in flight than slots, the next slot's last send
 * has completed. With every slot busy, the notice waits (ring->owed) for
 * the next send to complete. Returns 0, or -1 (reported).
 */
static int give_back(struct our_control *control, struct ring *ring)
{
	ring->owed = ring->sending == control->send.slots;
	if (ring->owed) {
		our_tally(control, "flow control",
			  "notices that waited for a send slot", 1);
		return 0;
	}
	if (our_post_notice(control, ring->sent % control->send.slots,
			    ring->read))
		return -1;
	ring->sent++;
	ring->sending++;
	return 0;
}
/* end excerpt give_back */

/*
 * Agent: the client's notice in the receive wc names says that messages
 * up to its number have landed. Read them, and give their slots back.
 */
static int take_notice(struct our_control *control, struct ring *ring,
		       const struct ibv_wc *wc)
{
	uint32_t most = ring->read + control->buffers;
	uint32_t landed;

	if (our_take_notice(control, wc, &landed))
		return -1;
	if (control->count)
		most = smaller(most, control->count);
	if (landed <= ring->read || landed > most) {
		our_error("%s says %u messages have landed; we have read %u, "
			  "and at most %u can have",
			  control->peer_name, landed, ring->read, most);
		return -1;
	}
	our_tally(control, "flow control", "slots given back",
		  landed - ring->read);
	for (; ring->read < landed; ring->read++) {
		const char *data = our_slot(&control->exchange->mine,
					    ring->read % control->buffers);

		if (control->verify &&
		    !our_verify_data(data, control->size, ring->read))
			return -1;
		our_count_transfer(control);
	}
	if (our_post_recv(control, OUR_WR_SLOT(wc->wr_id)))
		return -1;
	return give_back(control, ring);
}

/*
 * Agent: read the messages as the client's notices say they land, while
 * the run goes on. A run with no count ends when the client hangs up.
 */
int our_run_agent(struct our_control *control)
{
	struct ring ring = { 0 };
	struct ibv_wc wc;

	/* The client's first message, and our ring in answer. */
	if (our_await_transfers(control, 0, true, &wc) ||
	    !our_expected_notice(control, &wc, 0) ||
	    our_post_recv(control, OUR_WR_SLOT(wc.wr_id)) ||
	    our_advertise_memory(control, 0))
		return -1;
	ring.sent = 1;
	ring.sending = 1;
	for (;;) {
		bool more = our_keep_going(control, ring.read);

		/* Once the run is over (the count is in, or Ctrl-C came:
		 * seen here, so one notice more may be answered), only our
		 * notices in flight, or owed, are waited for: answering
		 * more would keep the stream going. */
		if (!more && ring.sending == 0 && !ring.owed)
			break;
		if (our_await_completion(control, &wc))
			return -1;
		if (OUR_WR_KIND(wc.wr_id) == OUR_WR_RECV) {
			if (more && take_notice(control, &ring, &wc))
				return -1;
			continue;
		}
		/* A notice has gone: its slot is free again. */
		ring.sending--;
		if (ring.owed && give_back(control, &ring))
			return -1;
	}
	return 0;
}
