// SPDX-License-Identifier: MIT
/*
 * post_verbs.c - creating the queue pair, and posting sends with
 * ibv_post_send: a work request is a struct the program fills in and
 * hands to the queue pair. (Receives: post_recv.c.)
 *
 * The kit's first way of posting, and the one most of its stages use;
 * ping-wr-1 swaps it for ibv_wr_*.
 */
#include "buffers.h"
#include "posting.h"
#include "report.h"

int our_create_qp(struct our_control *control, struct ibv_qp_init_attr *attr)
{
	int ret;

	/* The CM creates the QP and will move it through its states. */
	ret = rdma_create_qp(control->cm_id, control->pd, attr);
	if (our_verb_failed(ret, "rdma_create_qp RC max_send_wr=%u "
				 "max_recv_wr=%u",
			    attr->cap.max_send_wr, attr->cap.max_recv_wr))
		return -1;
	control->qp = control->cm_id->qp;
	return 0;
}

int our_post_send(struct our_control *control,
		  const struct our_buffers *buffers, uint32_t slot,
		  uint32_t length)
{
	struct ibv_sge sge = our_sge(buffers, slot, length);
	struct ibv_send_wr wr = {
		.wr_id = our_wr_id(OUR_WR_SEND, slot),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};

	/* The adapter sends the bytes; a completion says it is done. */
	return our_post_wr(control, &wr);
}

int our_post_wr(struct our_control *control, struct ibv_send_wr *wr)
{
	enum our_wr_kind kind = our_wr_kind(wr->wr_id);
	struct ibv_send_wr *bad_wr;
	int ret;

	ret = ibv_post_send(control->qp, wr, &bad_wr);
	control->counters.send_posts++;
	control->counters.send_wrs++;
	/* A send is what ibv_post_send does unless told otherwise. */
	if (our_verb_error(ret, "ibv_post_send %s%sslot %u, %u bytes",
			   kind == OUR_WR_SEND ? "" : our_wr_kind_name(kind),
			   kind == OUR_WR_SEND ? "" : " ",
			   our_wr_slot(wr->wr_id), wr->sg_list[0].length))
		return -1;
	return 0;
}
