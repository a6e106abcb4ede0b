// SPDX-License-Identifier: MIT
/*
 * no_reads.c - what an exchange that makes no RDMA reads (nor atomics)
 * asks of the adapters when it connects: nothing more than the
 * connection's defaults.
 */
#include "exchange.h"

int our_ask_resources(struct our_control *control,
		      struct rdma_conn_param *param)
{
	(void)control; /* no reads: no read resources */
	(void)param;
	return 0;
}
