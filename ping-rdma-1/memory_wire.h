/* SPDX-License-Identifier: MIT */
/*
 * memory_wire.h - the messages of the RDMA stages as they travel:
 * fixed-size fields in network byte order.
 *
 * Before an RDMA write can reach the peer's memory, the peer must say
 * where that memory is and give the key that opens it: each side sends
 * one advertisement as its first message. After that, a notice follows
 * each RDMA write, so the target learns that the data has landed.
 */
#ifndef OUR_MEMORY_WIRE_H
#define OUR_MEMORY_WIRE_H

#include <stdint.h>

#define OUR_MEMORY_MAGIC 0x4f55524du /* "OURM" */
#define OUR_MEMORY_VERSION 1

/* excerpt advertisement */
/* Where the sender's memory is, and the key to it: 24 bytes. */
struct our_memory_ad {
	uint32_t magic;   /* OUR_MEMORY_MAGIC */
	uint8_t version;  /* OUR_MEMORY_VERSION */
	uint8_t length;   /* bytes filled in by the sender */
	uint16_t unused;  /* zero */
	uint64_t addr;    /* its first byte, as the sender's adapter knows it */
	uint32_t rkey;    /* the key that opens it to our adapter */
	uint32_t size;    /* bytes we may reach from addr */
};
/* end excerpt advertisement */

/* After an RDMA write: the number of the transfer that it carried. */
struct our_write_notice {
	uint32_t number;
};

#endif
