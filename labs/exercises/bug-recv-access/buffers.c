// SPDX-License-Identifier: MIT
/*
 * buffers.c - the protection domain, the memory registered in it, and the
 * data that fills it.
 *
 * bug-recv-access, a bug hunt: the buffers piece every program shares,
 * with one mistake in it (see README.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "buffers.h"
#include "instruments.h"
#include "report.h"

int our_create_pd(struct our_control *control)
{
	/* The adapter gives us a domain: only objects in it work together. */
	control->pd = ibv_alloc_pd(control->cm_id->verbs);
	if (our_verb_failed(!control->pd, "ibv_alloc_pd %s",
			  ibv_get_device_name(control->cm_id->verbs->device)))
		return -1;
	return 0;
}

void our_destroy_pd(struct our_control *control)
{
	int ret = ibv_dealloc_pd(control->pd);

	our_verb_error(ret, "ibv_dealloc_pd");
	control->pd = NULL;
}

int our_register_buffers(struct our_control *control,
			 struct our_buffers *buffers, uint32_t slots,
			 uint32_t slot_size, unsigned int access,
			 const char *what)
{
	size_t length = (size_t)slots * slot_size;

	if (length == 0)
		return 0; /* this side needs none */
	/* Zeroed, because the adapter's writes into it happen outside the
	 * CPU: valgrind cannot see them and would call the bytes we receive
	 * uninitialised if they had never been written by us. */
	buffers->data = calloc(1, length);
	if (!buffers->data) {
		our_error("no memory for %zu bytes of %s buffers", length,
			  what);
		return -1;
	}
	/* excerpt register */
	/* The adapter pins the pages and gives us a key to name them by. */
	buffers->mr = ibv_reg_mr(control->pd, buffers->data, length,
				 (int)access);
	if (our_verb_failed(!buffers->mr, "ibv_reg_mr %s %zu bytes", what,
			    length)) {
		our_explain_reg_mr_failure();
		free(buffers->data);
		buffers->data = NULL;
		return -1;
	}
	/* end excerpt register */
	our_trace(2, "%s buffers: lkey 0x%x", what, buffers->mr->lkey);
	buffers->slot_size = slot_size;
	buffers->slots = slots;
	return 0;
}

void our_explain_reg_mr_failure(void)
{
	if (errno == ENOMEM)
		our_error("hint: pinned memory is limited by 'ulimit -l'; "
			  "raise it (e.g. unlimited)");
}

void our_deregister_buffers(struct our_buffers *buffers, const char *what)
{
	int ret;

	if (!buffers->mr)
		return;
	/* The adapter forgets the key and unpins the pages. */
	ret = ibv_dereg_mr(buffers->mr);
	/* Still registered, the adapter may still write there: keep it. */
	if (our_verb_error(ret, "ibv_dereg_mr %s", what))
		return;
	free(buffers->data);
	*buffers = (struct our_buffers){ 0 };
}

int our_setup_buffers(struct our_control *control,
		      const struct our_buffer_plan *plan)
{
	/* The least access: send/recv needs nothing remote, and the
	 * adapter reads any memory we registered, so no access flags. */
	if (our_register_buffers(control, &control->send, plan->send_slots,
				 plan->send_size, plan->send_access, "send") ||
	    our_register_buffers(control, &control->recv, plan->recv_slots,
				 plan->recv_size, 0, "receive")) {
		our_unsetup_buffers(control);
		return -1;
	}
	control->send_depth = plan->sends;
	control->recv_depth = plan->recv_slots;
	return 0;
}

void our_unsetup_buffers(struct our_control *control)
{
	our_deregister_buffers(&control->recv, "receive");
	our_deregister_buffers(&control->send, "send");
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

bool our_pong_verified(const struct our_control *control, const char *pong,
		       uint32_t number)
{
	if (!control->verify || our_verify_data(pong, control->size, number))
		return true;
	our_error("pong %u differs from its ping", number);
	return false;
}
