/* SPDX-License-Identifier: MIT */
/*
 * exchange.h - what the client and the agent do once connected.
 *
 * Each program links exactly one piece that implements this header:
 *   ping-sr-0/ping.c    ping-pong round trips (ping-sr-0 to ping-sr-4,
 *                       ping-wr-1)
 *   blast-sr-2/blast.c  a one-way stream with flow control (blast-sr-2)
 *   ping-rdma-1/ping_write.c  ping-pong by RDMA write, each write told
 *                       by a send (ping-rdma-1)
 *   ping-rdma-2/ping_read.c  ping-pong by RDMA read, each side reading
 *                       what the other has said is ready (ping-rdma-2)
 *   blast-rdma-1/blast_write.c  a stream of RDMA writes into a ring,
 *                       chained, each chain told by a send (blast-rdma-1)
 *   atomic-1/atomic_counter.c  remote fetch-and-add and compare-and-swap
 *                       on a counter the agents share (atomic-1)
 *   pubsub-rdma-1/board.c  publications on a board the agents share,
 *                       which each subscriber reads (pubsub-rdma-1)
 *   ping-sg-1/ping_sg.c  ping-pong of messages in two pieces, a header
 *                       and a payload (ping-sg-1, ping-post-1)
 * The client's and the agent's steps (ping-sr-0/client.c and agent.c)
 * are the same for every stage; the exchange is one of the pieces.
 */
#ifndef OUR_EXCHANGE_H
#define OUR_EXCHANGE_H

#include "buffers.h"
#include "control.h"
#include "options.h"

/* How the client and the server present themselves to --help. */
extern const struct our_program our_client_program;
extern const struct our_program our_server_program;

/* What one transfer is called in the report: "round trip", "message". */
extern const char our_transfer_unit[];

/*
 * The work requests one transfer in flight keeps on the send queue: 1
 * for a send; 2 for an RDMA write and the send that tells of it. The
 * queue pair is made deep enough for -b transfers of that many.
 */
extern const uint32_t our_sends_per_transfer;

/*
 * The scatter-gather elements a message is sent from and received into:
 * 1, or 2 for ping-sg-1's header and payload. The queue pair is made to
 * take that many in a work request.
 */
extern const uint32_t our_sges_per_message;

/*
 * The RDMA reads (and atomics) one side keeps in flight at once: 0 for
 * sends and writes. Both sides ask the CM for this many each way, in the
 * connection parameters (see our_connect and our_accept).
 */
extern const uint8_t our_reads_in_flight;

/* The memory the client and the agent register for the exchange. */
struct our_buffer_plan our_client_buffers(const struct our_control *control);
struct our_buffer_plan our_agent_buffers(const struct our_control *control);

/*
 * Client: post the receives that must be waiting before anything can
 * arrive; called before rdma_connect. Returns 0, or -1 (reported).
 */
int our_prepare_client(struct our_control *control);

/* Agent: the same, before rdma_accept. Returns 0, or -1 (reported). */
int our_prepare_agent(struct our_control *control);

/*
 * Client and agent: the exchange itself, control->count transfers of
 * control->size bytes, or as many as the duration allows (see
 * our_keep_going in control.h). Returns 0 when the run is over, whether
 * it ran its course or Ctrl-C ended it; or -1 when it failed (reported)
 * or the peer went away (control->end says so, for our_end_of_run).
 */
int our_run_client(struct our_control *control);
int our_run_agent(struct our_control *control);

/* Print, for -x, what the exchange counted (nothing for some). */
void our_print_exchange_counters(const struct our_control *control);

#endif
