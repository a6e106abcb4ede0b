/* SPDX-License-Identifier: MIT */
/*
 * posting.h - handing work requests to the queue pair.
 *
 * A work request id says which kind of transfer it was and which slot it
 * used, so a work completion can be matched to its buffer.
 */
#ifndef OUR_POSTING_H
#define OUR_POSTING_H

#include "control.h"

enum our_wr_kind {
	OUR_WR_SEND = 1,
	OUR_WR_RECV = 2,
};

uint64_t our_wr_id(enum our_wr_kind kind, uint32_t slot);
enum our_wr_kind our_wr_kind(uint64_t wr_id);
uint32_t our_wr_slot(uint64_t wr_id);

/* Post a receive into slot of control->recv. Returns 0 or -1 (reported). */
int our_post_recv(struct our_control *control, uint32_t slot);

/*
 * Post a signaled send of length bytes from slot of control->send.
 * Returns 0 or -1 (reported).
 */
int our_post_send(struct our_control *control, uint32_t slot,
		  uint32_t length);

/*
 * Post a receive with no buffer: it takes a message that carries only
 * immediate data and no bytes. slot only names it in the work request id.
 * Returns 0 or -1 (reported).
 */
int our_post_recv_empty(struct our_control *control, uint32_t slot);

/*
 * Post n signaled sends with immediate data, 1 to OUR_MAX_BUFFERS of
 * them, chained in one ibv_post_send: message i sends length bytes (none
 * when length is 0) from slot (first_slot + i) modulo the number of send
 * slots, with immediate data first_imm + i. Returns 0 or -1 (reported).
 */
int our_post_send_imm_run(struct our_control *control, uint32_t first_slot,
			  uint32_t n, uint32_t length, uint32_t first_imm);

/*
 * Trace a work completion and, when its status is not success, report it
 * with a hint where the kit can guess the cause. Returns 0 for success.
 */
int our_check_wc(const struct our_control *control, const struct ibv_wc *wc);

#endif
