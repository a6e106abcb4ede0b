// SPDX-License-Identifier: MIT
/*
 * send_lists.c - posting a send that gathers a message from several
 * pieces, with ibv_post_send: the work request points to a list of
 * scatter-gather elements, num_sge long, instead of to one.
 */
#include "instruments.h"
#include "posting.h"
#include "report.h"

int our_post_sendv(struct our_control *control, uint64_t wr_id,
		   struct ibv_sge *sges, uint32_t n)
{
	struct ibv_send_wr wr = {
		.wr_id = wr_id,
		.sg_list = sges,
		.num_sge = (int)n,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr *bad_wr;
	int ret;

	/* One message on the wire, gathered from the pieces in order. */
	ret = ibv_post_send(control->qp, &wr, &bad_wr);
	our_tally(control, "posting", "sends posted", 1);
	if (our_verb_error(ret, "ibv_post_send slot %u, %u pieces",
			    OUR_WR_SLOT(wr_id), n))
		return -1;
	return 0;
}
