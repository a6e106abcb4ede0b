/* SPDX-License-Identifier: MIT */
/*
 * private_wire.h - the private data ping-sr-1's client sends with
 * rdma_connect, and the reason its agent sends back with rdma_reject, as
 * they travel: fixed-size fields in network byte order.
 */
#ifndef OUR_PRIVATE_WIRE_H
#define OUR_PRIVATE_WIRE_H

#include <stdint.h>

#define OUR_PRIVATE_MAGIC 0x4f55524bu /* "OURK" */
#define OUR_PRIVATE_VERSION 2

/* The bits of our_private_data.flags. */
#define OUR_PRIVATE_VERIFY 0x0001u /* -v: fill and check every byte */
#define OUR_PRIVATE_FLAGS OUR_PRIVATE_VERIFY /* all the bits we know */

/*
 * What the client sends with rdma_connect: fixed-size fields, in network
 * byte order, 20 bytes of the 56 that InfiniBand allows.
 */
/* excerpt wire */
struct our_private_data {
	uint32_t magic;   /* OUR_PRIVATE_MAGIC */
	uint8_t version;  /* OUR_PRIVATE_VERSION */
	uint8_t length;   /* bytes filled in by the sender */
	uint16_t flags;   /* OUR_PRIVATE_* bits */
	uint32_t count;   /* round trips or messages; 0: none, the
			   * agent runs until the client hangs up */
	uint32_t size;    /* bytes per message */
	uint32_t buffers; /* messages in flight */
};
/* end excerpt wire */

/*
 * Why the agent refused a connection, in words: sent back with
 * rdma_reject, 100 bytes of the 148 that InfiniBand allows.
 */
struct our_refusal {
	uint32_t magic;  /* OUR_PRIVATE_MAGIC, so the client knows it is ours */
	char reason[96]; /* ends with a zero byte */
};

#endif
