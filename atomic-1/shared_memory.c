// SPDX-License-Identifier: MIT
/*
 * shared_memory.c - memory the agents of a server share, registered by
 * each agent in its own protection domain, open to its client.
 *
 * A memory region belongs to a protection domain, and each agent has its
 * own: so each registers the shared memory again, and gets a key of its
 * own to advertise. The adapter lets several regions cover the same
 * pages.
 */
#include <stdlib.h>

#include "remote_memory.h"
#include "report.h"
#include "shared_memory.h"

int our_register_shared(struct our_control *control, void *memory,
			uint32_t slots, uint32_t slot_size,
			unsigned int access)
{
	size_t length = (size_t)slots * slot_size;
	struct our_exchange *exchange = calloc(1, sizeof(*exchange));
	struct ibv_mr *mr;

	if (!exchange) {
		our_error("no memory for the exchange");
		return -1;
	}
	/* excerpt register_shared */
	mr = ibv_reg_mr(control->pd, memory, length,
			(int)(IBV_ACCESS_LOCAL_WRITE | access));
	if (our_verb_failed(!mr, "ibv_reg_mr shared %zu bytes", length)) {
		free(exchange);
		return -1;
	}
	/* end excerpt register_shared */
	exchange->mine = (struct our_buffers){ .data = memory,
					       .slot_size = slot_size,
					       .slots = slots, .mr = mr };
	control->exchange = exchange;
	return 0;
}

void our_deregister_shared(struct our_control *control)
{
	int ret;

	if (!control->exchange)
		return;
	ret = ibv_dereg_mr(control->exchange->mine.mr);
	our_verb_error(ret, "ibv_dereg_mr shared");
	free(control->exchange);
	control->exchange = NULL;
}
