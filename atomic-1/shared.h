/* SPDX-License-Identifier: MIT */
/*
 * shared.h - what the agents of a server for many clients share.
 *
 * The exchange of a stage whose server serves many clients at once
 * (server_threads.c) implements this header: atomic-1's atomic_counter.c
 * shares one counter among all its agents, pubsub-rdma-1's board.c a
 * board of publications and the thread that writes them. What they share
 * is the exchange's own, one for the server; each agent reaches it there.
 *
 * Introduced by atomic-1.
 */
#ifndef OUR_SHARED_H
#define OUR_SHARED_H

#include <stdint.h>

#include "options.h"

/*
 * Set up what the agents share, for a server run with options. Returns
 * 0, or -1 (reported) with nothing left. Undo with our_unsetup_shared().
 */
int our_setup_shared(const struct our_options *options);
void our_unsetup_shared(void);

/* Once every agent has ended: say what the clients made of it. */
void our_report_shared(uint32_t clients);

#endif
