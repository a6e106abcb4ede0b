// SPDX-License-Identifier: MIT
/*
 * queue_pair.c - the queue pair: creating it, and posting sends to it
 * with ibv_post_send: a work request is a struct the program fills in
 * and hands to the queue pair. (Receives: post_recv.c.)
 */
#include "buffers.h"
#include "instruments.h"
#include "posting.h"
#include "report.h"

int our_create_qp(struct our_control *control)
{
	struct ibv_qp_init_attr attr = our_qp_attr(control);
	int ret;

	/* The CM creates the queue pair and moves it through its states. */
	ret = rdma_create_qp(control->cm_id, control->pd, &attr);
	if (our_verb_failed(ret, "rdma_create_qp RC max_send_wr=%u "
				 "max_recv_wr=%u",
			    attr.cap.max_send_wr, attr.cap.max_recv_wr))
		return -1;
	control->qp = control->cm_id->qp;
	our_trace(2, "queue pair %u: max_send_wr=%u max_recv_wr=%u "
		     "max_send_sge=%u max_inline_data=%u",
		  control->qp->qp_num, attr.cap.max_send_wr,
		  attr.cap.max_recv_wr, attr.cap.max_send_sge,
		  attr.cap.max_inline_data);
	return 0;
}

void our_destroy_qp(struct our_control *control)
{
	/* Work still posted goes with it, unpolled: the disconnect flushed
	 * it to the completion queue (or, without one, it raises none). */
	rdma_destroy_qp(control->cm_id);
	our_trace(1, "rdma_destroy_qp");
	control->qp = NULL;
}

int our_post_send(struct our_control *control,
		  const struct our_buffers *buffers, uint32_t slot,
		  uint32_t length)
{
	struct ibv_sge sge = our_sge(buffers, slot, length);
	struct ibv_send_wr wr = {
		.wr_id = OUR_WR_ID(OUR_WR_SEND, slot),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};

	/* The adapter sends the bytes; a completion says it is done. */
	return our_post_wr(control, &wr, "send");
}

int our_post_wr(struct our_control *control, struct ibv_send_wr *wr,
		const char *what)
{
	struct ibv_send_wr *bad_wr;
	int ret;

	ret = ibv_post_send(control->qp, wr, &bad_wr);
	our_tally(control, "posting", "ibv_post_send calls", 1);
	if (our_verb_error(ret, "ibv_post_send %s slot %u, %u bytes", what,
			   OUR_WR_SLOT(wr->wr_id), wr->sg_list[0].length))
		return -1;
	return 0;
}
