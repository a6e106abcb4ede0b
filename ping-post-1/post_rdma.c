// SPDX-License-Identifier: MIT
/*
 * post_rdma.c - posting with the helpers of <rdma/rdma_verbs.h>.
 *
 * rdma_post_recvv and rdma_post_sendv take the CM id and a list of
 * scatter-gather elements, fill in the work request themselves and post
 * it on the id's queue pair with ibv_post_recv or ibv_post_send. The
 * work request id is a pointer-sized "context". The other helpers work
 * the same way: rdma_post_recv and rdma_post_send take one buffer and
 * its memory region, rdma_post_write and rdma_post_read add the peer's
 * address and rkey.
 */
#include <errno.h>
#include <rdma/rdma_verbs.h>

#include "instruments.h"
#include "posting.h"
#include "report.h"

/*
 * The helpers put the provider's error number in errno as it came, and
 * some providers give it negative (Soft-RoCE's -ENOMEM): make it an
 * error number, for the message. Returns ret.
 */
static int positive_errno(int ret)
{
	if (ret && errno < 0)
		errno = -errno;
	return ret;
}

/* The context the helpers carry as the work request id. Our ids fit a
 * pointer on the 64-bit machines the kit is built for. */
static void *context_of(uint64_t wr_id)
{
	_Static_assert(sizeof(void *) >= sizeof(uint64_t),
		       "work request ids need 64-bit pointers");
	return (void *)(uintptr_t)wr_id;
}

int our_post_recvv(struct our_control *control, uint64_t wr_id,
		   struct ibv_sge *sges, uint32_t n)
{
	int ret;

	/* The adapter fills the pieces in order. */
	ret = positive_errno(rdma_post_recvv(control->cm_id, context_of(wr_id),
					     sges, (int)n));
	if (our_verb_failed(ret, "rdma_post_recvv slot %u, %u pieces",
			    OUR_WR_SLOT(wr_id), n))
		return -1;
	return 0;
}

int our_post_sendv(struct our_control *control, uint64_t wr_id,
		   struct ibv_sge *sges, uint32_t n)
{
	int ret;

	/* A signaled send: rdma_post_sendv sets only the flags we give. */
	ret = positive_errno(rdma_post_sendv(control->cm_id, context_of(wr_id),
					     sges, (int)n, IBV_SEND_SIGNALED));
	our_tally(control, "posting", "sends posted", 1);
	if (our_verb_failed(ret, "rdma_post_sendv slot %u, %u pieces",
			    OUR_WR_SLOT(wr_id), n))
		return -1;
	return 0;
}
