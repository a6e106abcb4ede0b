/* SPDX-License-Identifier: MIT */
/*
 * posting.h - handing work requests to the queue pair, and taking their
 * work completions back.
 *
 * A work request id says which kind of transfer it was and which slot it
 * used, so that a work completion can be matched to its buffer.
 *
 * The posting piece of a stage creates the queue pair and posts to it
 * (the functions from our_create_qp on); posting.c, the rest.
 */
#ifndef OUR_POSTING_H
#define OUR_POSTING_H

#include "control.h"

/* The kinds of work request; other kinds are numbered on from
 * OUR_WR_OTHER. */
enum our_wr_kind {
	OUR_WR_SEND = 1,
	OUR_WR_RECV = 2,
	OUR_WR_OTHER = 3,
};

/* A work request id: its kind, and the slot its buffer is in. */
#define OUR_WR_ID(kind, slot) ((uint64_t)(kind) << 32 | (uint32_t)(slot))
#define OUR_WR_KIND(wr_id) ((uint32_t)((wr_id) >> 32))
#define OUR_WR_SLOT(wr_id) ((uint32_t)(wr_id))

/* One scatter-gather element: length bytes of slot in buffers. */
struct ibv_sge our_sge(const struct our_buffers *buffers, uint32_t slot,
		       uint32_t length);

/*
 * What the queue pair is created with: an RC queue pair on our one
 * completion queue, as deep as control's depths, taking
 * our_sges_per_message elements in a work request.
 */
struct ibv_qp_init_attr our_qp_attr(const struct our_control *control);

/*
 * Wait until the next sends work requests on the send queue have
 * completed, whatever their kind, and, when recv is true, until one
 * receive has: its work completion is copied to *received. Returns 0,
 * or -1 (see our_await_completion).
 */
int our_await_transfers(struct our_control *control, uint32_t sends,
			bool recv, struct ibv_wc *received);

/* True once a run with a count has counted every transfer (the agent's
 * once posted), or has the answer to its last (control->answered). */
bool our_count_done(const struct our_control *control);

/*
 * Check a work completion. Returns 0 for success, or for a send-queue
 * work request flushed or never acknowledged once our_count_done().
 * Otherwise returns -1 with the failure reported; or, where the program
 * watches the connection and finds it down (the peer went away), with
 * control->end set to OUR_RUN_PEER_GONE (OUR_RUN_INTERRUPTED after a
 * Ctrl-C) and nothing reported.
 */
int our_check_wc(struct our_control *control, const struct ibv_wc *wc);

/* Once a failed work completion was reported: say what the kit can guess
 * of the cause. */
void our_explain_wc(const struct our_control *control,
		    const struct ibv_wc *wc);

/*
 * Create the queue pair of control->cm_id, with our_qp_attr(), into
 * control->qp. Returns 0, or -1 (reported). Undo with our_destroy_qp().
 */
int our_create_qp(struct our_control *control);
void our_destroy_qp(struct our_control *control);

/* Post a receive into slot of control->recv. Returns 0 or -1 (reported). */
int our_post_recv(struct our_control *control, uint32_t slot);

/*
 * Post a signaled send of length bytes from slot of buffers (the adapter
 * only reads what it sends: any registered memory will do). Returns 0 or
 * -1 (reported).
 */
int our_post_send(struct our_control *control,
		  const struct our_buffers *buffers, uint32_t slot,
		  uint32_t length);

/*
 * Post one work request, prepared by the caller and called what in
 * messages ("send"), on the send queue. Returns 0 or -1 (reported).
 */
int our_post_wr(struct our_control *control, struct ibv_send_wr *wr,
		const char *what);

/*
 * A message in n pieces: post a receive that scatters it into sges, or a
 * signaled send that gathers it from sges, both with work request id
 * wr_id. Returns 0 or -1 (reported).
 */
int our_post_recvv(struct our_control *control, uint64_t wr_id,
		   struct ibv_sge *sges, uint32_t n);
int our_post_sendv(struct our_control *control, uint64_t wr_id,
		   struct ibv_sge *sges, uint32_t n);

#endif
