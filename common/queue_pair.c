// SPDX-License-Identifier: MIT
/*
 * queue_pair.c - the protection domain, completion queue and RC queue pair.
 */
#include "completions.h"
#include "exchange.h"
#include "posting.h"
#include "queue_pair.h"
#include "report.h"

/* Allocate the protection domain that owns our memory and queue pair. */
static int create_pd(struct our_control *control)
{
	/* The adapter gives us a domain: only objects in it work together. */
	control->pd = ibv_alloc_pd(control->cm_id->verbs);
	if (our_verb_null(control->pd, "ibv_alloc_pd %s",
			  ibv_get_device_name(control->cm_id->verbs->device)))
		return -1;
	return 0;
}

static void destroy_pd(struct our_control *control)
{
	int ret = ibv_dealloc_pd(control->pd);

	our_verb_error(ret, "ibv_dealloc_pd");
	control->pd = NULL;
}

/* The work requests the send queue holds at most. */
static uint32_t send_depth(const struct our_control *control)
{
	return control->buffers * our_sends_per_transfer;
}

/* One completion queue, deep enough for every send and receive posted. */
static int create_cq(struct our_control *control)
{
	int entries = (int)(send_depth(control) + control->buffers);

	/* The adapter reports finished work requests here. */
	control->cq = ibv_create_cq(control->cm_id->verbs, entries, control,
				    control->completion_channel, 0);
	if (our_verb_null(control->cq, "ibv_create_cq entries=%d", entries))
		return -1;
	return 0;
}

static void destroy_cq(struct our_control *control)
{
	int ret = ibv_destroy_cq(control->cq);

	our_verb_error(ret, "ibv_destroy_cq");
	control->cq = NULL;
}

/* An RC queue pair on the CM id, using our domain and completion queue. */
static int create_qp(struct our_control *control)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = control->cq,
		.recv_cq = control->cq,
		.cap = {
			.max_send_wr = send_depth(control),
			.max_recv_wr = control->buffers,
			.max_send_sge = our_sges_per_message,
			.max_recv_sge = our_sges_per_message,
		},
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 0,
	};

	/* The posting piece creates it: ibv_wr_* needs an extended one. */
	if (our_create_qp(control, &attr))
		return -1;
	our_trace(2, "queue pair %u: max_send_wr=%u max_recv_wr=%u "
		     "max_send_sge=%u max_inline_data=%u",
		  control->qp->qp_num, attr.cap.max_send_wr,
		  attr.cap.max_recv_wr, attr.cap.max_send_sge,
		  attr.cap.max_inline_data);
	return 0;
}

static void destroy_qp(struct our_control *control)
{
	rdma_destroy_qp(control->cm_id);
	our_trace(1, "rdma_destroy_qp");
	control->qp = NULL;
}

int our_setup_qp(struct our_control *control)
{
	if (create_pd(control))
		return -1;
	if (our_setup_completions(control))
		goto out_destroy_pd;
	if (create_cq(control))
		goto out_unsetup_completions;
	if (our_start_completions(control))
		goto out_destroy_cq;
	if (create_qp(control))
		goto out_stop_completions;
	return 0;

out_stop_completions:
	our_stop_completions(control);
out_destroy_cq:
	destroy_cq(control);
out_unsetup_completions:
	our_unsetup_completions(control);
out_destroy_pd:
	destroy_pd(control);
	return -1;
}

void our_unsetup_qp(struct our_control *control)
{
	destroy_qp(control);
	our_stop_completions(control);
	destroy_cq(control);
	our_unsetup_completions(control);
	destroy_pd(control);
}
