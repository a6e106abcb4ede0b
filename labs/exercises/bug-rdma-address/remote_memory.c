// SPDX-License-Identifier: MIT
/*
 * remote_memory.c - memory the peer reaches by RDMA: registering and
 * advertising ours, taking the peer's, and writing into it.
 *
 * An RDMA write names the target's memory by its address in the target
 * and by an rkey, which the target's adapter gave when the memory was
 * registered for remote access. Neither travels by itself: each side
 * sends them in a first message, and checks what it gets as the private
 * data of a connection request is checked, since a wrong address or key
 * is found out only when a write fails.
 *
 * bug-rdma-address, a bug hunt: ping-rdma-1's memory piece, with one
 * mistake in it (see README.md).
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "cm_events.h"
#include "exchange.h"
#include "instruments.h"
#include "memory_wire.h"
#include "remote_memory.h"
#include "report.h"

int our_setup_remote(struct our_control *control, uint32_t slots,
		     uint32_t slot_size, unsigned int access)
{
	struct our_exchange *exchange = calloc(1, sizeof(*exchange));

	if (!exchange) {
		our_error("no memory for the exchange");
		return -1;
	}
	/* Local write too: an adapter needs it to let a peer write. */
	if (our_register_buffers(control, &exchange->mine, slots, slot_size,
				 IBV_ACCESS_LOCAL_WRITE | access,
				 "peer-access")) {
		free(exchange);
		return -1;
	}
	control->exchange = exchange;
	return 0;
}

void our_unsetup_remote(struct our_control *control)
{
	if (!control->exchange)
		return;
	our_deregister_buffers(&control->exchange->mine, "peer-access");
	free(control->exchange);
	control->exchange = NULL;
}

int our_advertise_memory(struct our_control *control, uint32_t slot)
{
	const struct our_buffers *mine = &control->exchange->mine;
	struct our_memory_ad ad = {
		.magic = htonl(OUR_MEMORY_MAGIC),
		.version = OUR_MEMORY_VERSION,
		.length = sizeof(ad),
		.addr = (uintptr_t)mine->data,
		.rkey = htonl(mine->mr->rkey),
		.size = htonl(mine->slots * mine->slot_size),
	};

	our_trace(1, "advertising %u bytes at 0x%" PRIxPTR ", rkey 0x%x",
		  mine->slots * mine->slot_size, (uintptr_t)mine->data,
		  mine->mr->rkey);
	memcpy(our_slot(&control->send, slot), &ad, sizeof(ad));
	/* What came before it answered no transfer (our_count_done). */
	control->answered = false;
	return our_post_send(control, &control->send, slot, sizeof(ad));
}

const char *our_check_memory_ad(const void *data, uint32_t length,
				uint32_t needed,
				struct our_peer_memory *memory)
{
	struct our_memory_ad ad;

	if (length < sizeof(ad))
		return "it is too short";
	memcpy(&ad, data, sizeof(ad));
	if (ntohl(ad.magic) != OUR_MEMORY_MAGIC)
		return "it does not start with the kit's magic";
	if (ad.version != OUR_MEMORY_VERSION)
		return "it has a version we do not know";
	if (ad.length < sizeof(ad))
		return "it is too short";
	if (ntohl(ad.size) < needed)
		return "it opens fewer bytes than a transfer needs";
	*memory = (struct our_peer_memory){
		.addr = be64toh(ad.addr),
		.rkey = ntohl(ad.rkey),
		.length = ntohl(ad.size),
	};
	return NULL;
}

int our_take_memory_ad(struct our_control *control, const struct ibv_wc *wc,
		       uint32_t needed)
{
	const char *data = our_slot(&control->recv, OUR_WR_SLOT(wc->wr_id));
	struct our_peer_memory *memory = &control->exchange->peer;
	const char *why;

	why = our_check_memory_ad(data, wc->byte_len, needed, memory);
	if (why) {
		our_error("%s advertised memory we cannot use: %s",
			  control->peer_name, why);
		return -1;
	}
	our_trace(1, "%s's memory: %" PRIu32 " bytes at 0x%" PRIx64
		     ", rkey 0x%" PRIx32,
		  control->peer_name, memory->length, memory->addr,
		  memory->rkey);
	/* The advertisement answers no transfer of the run. */
	control->answered = false;
	return 0;
}

/* excerpt write */
int our_post_write(struct our_control *control,
		   const struct our_buffers *buffers, uint32_t slot,
		   uint32_t length, uint64_t offset)
{
	struct ibv_sge sge = our_sge(buffers, slot, length);
	struct ibv_send_wr wr = {
		.wr_id = OUR_WR_ID(OUR_WR_WRITE, slot),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		/* Where the bytes go: the peer's memory, by its key. */
		.wr.rdma = {
			.remote_addr = control->exchange->peer.addr + offset,
			.rkey = control->exchange->peer.rkey,
		},
	};

	/* Our adapter puts the bytes in the peer's memory; the peer's
	 * CPU takes no part, and no receive of the peer's is used. */
	return our_post_wr(control, &wr, "RDMA write");
}
/* end excerpt write */

/* A peer that refused our access is there: it ends its run only after
 * our_check_wc's longer wait. One that dies may refuse us too, but then
 * its disconnect follows at once. */
#define OUR_REFUSED_WAIT_MS 500

bool our_refused_by_peer(struct our_control *control,
			 const struct ibv_wc *wc)
{
	return wc->status == IBV_WC_REM_ACCESS_ERR &&
	       !our_connection_lost(control, OUR_REFUSED_WAIT_MS);
}

bool our_explain_exchange_wc(const struct our_control *control,
			   const struct ibv_wc *wc)
{
	static const char *const names[] = {
		[OUR_WR_WRITE] = "RDMA write",
		[OUR_WR_READ] = "RDMA read",
		[OUR_WR_ATOMIC] = "atomic",
	};
	uint32_t kind = OUR_WR_KIND(wc->wr_id);

	if (kind < OUR_WR_WRITE || kind > OUR_WR_ATOMIC ||
	    wc->status != IBV_WC_REM_ACCESS_ERR)
		return false;
	/* The peer's adapter refused to let us reach its memory. */
	our_error("%s refused our %s: the rkey or address it advertised is "
		  "wrong, or its memory is not registered for this remote "
		  "access",
		  control->peer_name, names[kind]);
	return true;
}
