// SPDX-License-Identifier: MIT
/*
 * control.c - the per-connection control structure.
 */
#include <string.h>

#include "control.h"

void our_init_control(struct our_control *control,
		      const struct our_options *options)
{
	memset(control, 0, sizeof(*control));
	control->options = options;
	control->count = options->count;
	control->size = options->size;
	control->buffers = options->buffers;
	atomic_init(&control->disconnected, false);
	atomic_init(&control->cm_thread_stop, false);
	atomic_init(&control->last_cm_event, -1);
}
