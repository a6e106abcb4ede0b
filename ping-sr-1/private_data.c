// SPDX-License-Identifier: MIT
/*
 * private_data.c - the client sends its count, size, buffers and -v as
 * connection private data; the agent checks them and adopts them, or
 * rejects the connection saying why. So the two sides always agree: a
 * server's own -c, -s, -b and -v are not used.
 *
 * Private data is small (56 bytes from rdma_connect on InfiniBand) and the
 * receiver may see the whole area, padded with zeros, whatever length was
 * sent: so the message carries its own magic, version and length.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <string.h>

#include "cm_events.h"
#include "connection.h"
#include "private_data.h"
#include "private_wire.h"
#include "report.h"

/* The client's private data sets the agent's run. */
const bool our_client_sets_run = true;

static_assert(sizeof(struct our_private_data) <= 56,
	      "private data must fit what rdma_connect carries on InfiniBand");

/* Each reason for a rejection, in words. */
static const char *const reasons[] = {
	[OUR_REFUSED_SHORT] = "its private data is too short",
	[OUR_REFUSED_MAGIC] = "its private data does not start with the kit's "
			      "magic",
	[OUR_REFUSED_VERSION] = "its private data has a version we do not know",
	[OUR_REFUSED_COUNT] = "the count is out of range",
	[OUR_REFUSED_SIZE] = "the size is out of range",
	[OUR_REFUSED_BUFFERS] = "the buffer count is out of range",
	[OUR_REFUSED_FLAGS] = "its private data has flags we do not know",
	[OUR_REFUSED_UNTIMED] = "this server cannot see a client hang up, so a "
				"run needs a count",
};

/* A reason for a rejection, in words; a newer server may send others. */
static const char *reason_text(uint8_t reason)
{
	if (reason < sizeof(reasons) / sizeof(reasons[0]) && reasons[reason])
		return reasons[reason];
	return "a reason we do not know";
}

void our_fill_private_data(struct our_control *control,
			   struct rdma_conn_param *param)
{
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

/* Check what the client sent; 0 when acceptable, or a refusal reason. */
static uint8_t check_private_data(const struct our_control *control,
				  struct our_private_data *data)
{
	if (control->peer_data_len < sizeof(*data))
		return OUR_REFUSED_SHORT;
	memcpy(data, control->peer_data, sizeof(*data));
	if (ntohl(data->magic) != OUR_PRIVATE_MAGIC)
		return OUR_REFUSED_MAGIC;
	if (data->version != OUR_PRIVATE_VERSION)
		return OUR_REFUSED_VERSION;
	if (data->length < sizeof(*data))
		return OUR_REFUSED_SHORT;
	data->flags = ntohs(data->flags);
	data->count = ntohl(data->count);
	data->size = ntohl(data->size);
	data->buffers = ntohl(data->buffers);
	if (data->flags & ~OUR_PRIVATE_FLAGS)
		return OUR_REFUSED_FLAGS;
	if (data->count > OUR_MAX_COUNT)
		return OUR_REFUSED_COUNT;
	/* No count: the run ends when the client hangs up. */
	if (data->count == 0 && !our_cm_sees_hang_up)
		return OUR_REFUSED_UNTIMED;
	if (data->size < 1 || data->size > OUR_MAX_SIZE)
		return OUR_REFUSED_SIZE;
	if (data->buffers < 1 || data->buffers > OUR_MAX_BUFFERS)
		return OUR_REFUSED_BUFFERS;
	return 0;
}

int our_adopt_private_data(struct our_control *control)
{
	struct our_private_data data;
	struct our_refusal refusal = { .magic = htonl(OUR_PRIVATE_MAGIC) };

	refusal.reason = check_private_data(control, &data);
	if (refusal.reason) {
		our_error("refusing %s: %s", control->peer_name,
			  reason_text(refusal.reason));
		our_reject(control, &refusal, sizeof(refusal));
		return -1;
	}
	/* Checked against our limits before anything is allocated. */
	control->count = data.count;
	control->size = data.size;
	control->buffers = data.buffers;
	control->verify = data.flags & OUR_PRIVATE_VERIFY;
	our_trace(1, "adopting the client's count %u, size %u, buffers %u, "
		     "verify %s",
		  data.count, data.size, data.buffers,
		  control->verify ? "yes" : "no");
	return 0;
}

void our_explain_rejection(const struct our_control *control)
{
	struct our_refusal refusal;

	if (control->peer_data_len < sizeof(refusal))
		return;
	memcpy(&refusal, control->peer_data, sizeof(refusal));
	if (ntohl(refusal.magic) != OUR_PRIVATE_MAGIC)
		return;
	our_error("the server refused us: %s", reason_text(refusal.reason));
}
