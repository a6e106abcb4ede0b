// SPDX-License-Identifier: MIT
/*
 * wr-abort.c - a test of ping-wr-1's posting piece on the real device: a
 * send found wrong while it is built (here, from a slot that does not
 * exist) is given up with ibv_wr_abort and reported, and the queue pair
 * is left free for the next send. A batch left open would make the next
 * ibv_wr_start wait for ever (Soft-RoCE's provider holds a lock from
 * ibv_wr_start to ibv_wr_complete or ibv_wr_abort): the suite runs this
 * bounded in time.
 *
 * No connection is needed: the queue pair is created on a CM id bound to
 * the device's address, and stays in its first state, where the device
 * may take or refuse the send; either way ibv_wr_complete returns.
 *
 * usage: wr-abort ADDRESS   (exits 0 when the send was given up and the
 *                            next one came back from ibv_wr_complete)
 */
#include <arpa/inet.h>
#include <stdio.h>

#include "buffers.h"
#include "posting.h"
#include "report.h"

/* The queue pair of control's bound id, for sends of slot_size bytes. */
static int setup(struct our_control *control, const char *address,
		 uint32_t slot_size)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	const struct our_buffer_plan plan = {
		.send_slots = 1, .send_size = slot_size, .sends = 2,
	};

	if (inet_pton(AF_INET, address, &sin.sin_addr) != 1) {
		our_error("not an IPv4 address: %s", address);
		return -1;
	}
	if (our_verb_failed(rdma_create_id(NULL, &control->cm_id, NULL,
					   RDMA_PS_TCP), "rdma_create_id"))
		return -1;
	if (our_verb_failed(rdma_bind_addr(control->cm_id,
					   (struct sockaddr *)&sin),
			    "rdma_bind_addr %s", address))
		goto out_destroy_id;
	if (!control->cm_id->verbs) {
		our_error("no RDMA device at %s", address);
		goto out_destroy_id;
	}
	if (our_create_pd(control))
		goto out_destroy_id;
	if (our_setup_buffers(control, &plan))
		goto out_destroy_pd;
	control->recv_depth = 1;
	control->cq = ibv_create_cq(control->cm_id->verbs, 4, NULL, NULL, 0);
	if (our_verb_failed(!control->cq, "ibv_create_cq"))
		goto out_unsetup_buffers;
	if (our_create_qp(control))
		goto out_destroy_cq;
	return 0;

out_destroy_cq:
	ibv_destroy_cq(control->cq);
out_unsetup_buffers:
	our_unsetup_buffers(control);
out_destroy_pd:
	our_destroy_pd(control);
out_destroy_id:
	rdma_destroy_id(control->cm_id);
	return -1;
}

static void unsetup(struct our_control *control)
{
	our_destroy_qp(control);
	ibv_destroy_cq(control->cq);
	our_unsetup_buffers(control);
	our_destroy_pd(control);
	rdma_destroy_id(control->cm_id);
}

int main(int argc, char *argv[])
{
	struct our_control control = { 0 };
	int failed;

	our_program_name = "wr-abort";
	if (argc != 2) {
		fprintf(stderr, "usage: wr-abort ADDRESS\n");
		return 2;
	}
	if (setup(&control, argv[1], 64))
		return 1;
	/* Slot 1 of one: given up after ibv_wr_send, nothing posted. */
	failed = our_post_send(&control, &control.send, 1, 64) != -1;
	if (failed)
		our_error("a send from a slot that does not exist was posted");
	/* The next send starts a batch of its own and comes back. The
	 * queue pair is not connected, so the device may refuse it: that
	 * is reported above, and is not what this test is about. */
	our_post_send(&control, &control.send, 0, 64);
	printf("wr-abort: the next send came back from ibv_wr_complete\n");
	unsetup(&control);
	return failed;
}
