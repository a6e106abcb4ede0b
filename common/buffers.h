/* SPDX-License-Identifier: MIT */
/*
 * buffers.h - the protection domain, the memory registered in it, and
 * the data that fills it.
 */
#ifndef OUR_BUFFERS_H
#define OUR_BUFFERS_H

#include <stdbool.h>
#include "control.h"

/*
 * The memory the exchange sends from and receives into, and how many
 * work requests it keeps in flight (see exchange.h): the queues are made
 * that deep.
 */
struct our_buffer_plan {
	uint32_t send_slots;
	uint32_t send_size; /* bytes per send slot */
	uint32_t recv_slots; /* a receive may be posted in each */
	uint32_t recv_size; /* bytes per receive slot */
	uint32_t sends;     /* work requests on the send queue at most */
	unsigned int send_access; /* 0, unless a reply lands in a send slot */
};

/*
 * Allocate the protection domain of control->cm_id's device: our memory
 * and queue pair must be in it. Returns 0, or -1 (reported). Undo with
 * our_destroy_pd().
 */
int our_create_pd(struct our_control *control);
void our_destroy_pd(struct our_control *control);

/*
 * Allocate and register control->send and control->recv as plan says
 * (none where it says 0 slots), with local access only: send/recv needs
 * nothing remote. Sets the queues' depths. Returns 0, or -1 (reported)
 * with nothing left registered. Undo with our_unsetup_buffers().
 */
int our_setup_buffers(struct our_control *control,
		      const struct our_buffer_plan *plan);
void our_unsetup_buffers(struct our_control *control);

/*
 * Allocate slots of slot_size bytes, zeroed, and register them with
 * access into buffers. Returns 0 (slots 0: nothing done), or -1
 * (reported) with nothing left. Undo with our_deregister_buffers().
 */
int our_register_buffers(struct our_control *control,
			 struct our_buffers *buffers, uint32_t slots,
			 uint32_t slot_size, unsigned int access,
			 const char *what);
void our_deregister_buffers(struct our_buffers *buffers, const char *what);

/* Once ibv_reg_mr failed and was reported: say what its errno means. */
void our_explain_reg_mr_failure(void);

/* The start of slot i. */
char *our_slot(const struct our_buffers *buffers, uint32_t i);

/* Fill size bytes with the pattern of message number sequence. */
void our_fill_data(char *data, uint32_t size, uint64_t sequence);

/*
 * Check size bytes against the pattern of message number sequence.
 * Reports the first byte that differs and returns false on a mismatch.
 */
bool our_verify_data(const char *data, uint32_t size, uint64_t sequence);

/*
 * A ping-pong's client: true when pong, control->size bytes, holds what
 * ping number held, or when -v was not asked for; otherwise says which
 * pong differs.
 */
bool our_pong_verified(const struct our_control *control, const char *pong,
		       uint32_t number);

#endif
