/* SPDX-License-Identifier: MIT */
/*
 * exchange.h - what the client and the agent do once connected, and the
 * memory they do it with.
 *
 * Each program links exactly one piece that implements this header:
 *   ping-sr-0/ping.c             ping-pong round trips
 *   blast-sr-2/blast.c           a one-way stream with flow control
 *   ping-rdma-1/ping_write.c     ping-pong by RDMA write, each write told
 *                                by a send
 *   ping-rdma-2/ping_read.c      ping-pong by RDMA read, each side reading
 *                                what the other has said is ready
 *   blast-rdma-1/blast_write.c   a stream of RDMA writes into a ring,
 *                                chained, each chain told by a send
 *   atomic-1/atomic_counter.c    remote fetch-and-add and compare-and-swap
 *                                on a counter the agents share
 *   pubsub-rdma-1/board.c        publications on a board the agents
 *                                share, which each subscriber reads
 *   ping-sg-1/ping_sg.c          ping-pong of messages in two pieces, a
 *                                header and a payload
 * The one-sided ones share ping-rdma-1's remote_memory.c and notice.c.
 * The client's and the agent's steps (ping-sr-0/client.c and agent.c)
 * are the same for every stage; the exchange is one of the pieces.
 */
#ifndef OUR_EXCHANGE_H
#define OUR_EXCHANGE_H

#include "control.h"

/* How the client and the server present themselves to --help. */
extern const char our_client_purpose[];
extern const char our_server_purpose[];

/* The client's options besides -a and -p, and the CM piece's -D. */
extern const struct our_option our_client_options[];

/* What one transfer is called in the report: "round trip", "message". */
extern const char our_transfer_unit[];

/* The payload one transfer moves, in -s sizes: 2 for a round trip. */
extern const uint32_t our_sizes_per_transfer;

/*
 * The scatter-gather elements a message is sent from and received into:
 * 1, or 2 for a message in two pieces. The queue pair takes that many.
 */
extern const uint32_t our_sges_per_message;

/*
 * Register the memory the client needs, and set the depths of its queues
 * (see our_setup_buffers). Returns 0, or -1 (reported) with nothing
 * left. Undo with our_unsetup_client_memory().
 */
int our_setup_client_memory(struct our_control *control);
void our_unsetup_client_memory(struct our_control *control);

/* Register the agent's memory. Undo with our_unsetup_agent_memory(). */
int our_setup_agent_memory(struct our_control *control);
void our_unsetup_agent_memory(struct our_control *control);

/*
 * Client: post the receives that must be waiting before anything can
 * arrive; called before rdma_connect. Returns 0, or -1 (reported).
 */
int our_prepare_client(struct our_control *control);

/* Agent: the same, before rdma_accept. Returns 0, or -1 (reported). */
int our_prepare_agent(struct our_control *control);

/*
 * Both sides, before they connect: ask in param for the resources the
 * exchange needs of the adapters (RDMA reads in flight). Returns 0, or -1
 * (reported) when the device does not have them.
 */
int our_ask_resources(struct our_control *control,
		      struct rdma_conn_param *param);

/*
 * Client and agent: the exchange itself, control->count transfers of
 * control->size bytes, or with no count as many as our_keep_going
 * (control.h) allows. Returns 0 when the run ran its course,
 * or Ctrl-C ended it between two transfers; -1 when it failed
 * (reported), or the peer went away or Ctrl-C came during a wait
 * (control->end says which, for our_end_run).
 */
int our_run_client(struct our_control *control);
int our_run_agent(struct our_control *control);

/*
 * For our_check_wc, before it asks whether a failed work completion is
 * the news that the peer has gone: true when the peer refused our access
 * to its memory and is still there (an exchange that reaches the peer's
 * memory asks; one of sends alone says false).
 */
bool our_refused_by_peer(struct our_control *control,
			 const struct ibv_wc *wc);

/*
 * For our_explain_wc: a work completion failed, and was reported. Returns
 * true when the exchange said what it probably means (of something it
 * posts beyond sends and receives), false to leave it to our_explain_wc.
 */
bool our_explain_exchange_wc(const struct our_control *control,
			     const struct ibv_wc *wc);

#endif
