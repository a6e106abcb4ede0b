// SPDX-License-Identifier: MIT
/*
 * post_wr.c - the queue pair, made extended, and its sends posted with
 * the ibv_wr_* interface (post-wr, an exercise; see its README).
 *
 * As given, this is ping-sr-0's queue_pair.c: a queue pair made with
 * rdma_create_qp, and each send a struct ibv_send_wr handed to
 * ibv_post_send. It works. The two TODOs move it to the extended queue
 * pair's way: no struct to fill in, but a call per work request between
 * ibv_wr_start and ibv_wr_complete. Receives have no such interface:
 * ping-sr-0's post_recv.c still posts them.
 */
#include "buffers.h"
#include "instruments.h"
#include "posting.h"
#include "report.h"

int our_create_qp(struct our_control *control)
{
	struct ibv_qp_init_attr attr = our_qp_attr(control);
	int ret;

	/*
	 * TODO 1: make the queue pair extended. Copy attr into a struct
	 * ibv_qp_init_attr_ex (the same queues, capacities, type and
	 * sq_sig_all), give it the protection domain (control->pd) and the
	 * operations it will be asked for (send_ops_flags:
	 * IBV_QP_EX_WITH_SEND), and say so in comp_mask
	 * (IBV_QP_INIT_ATTR_PD, IBV_QP_INIT_ATTR_SEND_OPS_FLAGS). Create it
	 * with rdma_create_qp_ex, checked and traced as below; when errno
	 * is EOPNOTSUPP, say that the device's provider has no ibv_wr_*
	 * interface.
	 */
	ret = rdma_create_qp(control->cm_id, control->pd, &attr);
	if (our_verb_failed(ret, "rdma_create_qp RC max_send_wr=%u "
				 "max_recv_wr=%u",
			    attr.cap.max_send_wr, attr.cap.max_recv_wr))
		return -1;
	control->qp = control->cm_id->qp;
	return 0;
}

void our_destroy_qp(struct our_control *control)
{
	/* Work still posted goes with it, unpolled: the disconnect flushed
	 * it to the completion queue (or, without one, it raises none). An
	 * extended queue pair goes the same way. */
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
	struct ibv_send_wr *bad_wr;
	int ret;

	/*
	 * TODO 2: post the same send with the extended queue pair's
	 * interface, and no struct ibv_send_wr: ibv_qp_to_qp_ex gives the
	 * struct ibv_qp_ex of control->qp. Open a batch with ibv_wr_start;
	 * set the work request's id and flags in the queue pair's wr_id
	 * and wr_flags (the same as wr's above); ibv_wr_send; its one
	 * scatter-gather element with ibv_wr_set_sge (sge's lkey, addr and
	 * length); and post the batch with ibv_wr_complete, which returns
	 * an error number as ibv_post_send does. Keep the tally and the
	 * check below, naming ibv_wr_complete.
	 */
	ret = ibv_post_send(control->qp, &wr, &bad_wr);
	our_tally(control, "posting", "sends posted", 1);
	if (our_verb_error(ret, "ibv_post_send send slot %u, %u bytes", slot,
			   length))
		return -1;
	return 0;
}
