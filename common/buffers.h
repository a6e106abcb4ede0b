/* SPDX-License-Identifier: MIT */
/*
 * buffers.h - registered memory, and the data that fills it.
 */
#ifndef OUR_BUFFERS_H
#define OUR_BUFFERS_H

#include <stdbool.h>
#include "control.h"

/* The memory one side registers: slots to send from, slots to receive
 * into (see our_client_buffers and our_agent_buffers in exchange.h), and
 * for the RDMA stages, slots the peer reaches by RDMA. */
struct our_buffer_plan {
	uint32_t send_slots;
	uint32_t send_size; /* bytes per send slot */
	uint32_t recv_slots;
	uint32_t recv_size; /* bytes per receive slot */
	uint32_t remote_slots;
	uint32_t remote_size;   /* bytes per remote slot */
	unsigned int remote_access; /* IBV_ACCESS_REMOTE_* the peer needs */
	/* Where the remote slots are when they are not ours alone: memory
	 * the agents of a server for many share (atomic-1's counter), which
	 * is registered here but neither allocated nor freed. NULL: the
	 * slots are allocated. */
	void *remote_memory;
	/* Small headers sent and received beside each message's payload,
	 * each in a scatter-gather element of its own (ping-sg-1 on). */
	uint32_t head_slots;
	uint32_t head_size; /* bytes per header slot */
};

/*
 * Allocate and register control->send, control->recv, control->remote and
 * control->heads as plan says (none where it says 0 slots). Send, receive
 * and header slots get local access only: send/recv needs nothing remote.
 * Remote slots get exactly plan.remote_access besides (in
 * plan.remote_memory, where it says). Returns 0, or -1 (reported) with
 * nothing left registered. Undo with our_unsetup_buffers().
 */
int our_setup_buffers(struct our_control *control, struct our_buffer_plan plan);
void our_unsetup_buffers(struct our_control *control);

/* The start of slot i. */
char *our_slot(const struct our_buffers *buffers, uint32_t i);

/* Fill size bytes with the pattern of message number sequence. */
void our_fill_data(char *data, uint32_t size, uint64_t sequence);

/*
 * Check size bytes against the pattern of message number sequence.
 * Reports the first byte that differs and returns false on a mismatch.
 */
bool our_verify_data(const char *data, uint32_t size, uint64_t sequence);

#endif
