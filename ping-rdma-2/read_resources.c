// SPDX-License-Identifier: MIT
/*
 * read_resources.c - ask the adapters for RDMA read resources when
 * connecting: the reads a side may have in flight at its peer (initiator
 * depth), and those it answers at once (responder resources). An atomic
 * takes one as a read does.
 */
#include "exchange.h"
#include "instruments.h"
#include "read_resources.h"
#include "report.h"

int our_ask_resources(struct our_control *control,
		      struct rdma_conn_param *param)
{
	/* excerpt query */
	struct ibv_context *verbs = control->cm_id->verbs;
	uint8_t reads = our_reads_in_flight;
	struct ibv_device_attr attr;
	int ret;

	/* What the device can keep in flight, at a queue pair and from it. */
	ret = ibv_query_device(verbs, &attr);
	if (our_verb_error(ret, "ibv_query_device"))
		return -1;
	if (attr.max_qp_rd_atom < reads || attr.max_qp_init_rd_atom < reads) {
		our_error("%s allows %d RDMA reads in flight at a queue pair, "
			  "and %d from it; the exchange needs %u",
			  ibv_get_device_name(verbs->device),
			  attr.max_qp_rd_atom, attr.max_qp_init_rd_atom, reads);
		return -1;
	}
	our_trace(1, "asking for %u RDMA reads in flight each way", reads);
	/* end excerpt query */
	/* excerpt resources */
	/* The reads the peer may have in flight at us: our adapter keeps
	 * this many answers going at once. */
	param->responder_resources = reads;
	/* ... and those we may have in flight at the peer: the same, here,
	 * whichever side reads; a server could take the client's figures
	 * from the request (event->param.conn). */
	param->initiator_depth = reads;
	/* end excerpt resources */
	return 0;
}
