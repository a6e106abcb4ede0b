/* SPDX-License-Identifier: MIT */
/*
 * queue_pair.h - the protection domain, completion queue and RC queue pair.
 */
#ifndef OUR_QUEUE_PAIR_H
#define OUR_QUEUE_PAIR_H

#include "control.h"

/*
 * On the device behind control->cm_id: allocate a protection domain, set
 * up completions (see completions.h), create one completion queue for sends
 * and receives and an RC queue pair sized for control->buffers messages in
 * flight each way. Returns 0, or -1 (reported) with nothing left set up.
 * Undo with our_unsetup_qp().
 */
int our_setup_qp(struct our_control *control);
void our_unsetup_qp(struct our_control *control);

#endif
