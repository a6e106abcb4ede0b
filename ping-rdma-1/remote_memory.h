/* SPDX-License-Identifier: MIT */
/*
 * remote_memory.h - memory the peer reaches by RDMA: registering and
 * advertising ours, taking the peer's, and writing into it.
 *
 * Introduced by ping-rdma-1; the later RDMA stages use it from here.
 * remote_memory.c also implements our_explain_exchange_wc of exchange.h for
 * every exchange that uses it: a remote access error, explained.
 */
#ifndef OUR_REMOTE_MEMORY_H
#define OUR_REMOTE_MEMORY_H

#include "control.h"
#include "posting.h"

/* The work requests of the one-sided exchanges. */
enum {
	OUR_WR_WRITE = OUR_WR_OTHER, /* RDMA write */
	OUR_WR_READ,                 /* RDMA read */
	OUR_WR_ATOMIC,               /* fetch-and-add or compare-and-swap */
};

/* Memory the peer advertised for RDMA. */
struct our_peer_memory {
	uint64_t addr;   /* the address of its first byte, in the peer */
	uint32_t rkey;   /* the key that lets our adapter reach it */
	uint32_t length; /* how many bytes we may reach */
};

/* What a one-sided exchange keeps: control->exchange. */
struct our_exchange {
	struct our_buffers mine;     /* ours, which the peer reaches */
	struct our_peer_memory peer; /* the peer's, which we reach */
};

/*
 * Set up control->exchange: room for the memory the peer will advertise,
 * and slots of slot_size bytes of ours that the peer may reach with
 * access (IBV_ACCESS_REMOTE_*), allocated and registered (none for 0
 * slots). Returns 0, or -1 (reported) with nothing left. Undo with
 * our_unsetup_remote().
 */
int our_setup_remote(struct our_control *control, uint32_t slots,
		     uint32_t slot_size, unsigned int access);
void our_unsetup_remote(struct our_control *control);

/*
 * Send the advertisement of our remote memory (address, size and rkey)
 * from slot of control->send. Returns 0, or -1 (reported).
 */
int our_advertise_memory(struct our_control *control, uint32_t slot);

/*
 * Check length bytes of an advertisement received from the peer: ours,
 * of at least needed bytes. Returns NULL and fills memory when it will
 * do, or says in words why not.
 */
const char *our_check_memory_ad(const void *data, uint32_t length,
				uint32_t needed,
				struct our_peer_memory *memory);

/*
 * Take the peer's advertisement from a receive's work completion, into
 * control->exchange->peer; it must open at least needed bytes. Returns 0,
 * or -1 (reported).
 */
int our_take_memory_ad(struct our_control *control, const struct ibv_wc *wc,
		       uint32_t needed);

/*
 * Post a signaled RDMA write of length bytes from slot of buffers into
 * the peer's advertised memory, offset bytes in. Returns 0, or -1
 * (reported).
 */
int our_post_write(struct our_control *control,
		   const struct our_buffers *buffers, uint32_t slot,
		   uint32_t length, uint64_t offset);

#endif
