/* SPDX-License-Identifier: MIT */
/*
 * read_resources.h - the RDMA reads (and atomics) in flight that both
 * sides ask for when they connect.
 *
 * Introduced by ping-rdma-2; atomic-1 and pubsub-rdma-1 use it from here.
 * read_resources.c implements our_ask_resources of exchange.h for the
 * exchanges that read.
 */
#ifndef OUR_READ_RESOURCES_H
#define OUR_READ_RESOURCES_H

#include <stdint.h>

/*
 * The RDMA reads (and atomics) one side keeps in flight at once: the
 * exchange says. Both sides ask for this many each way.
 */
extern const uint8_t our_reads_in_flight;

#endif
