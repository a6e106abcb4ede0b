// SPDX-License-Identifier: MIT
/*
 * remote_memory.c - memory the peer reaches by RDMA: advertising ours,
 * taking the peer's, and writing into it.
 *
 * bug-rdma-address, a bug hunt: this is a copy of ping-rdma-1's
 * remote_memory.c with one mistake in it, built in place of the stage's
 * (see README.md).
 *
 * An RDMA write names the target's memory by its address in the target
 * and by an rkey, which the target's adapter gave when the memory was
 * registered for remote access. Neither travels by itself: each side
 * sends them in a first message, and checks what it gets as ping-sr-1's
 * agent checks private data, since a wrong address or key is found out
 * only when a write fails.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <inttypes.h>
#include <string.h>

#include "buffers.h"
#include "memory_wire.h"
#include "posting.h"
#include "remote_memory.h"
#include "report.h"

int our_advertise_memory(struct our_control *control, uint32_t slot)
{
	const struct our_buffers *remote = &control->remote;
	struct our_memory_ad ad = {
		.magic = htonl(OUR_MEMORY_MAGIC),
		.version = OUR_MEMORY_VERSION,
		.length = sizeof(ad),
		.addr = (uintptr_t)remote->data,
		.rkey = htonl(remote->mr->rkey),
		.size = htonl(remote->slots * remote->slot_size),
	};

	memcpy(our_slot(&control->send, slot), &ad, sizeof(ad));
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
	const char *data = our_slot(&control->recv, our_wr_slot(wc->wr_id));
	struct our_peer_memory *memory = &control->peer_memory;
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
	return 0;
}

int our_post_write(struct our_control *control,
		   const struct our_buffers *buffers, uint32_t slot,
		   uint32_t length, uint64_t offset)
{
	struct ibv_sge sge = our_sge(buffers, slot, length);
	struct ibv_send_wr wr = {
		.wr_id = our_wr_id(OUR_WR_WRITE, slot),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		/* Where the bytes go: the peer's memory, by its key. */
		.wr.rdma = {
			.remote_addr = control->peer_memory.addr + offset,
			.rkey = control->peer_memory.rkey,
		},
	};

	/* Our adapter puts the bytes in the peer's memory; the peer's
	 * CPU takes no part, and no receive of the peer's is used. */
	return our_post_wr(control, &wr);
}
