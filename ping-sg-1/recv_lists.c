// SPDX-License-Identifier: MIT
/*
 * recv_lists.c - posting a receive that scatters a message into several
 * pieces, with ibv_post_recv: the work request points to a list of
 * scatter-gather elements, num_sge long, instead of to one.
 */
#include "posting.h"
#include "report.h"

int our_post_recvv(struct our_control *control, uint64_t wr_id,
		   struct ibv_sge *sges, uint32_t n)
{
	struct ibv_recv_wr wr = {
		.wr_id = wr_id,
		.sg_list = sges,
		.num_sge = (int)n,
	};
	struct ibv_recv_wr *bad_wr;
	int ret;

	/* The adapter fills the pieces in order: the first sges[0].length
	 * bytes of the message go to sges[0], the next to sges[1]. */
	ret = ibv_post_recv(control->qp, &wr, &bad_wr);
	if (our_verb_error(ret, "ibv_post_recv slot %u, %u pieces",
			    OUR_WR_SLOT(wr_id), n))
		return -1;
	return 0;
}
