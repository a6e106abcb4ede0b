// SPDX-License-Identifier: MIT
/*
 * wr-stubs.c - what common/posting.c asks of an exchange, for wr-abort,
 * which runs none: no work completion fails there.
 */
#include "exchange.h"

bool our_explain_exchange_wc(const struct our_control *control,
			   const struct ibv_wc *wc)
{
	(void)control;
	(void)wc;
	return false;
}

bool our_refused_by_peer(struct our_control *control,
			 const struct ibv_wc *wc)
{
	(void)control;
	(void)wc;
	return false;
}
