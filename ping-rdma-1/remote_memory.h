/* SPDX-License-Identifier: MIT */
/*
 * remote_memory.h - memory the peer reaches by RDMA: advertising ours,
 * taking the peer's, and writing into it.
 *
 * Introduced by ping-rdma-1; the later RDMA stages use it from here.
 */
#ifndef OUR_REMOTE_MEMORY_H
#define OUR_REMOTE_MEMORY_H

#include "control.h"

/*
 * Send the advertisement of control->remote (address, size and rkey)
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
 * control->peer_memory; it must open at least needed bytes. Returns 0,
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
