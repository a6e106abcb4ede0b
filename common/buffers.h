/* SPDX-License-Identifier: MIT */
/*
 * buffers.h - registered memory, and the data that fills it.
 */
#ifndef OUR_BUFFERS_H
#define OUR_BUFFERS_H

#include <stdbool.h>
#include "control.h"

/*
 * Allocate and register control->buffers send slots and as many receive
 * slots of control->size bytes each, with local access only: send/recv
 * needs nothing remote. Returns 0, or -1 (reported) with nothing left
 * registered. Undo with our_unsetup_buffers().
 */
int our_setup_buffers(struct our_control *control);
void our_unsetup_buffers(struct our_control *control);

/* The start of slot i. */
char *our_slot(const struct our_buffers *buffers, uint32_t i);

/* Fill size bytes with the pattern of message number sequence. */
void our_fill_data(char *data, uint32_t size, uint64_t sequence);

/*
 * Check size bytes against the pattern of message number sequence.
 * Reports the first byte that differs and returns false on a mismatch.
 */
bool our_verify_data(const char *data, uint32_t size, uint64_t sequence);

#endif
