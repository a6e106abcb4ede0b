/* SPDX-License-Identifier: MIT */
/*
 * shared_memory.h - memory the agents of a server share, open to their
 * clients: each agent registers it in its own protection domain, as
 * remote memory, without owning it.
 *
 * Introduced by atomic-1 (the counter); pubsub-rdma-1 uses it from here
 * (the board).
 */
#ifndef OUR_SHARED_MEMORY_H
#define OUR_SHARED_MEMORY_H

#include "control.h"

/*
 * Register slots of slot_size bytes at memory, which the agents share,
 * as control's remote memory (control->exchange), with access
 * (IBV_ACCESS_REMOTE_*).
 * Returns 0, or -1 (reported) with nothing left. Undo with
 * our_deregister_shared(): the memory itself is left to its owner.
 */
int our_register_shared(struct our_control *control, void *memory,
			uint32_t slots, uint32_t slot_size,
			unsigned int access);
void our_deregister_shared(struct our_control *control);

#endif
