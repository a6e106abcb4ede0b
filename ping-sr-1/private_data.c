// SPDX-License-Identifier: MIT
/*
 * private_data.c - the client sends its count, size, buffers and -v as
 * connection private data; the agent checks them and adopts them, or
 * rejects the connection saying why. So the two sides always agree: a
 * server takes no -c, -s, -b or -v of its own.
 *
 * Private data is small (56 bytes from rdma_connect on InfiniBand) and the
 * receiver may see the whole area, padded with zeros, whatever length was
 * sent: so the message carries its own magic, version and length.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "cm_events.h"
#include "connection.h"
#include "instruments.h"
#include "private_data.h"
#include "private_wire.h"
#include "report.h"

static_assert(sizeof(struct our_private_data) <= 56,
	      "private data must fit what rdma_connect carries on InfiniBand");

/* The client sets the run when it connects: the server takes none of
 * its options. */
const struct our_option *const our_server_options = NULL;

void our_fill_private_data(struct our_control *control,
			   struct rdma_conn_param *param)
{
	/* It must outlive this function: our caller's rdma_connect copies
	 * it from here. */
	static struct our_private_data data;

	data = (struct our_private_data){
		.magic = htonl(OUR_PRIVATE_MAGIC),
		.version = OUR_PRIVATE_VERSION,
		.length = sizeof(data),
		.flags = htons(control->verify ? OUR_PRIVATE_VERIFY : 0),
		.count = htonl(control->count),
		.size = htonl(control->size),
		.buffers = htonl(control->buffers),
	};
	param->private_data = &data;
	param->private_data_len = sizeof(data);
	our_trace(1, "private data: count %u, size %u, buffers %u, verify %s",
		  control->count, control->size, control->buffers,
		  control->verify ? "yes" : "no");
}

/* Check what the client sent, length bytes at sent, into *data: NULL
 * when acceptable, or why not. */
static const char *check_private_data(const void *sent, uint8_t length,
				      struct our_private_data *data)
{
	/* No private data at all: a client of another stage. */
	if (!sent || length < sizeof(*data))
		return "its private data is too short";
	memcpy(data, sent, sizeof(*data));
	if (ntohl(data->magic) != OUR_PRIVATE_MAGIC ||
	    data->version != OUR_PRIVATE_VERSION)
		return "its private data is not ours, or of another version";
	/* The CM pads what a client sends on InfiniBand and RoCE: the
	 * client's own length says how much it meant. */
	if (data->length < sizeof(*data))
		return "its private data is too short";
	data->flags = ntohs(data->flags);
	data->count = ntohl(data->count);
	data->size = ntohl(data->size);
	data->buffers = ntohl(data->buffers);
	if (data->flags & ~OUR_PRIVATE_FLAGS)
		return "its private data has flags we do not know";
	if (data->count > OUR_MAX_COUNT)
		return "the count is out of range";
	/* No count: the run ends when the client hangs up. */
	if (data->count == 0 && !our_cm_sees_hang_up)
		return "this server cannot see a hang-up: a run needs a count";
	if (data->size < 1 || data->size > OUR_MAX_SIZE)
		return "the size is out of range";
	if (data->buffers < 1 || data->buffers > OUR_MAX_BUFFERS)
		return "the buffer count is out of range";
	return NULL;
}

int our_refuse_request(struct our_control *control,
		       const struct rdma_cm_event *event)
{
	/* excerpt refuse */
	struct our_private_data data;
	struct our_refusal refusal = { .magic = htonl(OUR_PRIVATE_MAGIC) };
	const char *why;

	why = check_private_data(event->param.conn.private_data,
				 event->param.conn.private_data_len, &data);
	if (why) {
		our_error("refusing %s: %s", control->peer_name, why);
		/* The reason goes back with the rejection. */
		snprintf(refusal.reason, sizeof(refusal.reason), "%s", why);
		our_reject(control, &refusal, sizeof(refusal));
		return -1;
	}
	/* end excerpt refuse */
	/* excerpt adopt */
	/* Checked against our limits before anything is allocated. */
	control->count = data.count;
	control->size = data.size;
	control->buffers = data.buffers;
	control->verify = data.flags & OUR_PRIVATE_VERIFY;
	our_trace(1, "adopting the client's count %u, size %u, buffers %u, "
		     "verify %s",
		  data.count, data.size, data.buffers,
		  control->verify ? "yes" : "no");
	/* end excerpt adopt */
	return 0;
}

void our_report_refusal(const struct rdma_cm_event *event)
{
	const void *sent;
	struct our_refusal refusal;

	if (!event || event->event != RDMA_CM_EVENT_REJECTED)
		return;
	sent = event->param.conn.private_data;
	if (!sent || event->param.conn.private_data_len < sizeof(refusal))
		return;
	memcpy(&refusal, sent, sizeof(refusal));
	if (ntohl(refusal.magic) != OUR_PRIVATE_MAGIC)
		return;
	/* A zero byte ends it, whatever the server sent. */
	refusal.reason[sizeof(refusal.reason) - 1] = '\0';
	our_error("the server refused us: %s", refusal.reason);
}
