/* SPDX-License-Identifier: MIT */
/*
 * control.h - the per-connection control structure, and the run's
 * control: how long a run goes on, how it ended, what it reports.
 *
 * One struct our_control holds what a connection owns, in the order it
 * is set up. Each field is set by one set-up function and cleared by its
 * undo, so a structure that is partly set up can always be undone. What
 * a piece needs beyond it, the piece keeps in a structure of its own,
 * which only it knows, behind one of the pointers at the end.
 */
#ifndef OUR_CONTROL_H
#define OUR_CONTROL_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "interrupt.h"
#include "options.h"

/* Registered memory cut into equal slots, one message each. */
struct our_buffers {
	char *data;
	uint32_t slot_size;
	uint32_t slots;
	struct ibv_mr *mr;
};

/* How a run ended: as planned, or cut short, and by what. */
enum our_run_end {
	OUR_RUN_AS_PLANNED, /* it ran its course, or it failed */
	OUR_RUN_PEER_GONE,  /* the peer disconnected or died */
	OUR_RUN_INTERRUPTED, /* Ctrl-C or SIGTERM (see interrupt.h) */
	OUR_RUN_SILENT,	     /* no acknowledgement: link or host gone */
};

/* What the pieces keep for themselves: each type is its piece's own. */
struct our_cm;
struct our_completions;
struct our_posting;
struct our_exchange;
struct our_statistics;

struct our_control {
	/* What this connection runs: our options, or what the peer asked. */
	uint32_t count;    /* transfers; 0: none, the agent runs until the
			    * client hangs up */
	uint32_t duration; /* a timed run's seconds (see control.c) */
	uint32_t size;
	uint32_t buffers;
	bool verify;
	enum our_run_end end;

	/* Connection management. */
	struct rdma_cm_id *cm_id;
	char peer_name[80]; /* "address:port" of the peer, for messages */

	/* The protection domain, and the memory registered in it. */
	struct ibv_pd *pd;
	struct our_buffers send;
	struct our_buffers recv;
	/* The work requests in flight at most, on each queue. */
	uint32_t send_depth;
	uint32_t recv_depth;

	/* The completion queue and the queue pair. */
	struct ibv_cq *cq;
	struct ibv_qp *qp;

	/* The run: its clock, the transfers done, and what Ctrl-C did
	 * before it. */
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t transfers;
	/* The peer's answer to the transfer in progress is in: it had all
	 * we sent before (set when the answer arrives, until counted). */
	bool answered;
	struct our_interrupts interrupts;

	/* What a part of the program keeps for itself, if anything. */
	struct our_cm *cm;                   /* the CM events' */
	struct our_completions *completions; /* the completions' */
	struct our_posting *posting;         /* the posting's */
	struct our_exchange *exchange;       /* the exchange's */
	struct our_statistics *statistics;   /* -x's */
};

/* A server's listening end. */
struct our_listener {
	struct rdma_cm_id *cm_id;
};

/* Start a control structure for options, nothing set up yet. */
void our_init_control(struct our_control *control,
		      const struct our_options *options);

/*
 * For the exchange, before each transfer: true while the run goes on
 * after done transfers: below the count; with no count, until the
 * client hangs up (an agent). False once Ctrl-C or SIGTERM came:
 * control->end then says so.
 */
bool our_keep_going(struct our_control *control, uint64_t done);

/* Monotonic time in nanoseconds. */
uint64_t our_now_ns(void);

/* Count one transfer done. */
void our_count_transfer(struct our_control *control);

/*
 * Start the run: take the time; from now on Ctrl-C and SIGTERM ask it to
 * end. Returns 0, or -1 (reported). Undo with our_end_run().
 */
int our_start_run(struct our_control *control);

/*
 * Once the run is over, given what the exchange returned: take the time,
 * give the signals back, say how the run ended when the peer or a signal
 * ended it, print the report, and return the program's exit status: 0,
 * 1 for a failure or a run cut short by the peer, 128 plus the signal's
 * number for a run that a signal ended.
 */
int our_end_run(struct our_control *control, int ret);

#endif
