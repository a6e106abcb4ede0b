// SPDX-License-Identifier: MIT
/*
 * private_none.c - no connection private data: each side runs with its
 * own -c and -s. Nothing makes them agree; that is ping-sr-0's problem 1.
 */
#include "private_data.h"

/* The server takes the run's options itself: nothing tells it the
 * client's. */
static const struct our_option run_options[] = {
	OUR_COUNT_OPTION,
	OUR_SIZE_OPTION,
	OUR_VERIFY_OPTION,
	{ 0 },
};
const struct our_option *const our_server_options = run_options;

void our_fill_private_data(struct our_control *control,
			   struct rdma_conn_param *param)
{
	(void)control; /* the client says nothing */
	(void)param;
}

int our_refuse_request(struct our_control *control,
		       const struct rdma_cm_event *event)
{
	(void)control; /* our_init_control gave it our own options */
	(void)event;
	return 0;
}

void our_report_refusal(const struct rdma_cm_event *event)
{
	(void)event; /* the server says nothing either */
}
