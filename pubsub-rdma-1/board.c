// SPDX-License-Identifier: MIT
/*
 * board.c - one publisher, many subscribers: each subscriber reads the
 * publications from the publisher's board by RDMA read.
 *
 * The server is the publisher. It keeps a board of OUR_BOARD_SLOTS
 * publications of OUR_PUBLICATION_SIZE bytes, shared by its agents
 * (shared.h): a publisher thread writes publication n into slot n modulo
 * OUR_BOARD_SLOTS, each once, whoever reads it. Each agent registers the
 * board in its own protection domain, open to remote reads and nothing
 * more, and advertises it to its subscriber (ping-rdma-1's
 * remote_memory.c) in answer to the subscriber's first notice, followed by
 * a notice with the number of the first publication the subscriber gets:
 * the next one to be published.
 *
 * Then the subscriber asks, and the agent tells. The subscriber's notice
 * says how far it has read ("I have read up to n"); the agent waits until
 * publication n is on the board, and answers with a notice of how
 * far the board goes. The subscriber reads those publications straight
 * from the board, several reads chained into one ibv_post_send, checks
 * each one's number, and asks again. Neither the publisher's thread nor
 * the agent copies a publication: a subscriber's adapter fetches it.
 *
 * Flow control: a slot is written again only once every subscriber has
 * said it has read past it. The slowest subscriber sets the pace; a
 * subscriber that goes away holds nobody back, since its agent takes its
 * place off the board as its run ends.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "buffers.h"
#include "cm_channel.h"
#include "cm_events.h"
#include "completions.h"
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

/* The board: how many publications it holds, and their size. */
#define OUR_BOARD_SLOTS 64u
#define OUR_PUBLICATION_SIZE 64u

/* How often an agent waiting for a publication looks for Ctrl-C. */
#define OUR_BOARD_LOOKUP_MS 200

/* excerpt publication */
/* A publication as it lies on the board: its number, and a body made
 * from the number, for -v to check. */
struct our_publication {
	uint32_t number; /* network byte order */
	char body[OUR_PUBLICATION_SIZE - sizeof(uint32_t)];
};
/* end excerpt publication */

/* excerpt board */
/* What the agents share: the board, and how far each subscriber has
 * read in it. */
struct our_board {
	/* First: calloc's memory is aligned for any type. */
	struct our_publication slots[OUR_BOARD_SLOTS];
	pthread_mutex_t lock; /* for everything below */
	pthread_cond_t changed; /* a publication, a reader, or the end */
	uint32_t published;   /* publications written, in all */
	/* Where each subscriber's agent is: up to which publication its
	 * subscriber has read, while it has a place on the board. */
	uint32_t read[OUR_MAX_CLIENTS];
	bool reading[OUR_MAX_CLIENTS];
	bool closing;         /* the publisher thread is to stop */
	pthread_t publisher;
};
/* end excerpt board */

/* The server's one board, which every agent reaches. */
static struct our_board *board;

const char our_client_purpose[] =
	"Subscribe to a publisher: read its publications by RDMA read, and "
	"time them.";
const char our_server_purpose[] =
	"Publish to subscribers that read by RDMA read, serving -n of them at "
	"once,\nthen exit.";

/* No -s: every publication is OUR_PUBLICATION_SIZE bytes. -b is how
 * many reads a chain holds, and -v checks what they read. */
const struct our_option our_client_options[] = {
	{ 'c', OUR_MAX_COUNT, OUR_FIELD(count),
	  "-c N         publications, 1 to 10000000 (default 100)" },
	{ 'b', OUR_MAX_BUFFERS, OUR_FIELD(buffers),
	  "-b N         reads chained in one post, 1 to 64 (default 4)" },
	{ 'v', 0, OUR_FIELD(verify),
	  "-v           check the body of every publication read" },
	{ 0 },
};

const char our_transfer_unit[] = "publication";
const uint32_t our_sizes_per_transfer = 1;
const uint32_t our_sges_per_message = 1;
/* A subscriber's reads in flight at once; more of a chain wait their
 * turn on the send queue. */
const uint8_t our_reads_in_flight = 4;

/* The send slots: advertisement and notices alternate with nothing in
 * between, but the agent's first two go out together. */
#define OUR_AD_SLOT 0
#define OUR_NOTICE_SLOT 1

static uint32_t smaller(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Board: true when slot of publication board->published is free, that
 * is every subscriber has read past the one it held before. Called with
 * board->lock held. A board nobody reads stays as it is. */
static bool room_for_next(void)
{
	bool anyone = false;

	for (uint32_t i = 0; i < OUR_MAX_CLIENTS; i++) {
		if (!board->reading[i])
			continue;
		anyone = true;
		if (board->published - board->read[i] >= OUR_BOARD_SLOTS)
			return false;
	}
	return anyone;
}

/* excerpt publish */
/* The publisher thread: write publications as fast as the slowest
 * subscriber makes room for them, until told to stop. */
static void *publish(void *arg)
{
	(void)arg; /* the board is the one of this file */

	pthread_mutex_lock(&board->lock);
	while (!board->closing) {
		if (!room_for_next()) {
			pthread_cond_wait(&board->changed, &board->lock);
			continue;
		}
		uint32_t n = board->published;
		struct our_publication *slot =
			&board->slots[n % OUR_BOARD_SLOTS];

		slot->number = htonl(n);
		our_fill_data(slot->body, sizeof(slot->body), n);
		board->published = n + 1;
		pthread_cond_broadcast(&board->changed);
	}
	pthread_mutex_unlock(&board->lock);
	return NULL;
}
/* end excerpt publish */

int our_setup_shared(const struct our_options *options)
{
	pthread_condattr_t attr;
	int ret;

	(void)options;
	board = calloc(1, sizeof(*board));
	if (!board) {
		our_error("no memory for the board");
		return -1;
	}
	/* The waits for publications are timed by the monotonic clock:
	 * setting the date does not stretch them. */
	ret = pthread_condattr_init(&attr);
	if (!ret) {
		ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
		if (!ret)
			ret = pthread_cond_init(&board->changed, &attr);
		pthread_condattr_destroy(&attr);
	}
	if (our_verb_error(ret, "pthread_cond_init"))
		goto out_free_board;
	ret = pthread_mutex_init(&board->lock, NULL);
	if (our_verb_error(ret, "pthread_mutex_init"))
		goto out_destroy_cond;
	if (our_start_thread(&board->publisher, publish, NULL, "publisher"))
		goto out_destroy_lock;
	return 0;

out_destroy_lock:
	pthread_mutex_destroy(&board->lock);
out_destroy_cond:
	pthread_cond_destroy(&board->changed);
out_free_board:
	free(board);
	board = NULL;
	return -1;
}

void our_unsetup_shared(void)
{
	int ret;

	pthread_mutex_lock(&board->lock);
	board->closing = true;
	pthread_cond_broadcast(&board->changed);
	pthread_mutex_unlock(&board->lock);
	ret = pthread_join(board->publisher, NULL);
	our_verb_error(ret, "pthread_join publisher");
	pthread_mutex_destroy(&board->lock);
	pthread_cond_destroy(&board->changed);
	free(board);
	board = NULL;
}

void our_report_shared(uint32_t clients)
{
	/* Every agent has ended: the board has no reader, so the
	 * publisher thread waits, and writes nothing more. */
	our_say("%" PRIu32 " publications for %u subscriber%s",
		board->published, clients, clients == 1 ? "" : "s");
}

/*
 * Agent: take a place on the board for our subscriber, starting at the
 * next publication; its number goes in *start. Returns the place, or -1
 * (reported) when every place is taken.
 */
static int join_board(uint32_t *start)
{
	int place = -1;

	pthread_mutex_lock(&board->lock);
	*start = board->published;
	for (uint32_t i = 0; i < OUR_MAX_CLIENTS && place < 0; i++) {
		if (board->reading[i])
			continue;
		place = (int)i;
		board->reading[i] = true;
		board->read[i] = *start;
	}
	/* A reader: the publisher may go on. */
	pthread_cond_broadcast(&board->changed);
	pthread_mutex_unlock(&board->lock);
	if (place < 0)
		our_error("the board has no place for another subscriber");
	return place;
}

/* Agent: our subscriber has read up to publication read. */
static void mark_read(int place, uint32_t read)
{
	pthread_mutex_lock(&board->lock);
	board->read[place] = read;
	pthread_cond_broadcast(&board->changed);
	pthread_mutex_unlock(&board->lock);
}

/* Agent: our subscriber is gone; it holds the publisher back no more. */
static void leave_board(int place)
{
	pthread_mutex_lock(&board->lock);
	board->reading[place] = false;
	pthread_cond_broadcast(&board->changed);
	pthread_mutex_unlock(&board->lock);
}

/*
 * Agent: wait until the board goes past publication read, and put how
 * far it goes in *published. Returns false when the wait had to end
 * first (our_wait_must_end: Ctrl-C or SIGTERM came, or the subscriber
 * went, and control->end says which; a stopped one may hold the board):
 * a condition wait sees neither, so it looks every OUR_BOARD_LOOKUP_MS.
 */
static bool await_publication(struct our_control *control, uint32_t read,
			      uint32_t *published)
{
	struct timespec until;
	bool more;

	pthread_mutex_lock(&board->lock);
	while (board->published == read && !our_wait_must_end(control)) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += OUR_BOARD_LOOKUP_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&board->changed, &board->lock, &until);
	}
	more = board->published != read;
	*published = board->published;
	pthread_mutex_unlock(&board->lock);
	return more;
}

/*
 * The memory a read lands in needs local write access only; but on iWARP
 * a read is answered with an RDMA write into the reader's memory, so
 * there it must be open to remote writes too.
 */
static unsigned int sink_access(const struct our_control *control)
{
	const struct ibv_device *device = control->cm_id->verbs->device;

	return device->transport_type == IBV_TRANSPORT_IWARP ?
		       IBV_ACCESS_REMOTE_WRITE :
		       0;
}

int our_setup_client_memory(struct our_control *control)
{
	/* Our notices; the advertisement and the agent's notices (its first
	 * two come together); a read per slot of a chain, and our notice. */
	const struct our_buffer_plan plan = {
		.send_slots = 1, .send_size = sizeof(struct our_notice),
		.recv_slots = 2, .recv_size = sizeof(struct our_memory_ad),
		.sends = control->buffers + 1,
	};

	control->size = OUR_PUBLICATION_SIZE; /* what each read moves */
	if (our_setup_buffers(control, &plan))
		return -1;
	/* The slots the reads land in. */
	if (our_setup_remote(control, control->buffers,
				OUR_PUBLICATION_SIZE, sink_access(control))) {
		our_unsetup_buffers(control);
		return -1;
	}
	return 0;
}

/* excerpt board_plan */
int our_setup_agent_memory(struct our_control *control)
{
	/* The advertisement and the first notice go out together. */
	const struct our_buffer_plan plan = {
		.send_slots = 2, .send_size = sizeof(struct our_memory_ad),
		.recv_slots = 1, .recv_size = sizeof(struct our_notice),
		.sends = 2,
	};

	if (our_setup_buffers(control, &plan))
		return -1;
	/* The board is the publisher's: each agent registers it in its own
	 * protection domain, open to remote reads and to no other remote
	 * access (our_register_shared adds local write, which only
	 * remote atomics need). */
	if (our_register_shared(control, board->slots, OUR_BOARD_SLOTS,
				OUR_PUBLICATION_SIZE, IBV_ACCESS_REMOTE_READ)) {
		our_unsetup_buffers(control);
		return -1;
	}
	return 0;
}
/* end excerpt board_plan */

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
	/* The advertisement and the first notice come together. */
	return our_post_receives(control);
}

int our_prepare_agent(struct our_control *control)
{
	/* The subscriber's first notice comes first of all. */
	return our_post_receives(control);
}

/* excerpt read_chain */
/*
 * Subscriber: post n reads, of publications first to first + n - 1 of
 * the board into our slots 0 to n - 1, chained into one ibv_post_send.
 * Returns 0, or -1 (reported).
 */
static int post_reads(struct our_control *control, uint32_t first,
		      uint32_t n)
{
	/* excerpt reads_chain */
	struct ibv_sge sges[OUR_MAX_BUFFERS];
	struct ibv_send_wr wrs[OUR_MAX_BUFFERS];
	struct ibv_send_wr *bad_wr;
	int ret;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = (first + i) % OUR_BOARD_SLOTS;

		sges[i] = our_sge(&control->exchange->mine, i,
				  OUR_PUBLICATION_SIZE);
		wrs[i] = (struct ibv_send_wr){
			.wr_id = OUR_WR_ID(OUR_WR_READ, i),
			.next = i + 1 < n ? &wrs[i + 1] : NULL,
			.sg_list = &sges[i],
			.num_sge = 1,
			.opcode = IBV_WR_RDMA_READ,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = {
				.remote_addr = control->exchange->peer.addr +
					       (uint64_t)slot *
						       OUR_PUBLICATION_SIZE,
				.rkey = control->exchange->peer.rkey,
			},
		};
	}
	/* end excerpt reads_chain */
	/* excerpt reads_post */
	ret = ibv_post_send(control->qp, wrs, &bad_wr);
	if (our_verb_error(ret, "ibv_post_send %u RDMA reads, publications "
				"%" PRIu32 " to %" PRIu32,
			   n, first, first + n - 1))
		return -1;
	return 0;
	/* end excerpt reads_post */
}
/* end excerpt read_chain */

/*
 * Subscriber: check the publication in slot i of our memory
 * (control->exchange->mine), which must be number expected (and with -v,
 * whole). Returns true when it is.
 */
static bool check_publication(const struct our_control *control, uint32_t i,
			      uint32_t expected)
{
	const struct our_publication *publication =
		(const void *)our_slot(&control->exchange->mine, i);
	uint32_t number = ntohl(publication->number);

	if (number != expected) {
		our_error("read publication %" PRIu32 " where %" PRIu32
			  " should be",
			  number, expected);
		return false;
	}
	return !control->verify ||
	       our_verify_data(publication->body, sizeof(publication->body),
			       expected);
}

/*
 * Subscriber: read publications next to until - 1 from the board, -b at
 * a time, and check each. Returns 0, or -1 (reported).
 */
static int read_publications(struct our_control *control, uint32_t next,
			     uint32_t until)
{
	struct ibv_wc wc;

	while (next != until) {
		uint32_t n = smaller(until - next, control->buffers);

		if (post_reads(control, next, n) ||
		    our_await_transfers(control, n, false, &wc))
			return -1;
		for (uint32_t i = 0; i < n; i++, next++) {
			if (!check_publication(control, i, next))
				return -1;
			our_count_transfer(control);
		}
	}
	return 0;
}

/*
 * Subscriber: send our notice, numbered number, and wait for the agent's
 * answer: the number in its notice goes in *answer. Returns 0, or -1
 * (reported).
 */
static int ask(struct our_control *control, uint32_t number, uint32_t *answer)
{
	struct ibv_wc wc = { 0 }; /* set by our_await_transfers */

	if (our_post_notice(control, 0, number) ||
	    our_await_transfers(control, 1, true, &wc) ||
	    our_take_notice(control, &wc, answer))
		return -1;
	/* It tells how far to read: it answers no read (our_count_done). */
	control->answered = false;
	return our_post_recv(control, OUR_WR_SLOT(wc.wr_id));
}

/*
 * Subscriber: wait for our first notice's send to complete, and for the
 * agent's two answers, which it sends at once: their work completions go
 * in *ad and *first. The send's completion may come after both (when its
 * acknowledgement is late), so our_await_transfers(), which takes one
 * message, would lose one; the two receives complete in the order they
 * were sent. Returns 0, or -1 (reported).
 */
static int await_start(struct our_control *control, struct ibv_wc *ad,
		       struct ibv_wc *first)
{
	uint32_t sends = 1, received = 0;
	struct ibv_wc wc;

	while (sends || received < 2) {
		if (our_await_completion(control, &wc))
			return -1;
		if (OUR_WR_KIND(wc.wr_id) != OUR_WR_RECV)
			sends--;
		else
			*(received++ == 0 ? ad : first) = wc;
	}
	return 0;
}

int our_run_client(struct our_control *control)
{
	uint32_t start, next, until;
	struct ibv_wc ad, wc;

	/* We speak first; the agent answers with the board, then with the
	 * number of the first publication we get. */
	if (our_post_notice(control, 0, 0) || await_start(control, &ad, &wc) ||
	    our_take_memory_ad(control, &ad,
			       OUR_BOARD_SLOTS * OUR_PUBLICATION_SIZE) ||
	    our_post_recv(control, OUR_WR_SLOT(ad.wr_id)) ||
	    our_take_notice(control, &wc, &start) ||
	    our_post_recv(control, OUR_WR_SLOT(wc.wr_id)))
		return -1;
	/* excerpt subscriber */
	for (next = start; our_keep_going(control, next - start);
	     next = until) {
		/* "We have read up to next": the agent answers once the
		 * board goes further, with how far it goes. */
		if (ask(control, next, &until))
			return -1;
		if (until - next - 1 >= OUR_BOARD_SLOTS ||
		    (control->count && until - start > control->count)) {
			our_error("%s says the board goes up to publication "
				  "%" PRIu32 "; we have read up to %" PRIu32,
				  control->peer_name, until, next);
			return -1;
		}
		our_tally_size(control, "subscriber",
			       "publications the agent's notices told of",
			       until - next);
		if (read_publications(control, next, until))
			return -1;
	}
	/* end excerpt subscriber */
	/* Tell the agent how far we read: its report, and in a counted
	 * run, the end. (Ctrl-C that comes while we wait for an answer
	 * may end the run before this; the agent counted that far already.) */
	if (our_post_notice(control, 0, next) ||
	    our_await_transfers(control, 1, false, &wc))
		return -1;
	return 0;
}

/*
 * Agent: serve our subscriber from place on the board, from publication
 * start on: answer each of its notices once the board goes past it.
 * Returns 0, or -1 (reported).
 */
static int serve_subscriber(struct our_control *control, int place,
			    uint32_t start)
{
	uint32_t told = start; /* how far we said the board goes */
	uint32_t read = start; /* how far the subscriber has read */
	uint32_t sends = 2;
	struct ibv_wc wc;

	if (our_advertise_memory(control, OUR_AD_SLOT) ||
	    our_post_notice(control, OUR_NOTICE_SLOT, start))
		return -1;
	/* excerpt agent */
	for (;;) {
		uint32_t asked;
		uint32_t published;

		/* The subscriber's notice: it has read all we told of. */
		if (our_await_transfers(control, sends, true, &wc) ||
		    our_take_notice(control, &wc, &asked))
			return -1;
		if (asked != told) {
			our_error("%s says it has read up to publication "
				  "%" PRIu32 "; we told it of %" PRIu32,
				  control->peer_name, asked, told);
			return -1;
		}
		for (; read != asked; read++)
			our_count_transfer(control);
		/* It says how far it read: it answers nothing of ours. */
		control->answered = false;
		mark_read(place, read);
		if (!our_keep_going(control, read - start))
			break;
		if (our_post_recv(control, OUR_WR_SLOT(wc.wr_id)))
			return -1;
		/* Then wait for the publisher, and say how far it got. */
		if (!await_publication(control, read, &published))
			return -1;
		told = published;
		if (control->count && told - start > control->count)
			told = start + control->count;
		if (our_post_notice(control, OUR_NOTICE_SLOT, told))
			return -1;
		sends = 1;
	}
	/* end excerpt agent */
	return 0;
}

int our_run_agent(struct our_control *control)
{
	struct ibv_wc wc;
	uint32_t start;
	int place;
	int ret;

	/* The subscriber's first notice; then a place on the board. */
	if (our_await_transfers(control, 0, true, &wc) ||
	    !our_expected_notice(control, &wc, 0) ||
	    our_post_recv(control, OUR_WR_SLOT(wc.wr_id)))
		return -1;
	place = join_board(&start);
	if (place < 0)
		return -1;
	our_trace(1, "%s reads from publication %" PRIu32, control->peer_name,
		  start);
	ret = serve_subscriber(control, place, start);
	leave_board(place);
	return ret;
}
