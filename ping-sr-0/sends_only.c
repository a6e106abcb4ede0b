// SPDX-License-Identifier: MIT
/*
 * sends_only.c - an exchange of sends and receives alone: every work
 * completion that fails is a send's or a receive's, which our_check_wc
 * (posting.c) explains itself.
 */
#include "exchange.h"

bool our_refused_by_peer(struct our_control *control,
			 const struct ibv_wc *wc)
{
	(void)control; /* no access to the peer's memory to be refused */
	(void)wc;
	return false;
}

bool our_explain_exchange_wc(const struct our_control *control,
			     const struct ibv_wc *wc)
{
	(void)control; /* no work requests of its own: nothing to add */
	(void)wc;
	return false;
}
