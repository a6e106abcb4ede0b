/* SPDX-License-Identifier: MIT */
/*
 * control.h - the per-connection control structure.
 *
 * One struct our_control holds everything a connection owns, in the order
 * it is set up. Each field is set by one set-up function and cleared by
 * its undo, so a structure that is partly set up can always be undone.
 */
#ifndef OUR_CONTROL_H
#define OUR_CONTROL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "options.h"
#include "stats.h"

/* Room for the largest private data a CM event can carry (rdma_accept). */
#define OUR_PEER_DATA_MAX 256

/* Registered memory cut into equal slots, one message each. */
struct our_buffers {
	char *data;
	uint32_t slot_size;
	uint32_t slots;
	struct ibv_mr *mr;
	bool shared; /* data is not ours to free (see struct our_buffer_plan) */
};

/* Memory the peer advertised for RDMA (the ping-rdma stages on). */
struct our_peer_memory {
	uint64_t addr;   /* the address of its first byte, in the peer */
	uint32_t rkey;   /* the key that lets our adapter reach it */
	uint32_t length; /* how many bytes we may reach */
};

/*
 * How many things came together, in buckets by powers of two: 1, 2-3,
 * 4-7, 8-15, 16 or more (see our_count_size in stats.h).
 */
#define OUR_SIZE_BUCKETS 5

/* What the pieces of a stage count, printed with -x. */
struct our_counters {
	uint64_t polls;        /* ibv_poll_cq calls */
	uint64_t empty_polls;  /* ... that found no completion */
	uint64_t cq_events;    /* completion events received */
	uint64_t cq_acked;     /* ... and acknowledged */
	uint64_t poll_calls;   /* poll() calls */
	uint64_t send_posts;   /* ibv_post_send calls */
	uint64_t send_wrs;     /* send work requests posted */
	uint64_t credits;      /* flow-control credits returned */
	uint64_t swap_misses;  /* compare-and-swaps that found another
				* value than expected (atomic-1) */
	/* RDMA writes per ibv_post_send chain, and completions per
	 * ibv_poll_cq that found any (blast-rdma-1). */
	uint64_t chains[OUR_SIZE_BUCKETS];
	uint64_t batches[OUR_SIZE_BUCKETS];
};

/* How a run ended, when it did not simply run its course. */
enum our_run_end {
	OUR_RUN_AS_PLANNED, /* to its count or duration, or it failed */
	OUR_RUN_PEER_GONE,  /* the peer disconnected or died */
	OUR_RUN_INTERRUPTED, /* Ctrl-C or SIGTERM (see interrupt.h) */
};

struct our_control {
	const struct our_options *options;

	/* What this connection runs: our options, or what the peer asked. */
	uint32_t count;    /* transfers; 0: until the duration is over, or
			    * for an agent, until the client hangs up */
	uint32_t duration; /* seconds, with a count of 0: the client's -D */
	uint32_t size;
	uint32_t buffers;
	bool verify;
	enum our_run_end end;

	/* Connection management. */
	struct rdma_event_channel *cm_channel; /* NULL: the CM verbs block */
	struct rdma_cm_id *cm_id;
	char peer_name[80]; /* "address:port" of the peer, for messages */
	char peer_data[OUR_PEER_DATA_MAX]; /* private data of the last event */
	uint8_t peer_data_len;
	atomic_bool disconnected; /* set when a disconnect is seen */
	atomic_bool watch_failed; /* the connection can no longer be watched */
	/* The CM event thread, for the pieces that have one. */
	pthread_t cm_thread;
	bool cm_thread_started;
	atomic_bool cm_thread_stop;
	atomic_int last_cm_event; /* enum rdma_cm_event_type, or -1 */

	/* The queue pair and what it needs. */
	struct ibv_pd *pd;
	struct ibv_comp_channel *completion_channel; /* NULL: busy polling */
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	/* The bytes a send may carry inline, as the device gave them when
	 * the queue pair was created (ping-wr-1's posting piece uses it). */
	uint32_t max_inline;
	/* Work completions polled together and not yet handed out, for
	 * the piece that polls in batches (blast-rdma-1). */
	struct ibv_wc *polled;
	int polled_count;
	int polled_next;

	/* Registered memory. */
	struct our_buffers send;
	struct our_buffers recv;
	struct our_buffers remote; /* what the peer reaches by RDMA, if any */
	struct our_buffers heads;  /* messages' headers (ping-sg-1 on) */
	struct our_peer_memory peer_memory; /* what we reach in the peer */
	/* What the agents of a server for many clients share, if anything
	 * (atomic-1's counter): the server's, not the agent's. */
	void *shared;

	struct our_stats stats;
	struct our_counters counters;
};

/* A server's listening end: its own channel and id. */
struct our_listener {
	struct rdma_event_channel *cm_channel;
	struct rdma_cm_id *cm_id;
};

/* Start a control structure for options, nothing set up yet. */
void our_init_control(struct our_control *control,
		      const struct our_options *options);

/*
 * For the exchange, before each transfer: true while the run goes on
 * after done transfers, that is below the count, or before the duration
 * is over, or (an agent with no count) until the client hangs up. False
 * once Ctrl-C or SIGTERM came: control->end then says so.
 */
bool our_keep_going(struct our_control *control, uint64_t done);

/*
 * Once the run is over, given what the exchange returned: say how the run
 * ended when the peer or a signal ended it, and return the program's exit
 * status: 0, 1 for a failure or a run cut short by the peer, 128 plus the
 * signal's number for a run that a signal ended.
 */
int our_end_of_run(const struct our_control *control, int ret);

/*
 * A ping-pong's client: true when pong, -s bytes, is ping number's, or
 * when -v was not asked for; otherwise says which pong differs.
 */
bool our_pong_verified(const struct our_control *control, const char *pong,
		       uint32_t number);

#endif
