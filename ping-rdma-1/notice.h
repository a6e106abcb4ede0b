/* SPDX-License-Identifier: MIT */
/*
 * notice.h - telling the peer about a one-sided transfer.
 *
 * An RDMA write or read does not tell the peer's CPU anything. Where
 * the peer must know (a ping has landed, a pong is ready to be read),
 * a small send follows: the notice, which carries the transfer's number.
 *
 * Introduced by ping-rdma-1; the later RDMA stages use it from here.
 */
#ifndef OUR_NOTICE_H
#define OUR_NOTICE_H

#include <stdbool.h>

#include "control.h"

/*
 * Send a notice for transfer number from slot of control->send. Returns
 * 0, or -1 (reported).
 */
int our_post_notice(struct our_control *control, uint32_t slot,
		    uint32_t number);

/*
 * Post a receive in each slot of control->recv: for the notices that
 * may come several at once. Returns 0, or
 * -1 (reported).
 */
int our_post_receives(struct our_control *control);

/*
 * A message arrived (its work completion is wc): when it is a notice,
 * put its number in *number and return 0; otherwise report what it was,
 * and return -1.
 */
int our_take_notice(const struct our_control *control,
		    const struct ibv_wc *wc, uint32_t *number);

/*
 * A message arrived (its work completion is wc): true when it is the
 * notice for transfer number; otherwise reports what it was, and false.
 */
bool our_expected_notice(const struct our_control *control,
			 const struct ibv_wc *wc, uint32_t number);

#endif
