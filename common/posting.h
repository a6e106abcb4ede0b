/* SPDX-License-Identifier: MIT */
/*
 * posting.h - handing work requests to the queue pair.
 *
 * A work request id says which kind of transfer it was and which slot it
 * used, so a work completion can be matched to its buffer.
 *
 * The posting pieces of a stage create the queue pair and post to it:
 * ping-sr-0's post_verbs and post_recv (ibv_post_send and ibv_post_recv,
 * for most stages); ping-sg-1's send_lists and recv_lists for messages
 * in pieces; ping-post-1's post_rdma (rdma_post_*); ping-wr-1's post_wr
 * (ibv_wr_*). They define the functions their stage's exchange calls;
 * posting.c, shared by all, the rest.
 */
#ifndef OUR_POSTING_H
#define OUR_POSTING_H

#include "control.h"

enum our_wr_kind {
	OUR_WR_SEND = 1,
	OUR_WR_RECV = 2,
	OUR_WR_WRITE = 3, /* RDMA write (the ping-rdma stages on) */
	OUR_WR_READ = 4,  /* RDMA read (ping-rdma-2) */
	OUR_WR_ATOMIC = 5, /* fetch-and-add or compare-and-swap (atomic-1) */
};

uint64_t our_wr_id(enum our_wr_kind kind, uint32_t slot);
enum our_wr_kind our_wr_kind(uint64_t wr_id);
uint32_t our_wr_slot(uint64_t wr_id);
/* What a work request of kind is called in messages: "RDMA write". */
const char *our_wr_kind_name(enum our_wr_kind kind);

/* One scatter-gather element: length bytes of slot in buffers. */
struct ibv_sge our_sge(const struct our_buffers *buffers, uint32_t slot,
		       uint32_t length);

/*
 * Create the RC queue pair of control->cm_id as attr asks, with
 * control->pd, and set control->qp. attr->cap comes back with what the
 * device gave. Returns 0, or -1 (reported).
 */
int our_create_qp(struct our_control *control, struct ibv_qp_init_attr *attr);

/* Post a receive into slot of control->recv. Returns 0 or -1 (reported). */
int our_post_recv(struct our_control *control, uint32_t slot);

/*
 * Post a signaled send of length bytes from slot of buffers, which are
 * control->send or control->recv (the adapter only reads what it sends,
 * and any registered memory will do). Returns 0 or -1 (reported).
 */
int our_post_send(struct our_control *control,
		  const struct our_buffers *buffers, uint32_t slot,
		  uint32_t length);

/*
 * Post one work request, prepared by the caller, on the send queue, and
 * count it for -x. Its wr_id says its kind and slot (our_wr_id), for the
 * message if the post fails. Returns 0 or -1 (reported).
 */
int our_post_wr(struct our_control *control, struct ibv_send_wr *wr);

/*
 * A message in n pieces (ping-sg-1 on): post a receive that scatters it
 * into sges, or a signaled send that gathers it from sges, both with
 * work request id wr_id. Returns 0 or -1 (reported).
 */
int our_post_recvv(struct our_control *control, uint64_t wr_id,
		   struct ibv_sge *sges, uint32_t n);
int our_post_sendv(struct our_control *control, uint64_t wr_id,
		   struct ibv_sge *sges, uint32_t n);

/*
 * Wait for sends completions on the send queue (sends, writes, reads
 * and atomics), and for one receive when recv is true: its work completion is
 * copied to *received. Returns 0, or -1 (see our_await_completion).
 */
int our_await_transfers(struct our_control *control, uint32_t sends,
			bool recv, struct ibv_wc *received);

/*
 * Trace a work completion. Returns 0 for success. Otherwise returns -1:
 * when the connection turns out to be down (the peer went away), with
 * control->end set to OUR_RUN_PEER_GONE and nothing reported; otherwise
 * with the failure reported, and a hint where the kit can guess the cause.
 */
int our_check_wc(struct our_control *control, const struct ibv_wc *wc);

#endif
