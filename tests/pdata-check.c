// SPDX-License-Identifier: MIT
/*
 * pdata-check - a unit test of how an agent checks a connection
 * request's private data (ping-sr-1/private_data.c), built with the
 * undefined behaviour sanitizer: a request with no private data at all
 * (a NULL pointer and a length of 0, as an iWARP client that sends none
 * gives) is refused as too short, and never copied from: memcpy from
 * NULL is undefined even for 0 bytes. A good request is adopted.
 *
 * usage: pdata-check      (no device needed; prints what it found)
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "private_data.h"
#include "private_wire.h"
#include "report.h"

/* What the CM piece says: the stage of this test sees a hang-up. */
const bool our_cm_sees_hang_up = true;

/* The request is refused: the test sees it in the reason, not here. */
static int rejections;

void our_reject(struct our_control *control, const void *reason,
		uint8_t reason_len)
{
	(void)control;
	(void)reason;
	(void)reason_len;
	rejections++;
}

/* A request carrying length bytes of private data at data. */
static int request(struct our_control *control, const void *data,
		   uint8_t length)
{
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_CONNECT_REQUEST };

	event.param.conn.private_data = data;
	event.param.conn.private_data_len = length;
	return our_refuse_request(control, &event);
}

int main(void)
{
	struct our_private_data good = {
		.magic = htonl(OUR_PRIVATE_MAGIC),
		.version = OUR_PRIVATE_VERSION,
		.length = sizeof(good),
		.count = htonl(7),
		.size = htonl(100),
		.buffers = htonl(2),
	};
	struct our_control control = { 0 };
	int failed = 0;

	our_program_name = "pdata-check";
	snprintf(control.peer_name, sizeof(control.peer_name), "a client");
	if (request(&control, NULL, 0) != -1 || rejections != 1) {
		printf("pdata-check: a request with no private data was not "
		       "refused\n");
		failed++;
	}
	if (request(&control, &good, sizeof(good)) != 0 ||
	    control.count != 7 || control.size != 100 ||
	    control.buffers != 2 || rejections != 1) {
		printf("pdata-check: a good request was not adopted\n");
		failed++;
	}
	if (failed)
		return 1;
	printf("pdata-check: 2 checks passed\n");
	return 0;
}
