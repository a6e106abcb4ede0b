// SPDX-License-Identifier: MIT
/*
 * rnr_retry.c - what this exercise's programs ask of the connection
 * beyond the kit's parameters (common/connection.c), on both sides: the
 * client's rdma_connect and the server's rdma_accept take the same.
 * Yours to write: see README.md.
 */
#include "exchange.h"

int our_ask_resources(struct our_control *control,
		      struct rdma_conn_param *param)
{
	(void)control;
	(void)param;
	/* TODO: a message that finds no receive posted is refused with a
	 * receiver-not-ready NAK. Let the sender's adapter try it again
	 * for a few seconds, not at once and not for ever. */
	return 0;
}
