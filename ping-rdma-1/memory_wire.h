/* SPDX-License-Identifier: MIT */
/*
 * memory_wire.h - the messages of the RDMA stages as they travel:
 * fixed-size fields in network byte order.
 *
 * Before an RDMA write can reach the peer's memory, the peer must say
 * where that memory is and give the key that opens it: each side sends
 * one advertisement as its first message. After that, notices tell the
 * peer of the one-sided transfers: that a write has landed (ping-rdma-1),
 * or that data is ready to be read (ping-rdma-2).
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
	uint32_t rkey;    /* the key that opens it to the receiver's adapter */
	uint32_t size;    /* bytes the receiver may reach from addr */
};
/* end excerpt advertisement */

/* The number of the transfer that has landed, or is ready to be read. */
struct our_notice {
	uint32_t number;
};

#endif
