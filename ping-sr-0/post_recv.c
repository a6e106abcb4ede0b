// SPDX-License-Identifier: MIT
/*
 * post_recv.c - posting a receive with ibv_post_recv: a work request the
 * program fills in, naming where the next message that arrives goes.
 */
#include "buffers.h"
#include "posting.h"
#include "report.h"

int our_post_recv(struct our_control *control, uint32_t slot)
{
	struct ibv_sge sge = our_sge(&control->recv, slot,
				     control->recv.slot_size);
	struct ibv_recv_wr wr = {
		.wr_id = OUR_WR_ID(OUR_WR_RECV, slot),
		.sg_list = &sge,
		.num_sge = 1,
	};
	struct ibv_recv_wr *bad_wr;
	int ret;

	/* Messages fill the receives in the order they were posted. */
	ret = ibv_post_recv(control->qp, &wr, &bad_wr);
	if (our_verb_error(ret, "ibv_post_recv slot %u, %u bytes", slot,
			    sge.length))
		return -1;
	return 0;
}
