// SPDX-License-Identifier: MIT
/*
 * private_none.c - no connection private data: each side runs with its
 * own -c and -s. Nothing makes them agree; that is ping-sr-0's problem 1.
 */
#include "private_data.h"

/* The server runs with its own options. */
const bool our_client_sets_run = false;

void our_fill_private_data(struct our_control *control,
			   struct rdma_conn_param *param)
{
	(void)control;
	param->private_data = NULL;
	param->private_data_len = 0;
}

int our_adopt_private_data(struct our_control *control)
{
	(void)control; /* our_init_control gave it our own options */
	return 0;
}

void our_explain_rejection(const struct our_control *control)
{
	(void)control;
}
