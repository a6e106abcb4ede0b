// SPDX-License-Identifier: MIT
/*
 * queue_pair_ex.c - an extended queue pair: creating it, and posting
 * sends with its ibv_wr_* interface, inline when they fit.
 *
 * There is no work request struct to fill in: between ibv_wr_start and
 * ibv_wr_complete the program calls one function per work request
 * (ibv_wr_send, ibv_wr_rdma_write, ibv_wr_atomic_fetch_add...), each
 * followed by a setter for its data (ibv_wr_set_sge,
 * ibv_wr_set_inline_data...). ibv_wr_complete posts them all at once;
 * ibv_wr_abort drops them, nothing posted. The queue pair must be
 * created extended, saying which operations it will be asked for.
 * Receives have no such interface: ping-sr-0's post_recv.c posts them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "instruments.h"
#include "posting.h"
#include "report.h"

/*
 * The inline data we ask the queue pair for: bytes a send may carry in
 * the work request itself, copied by the CPU when it is posted, so that
 * the adapter need not read them from memory. Devices commonly take this
 * much; one that refuses it gets a queue pair without (see
 * create_qp_ex).
 */
#define OUR_INLINE_ASK 256u

/* The operations we will ask of the queue pair. */
#define OUR_SEND_OPS IBV_QP_EX_WITH_SEND

/* What the posting keeps: control->posting. */
struct our_posting {
	/* The bytes a send may carry inline, as the device gave them. */
	uint32_t max_inline;
};

/*
 * Create the extended queue pair with the inline data we ask for; on
 * EINVAL (less room, or another refusal), without.
 */
static int create_qp_ex(struct our_control *control,
			struct ibv_qp_init_attr_ex *attr)
{
	int ret;

	attr->cap.max_inline_data = OUR_INLINE_ASK;
	ret = rdma_create_qp_ex(control->cm_id, attr);
	if (ret && errno == EINVAL) {
		our_trace(1, "rdma_create_qp_ex with max_inline_data=%u: %s; "
			     "trying without inline data",
			  OUR_INLINE_ASK, strerror(errno));
		attr->cap.max_inline_data = 0;
		ret = rdma_create_qp_ex(control->cm_id, attr);
	}
	if (our_verb_failed(ret, "rdma_create_qp_ex RC max_send_wr=%u "
				 "max_recv_wr=%u max_inline_data=%u",
			    attr->cap.max_send_wr, attr->cap.max_recv_wr,
			    attr->cap.max_inline_data)) {
		if (errno == EOPNOTSUPP)
			our_error("this device's provider has no ibv_wr_* "
				  "interface: the extended queue pair needs "
				  "one");
		return -1;
	}
	return 0;
}

int our_create_qp(struct our_control *control)
{
	/* excerpt qp_ex_attr */
	struct ibv_qp_init_attr attr = our_qp_attr(control);
	struct ibv_qp_init_attr_ex ex = {
		.send_cq = attr.send_cq,
		.recv_cq = attr.recv_cq,
		.cap = attr.cap,
		.qp_type = attr.qp_type,
		.sq_sig_all = attr.sq_sig_all,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = control->pd,
		.send_ops_flags = OUR_SEND_OPS,
	};
	/* end excerpt qp_ex_attr */

	/* excerpt qp_ex_create */
	control->posting = calloc(1, sizeof(*control->posting));
	if (!control->posting) {
		our_error("no memory for the posting's state");
		return -1;
	}
	if (create_qp_ex(control, &ex)) {
		free(control->posting);
		control->posting = NULL;
		return -1;
	}
	control->qp = control->cm_id->qp;
	/* What the device gave, which may be more than we asked: the
	 * sends that fit in it go inline. */
	control->posting->max_inline = ex.cap.max_inline_data;
	our_trace(1, "extended queue pair: sends of up to %u bytes go inline",
		  control->posting->max_inline);
	/* end excerpt qp_ex_create */
	return 0;
}

void our_destroy_qp(struct our_control *control)
{
	/* Work still posted goes with it, unpolled: the disconnect flushed
	 * it to the completion queue (or, without one, it raises none). */
	rdma_destroy_qp(control->cm_id);
	our_trace(1, "rdma_destroy_qp");
	control->qp = NULL;
	free(control->posting);
	control->posting = NULL;
}

int our_post_send(struct our_control *control,
		  const struct our_buffers *buffers, uint32_t slot,
		  uint32_t length)
{
	/* excerpt batch */
	/* excerpt batch_start */
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(control->qp);
	bool inline_data = length <= control->posting->max_inline;
	int ret;

	/* From here to ibv_wr_complete or ibv_wr_abort the provider holds
	 * the queue pair's lock (see CONCURRENCY in ibv_wr_post(3)): a
	 * batch begun must be ended, whatever goes wrong. */
	ibv_wr_start(qpx);
	qpx->wr_id = OUR_WR_ID(OUR_WR_SEND, slot);
	/* Inline: the flag as well as the setter, which Soft-RoCE needs. */
	qpx->wr_flags = IBV_SEND_SIGNALED | (inline_data ? IBV_SEND_INLINE : 0);
	ibv_wr_send(qpx);
	/* A batch found wrong while it is built is given up, and nothing
	 * is posted. This check could come before ibv_wr_start; it comes
	 * here to show ibv_wr_abort, as a program that builds many work
	 * requests in one batch would check each: a send that would read
	 * past its slot. */
	if (slot >= buffers->slots || length > buffers->slot_size) {
		ibv_wr_abort(qpx);
		our_error("a send of %u bytes from slot %u of %u-byte slots: "
			  "not posted",
			  length, slot, buffers->slot_size);
		return -1;
	}
	/* end excerpt batch_start */
	/* excerpt batch_end */
	/* Inline, the setter copies the bytes into the work request: the
	 * slot may be written again at once. Otherwise the adapter reads
	 * them later, from registered memory. */
	if (inline_data)
		ibv_wr_set_inline_data(qpx, our_slot(buffers, slot), length);
	else
		ibv_wr_set_sge(qpx, buffers->mr->lkey,
			       (uintptr_t)our_slot(buffers, slot), length);
	ret = ibv_wr_complete(qpx);
	/* end excerpt batch_end */
	/* end excerpt batch */
	our_tally(control, "posting", "sends posted", 1);
	our_tally(control, "posting", inline_data ? "inline" : "not inline", 1);
	if (our_verb_error(ret, "ibv_wr_complete: send slot %u, %u bytes%s",
			   slot, length, inline_data ? " inline" : ""))
		return -1;
	return 0;
}
