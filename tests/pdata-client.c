// SPDX-License-Identifier: MIT
/*
 * pdata-client.c - a test client that connects with private data of its
 * choosing, good or bad, to check that a server refuses what it must.
 *
 * usage: pdata-client ADDRESS PORT CASE
 *   CASE: good, short, garbled, magic, version, length, count, untimed,
 *         flags, size, oversize, buffers
 * Exits 0 when the server accepted, 3 when it did not (the reason it
 * gave is printed by the kit's explanation), 1 on any other failure.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "cm_events.h"
#include "completions.h"
#include "connection.h"
#include "posting.h"
#include "private_data.h"
#include "private_wire.h"
#include "report.h"

/* Fill data for test case name; returns the length to send, or -1. */
static int make_case(const char *name, unsigned char *data)
{
	struct our_private_data good = {
		.magic = htonl(OUR_PRIVATE_MAGIC),
		.version = OUR_PRIVATE_VERSION,
		.length = sizeof(good),
		.count = htonl(1),
		.size = htonl(64),
		.buffers = htonl(1),
	};
	int length = sizeof(good);

	if (strcmp(name, "short") == 0) {
		length = 5; /* magic and version, nothing more */
	} else if (strcmp(name, "garbled") == 0) {
		for (int i = 0; i < length; i++)
			data[i] = (unsigned char)(0x5a ^ (i * 37));
		return length;
	} else if (strcmp(name, "magic") == 0) {
		good.magic = htonl(0xdeadbeef);
	} else if (strcmp(name, "version") == 0) {
		good.version = 99;
	} else if (strcmp(name, "length") == 0) {
		good.length = 8;
	} else if (strcmp(name, "count") == 0) {
		good.count = htonl(OUR_MAX_COUNT + 1);
	} else if (strcmp(name, "untimed") == 0) {
		good.count = 0; /* until the client hangs up */
	} else if (strcmp(name, "flags") == 0) {
		good.flags = htons(0x8000);
	} else if (strcmp(name, "size") == 0) {
		good.size = 0;
	} else if (strcmp(name, "oversize") == 0) {
		good.size = htonl(OUR_MAX_SIZE + 1);
	} else if (strcmp(name, "buffers") == 0) {
		good.buffers = htonl(OUR_MAX_BUFFERS + 1);
	} else if (strcmp(name, "good") != 0) {
		return -1;
	}
	memcpy(data, &good, sizeof(good));
	return length;
}

int main(int argc, char *argv[])
{
	struct our_options options = { .count = 1, .size = 64, .buffers = 1 };
	struct rdma_conn_param param = { .retry_count = 7 };
	unsigned char data[sizeof(struct our_private_data)] = { 0 };
	struct our_control control;
	int status = 1;
	int length;
	int ret;

	our_program_name = "pdata-client";
	if (argc != 4 || (length = make_case(argv[3], data)) < 0) {
		fprintf(stderr, "usage: pdata-client ADDRESS PORT CASE\n");
		return 2;
	}
	options.address = argv[1];
	options.port = (uint32_t)atoi(argv[2]);
	our_init_control(&control, &options);
	/* A queue pair to connect, as a client of the stages has. */
	control.send_depth = 1;
	control.recv_depth = 1;
	if (our_resolve_server(&control, &options))
		return 1;
	if (our_create_pd(&control))
		goto out_destroy_id;
	if (our_create_cq(&control))
		goto out_destroy_pd;
	if (our_create_qp(&control))
		goto out_destroy_cq;

	param.private_data = data;
	param.private_data_len = (uint8_t)length;
	ret = rdma_connect(control.cm_id, &param);
	status = 3;
	if (our_await_cm_event(&control, ret, RDMA_CM_EVENT_ESTABLISHED,
			       "rdma_connect") == 0 &&
	    our_watch_connection(&control) == 0) {
		printf("pdata-client: accepted\n");
		status = 0;
		our_disconnect(&control);
	}
	our_destroy_qp(&control);
out_destroy_cq:
	our_destroy_cq(&control);
out_destroy_pd:
	our_destroy_pd(&control);
out_destroy_id:
	our_destroy_id(&control.cm_id);
	return status;
}
