// SPDX-License-Identifier: MIT
/*
 * buffers.c - registered memory, and the data that fills it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "buffers.h"
#include "report.h"

/*
 * Allocate slots * slot_size bytes (or take shared, memory the agents
 * of a server share) and register them with local write access and the
 * remote access given (0 for send/recv, which needs nothing remote).
 * Returns 0, or -1 with nothing left.
 */
static int register_buffers(struct our_control *control,
			    struct our_buffers *buffers, uint32_t slots,
			    uint32_t slot_size, unsigned int remote_access,
			    void *shared, const char *what)
{
	size_t length = (size_t)slots * slot_size;

	if (length == 0)
		return 0; /* this side needs none */
	buffers->shared = shared != NULL;
	/* Zeroed, because the adapter's writes into it happen outside the
	 * CPU: valgrind cannot see them and would call the bytes we receive
	 * uninitialised if they had never been written by us. */
	buffers->data = shared ? shared : calloc(1, length);
	if (!buffers->data) {
		our_error("cannot allocate %zu bytes for the %s buffers",
			  length, what);
		return -1;
	}
	buffers->slot_size = slot_size;
	buffers->slots = slots;

	/* excerpt register */
	/* The adapter pins the pages and gives us a key to name them by. */
	buffers->mr = ibv_reg_mr(control->pd, buffers->data, length,
				 IBV_ACCESS_LOCAL_WRITE | remote_access);
	if (our_verb_null(buffers->mr, "ibv_reg_mr %s %zu bytes", what,
			  length)) {
		if (errno == ENOMEM)
			our_error("hint: pinned memory is limited by "
				  "'ulimit -l'; raise it (e.g. unlimited)");
		goto out_free;
	/* end excerpt register */
	}
	if (remote_access)
		our_trace(1, "%s buffers: %zu bytes at 0x%" PRIxPTR ", rkey 0x%x",
			  what, length, (uintptr_t)buffers->data,
			  buffers->mr->rkey);
	else
		our_trace(2, "%s buffers: lkey 0x%x", what, buffers->mr->lkey);
	return 0;

out_free:
	if (!buffers->shared)
		free(buffers->data);
	*buffers = (struct our_buffers){ 0 };
	return -1;
}

static void deregister_buffers(struct our_buffers *buffers, const char *what)
{
	int ret;

	if (!buffers->mr)
		return;
	ret = ibv_dereg_mr(buffers->mr);
	our_verb_error(ret, "ibv_dereg_mr %s", what);
	if (!buffers->shared)
		free(buffers->data);
	*buffers = (struct our_buffers){ 0 };
}

int our_setup_buffers(struct our_control *control, struct our_buffer_plan plan)
{
	if (register_buffers(control, &control->send, plan.send_slots,
			     plan.send_size, 0, NULL, "send"))
		return -1;
	if (register_buffers(control, &control->recv, plan.recv_slots,
			     plan.recv_size, 0, NULL, "receive"))
		goto out_deregister_send;
	if (register_buffers(control, &control->remote, plan.remote_slots,
			     plan.remote_size, plan.remote_access,
			     plan.remote_memory, "remote"))
		goto out_deregister_recv;
	if (register_buffers(control, &control->heads, plan.head_slots,
			     plan.head_size, 0, NULL, "header"))
		goto out_deregister_remote;
	return 0;

out_deregister_remote:
	deregister_buffers(&control->remote, "remote");
out_deregister_recv:
	deregister_buffers(&control->recv, "receive");
out_deregister_send:
	deregister_buffers(&control->send, "send");
	return -1;
}

void our_unsetup_buffers(struct our_control *control)
{
	deregister_buffers(&control->heads, "header");
	deregister_buffers(&control->remote, "remote");
	deregister_buffers(&control->recv, "receive");
	deregister_buffers(&control->send, "send");
}

char *our_slot(const struct our_buffers *buffers, uint32_t i)
{
	return buffers->data + (size_t)i * buffers->slot_size;
}

/* The byte at offset i of message number sequence. */
static char pattern(uint64_t sequence, uint32_t i)
{
	return (char)((sequence * 31 + i) & 0xff);
}

void our_fill_data(char *data, uint32_t size, uint64_t sequence)
{
	for (uint32_t i = 0; i < size; i++)
		data[i] = pattern(sequence, i);
}

bool our_verify_data(const char *data, uint32_t size, uint64_t sequence)
{
	for (uint32_t i = 0; i < size; i++) {
		if (data[i] != pattern(sequence, i)) {
			our_error("message %" PRIu64 " is corrupt at byte %u: "
				  "0x%02x, expected 0x%02x",
				  sequence, i, (unsigned char)data[i],
				  (unsigned char)pattern(sequence, i));
			return false;
		}
	}
	return true;
}
