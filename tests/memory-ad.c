// SPDX-License-Identifier: MIT
/*
 * memory-ad.c - a unit test of how the RDMA stages check the memory
 * advertisement a peer sends (our_check_memory_ad in
 * ping-rdma-1/remote_memory.c): a good one is taken, with its address,
 * key and size in host byte order; one too short, with another magic or
 * version, or opening fewer bytes than a transfer needs is refused with
 * its reason.
 *
 * usage: memory-ad   (exits 0 when every case behaves)
 */
#include <arpa/inet.h>
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "memory_wire.h"
#include "remote_memory.h"
#include "report.h"

/* A good advertisement: 4096 bytes at 0x1122334455667788, rkey 0xabcd. */
static struct our_memory_ad good_ad(void)
{
	return (struct our_memory_ad){
		.magic = htonl(OUR_MEMORY_MAGIC),
		.version = OUR_MEMORY_VERSION,
		.length = sizeof(struct our_memory_ad),
		.addr = htobe64(0x1122334455667788ull),
		.rkey = htonl(0xabcd),
		.size = htonl(4096),
	};
}

/* One case: check length bytes of ad, needing needed; expect the reason
 * why (NULL: taken). Returns 1 when the answer is wrong. */
static int check(const char *what, const struct our_memory_ad *ad,
		 uint32_t length, uint32_t needed, const char *expect)
{
	struct our_peer_memory memory = { 0 };
	const char *why = our_check_memory_ad(ad, length, needed, &memory);
	int wrong = !why != !expect || (why && strcmp(why, expect) != 0);

	if (!why && (memory.addr != 0x1122334455667788ull ||
		     memory.rkey != 0xabcd || memory.length != 4096))
		wrong = 1;
	printf("memory-ad: %s: %s (%s)\n", what, why ? why : "taken",
	       wrong ? "WRONG" : "right");
	return wrong;
}

int main(void)
{
	struct our_memory_ad ad = good_ad();
	int wrong = 0;

	our_program_name = "memory-ad";
	wrong += check("good", &ad, sizeof(ad), 4096, NULL);
	wrong += check("short", &ad, sizeof(ad) - 1, 4096, "it is too short");
	wrong += check("too small", &ad, sizeof(ad), 4097,
		       "it opens fewer bytes than a transfer needs");
	ad.magic = htonl(OUR_MEMORY_MAGIC + 1);
	wrong += check("magic", &ad, sizeof(ad), 1,
		       "it does not start with the kit's magic");
	ad = good_ad();
	ad.version = OUR_MEMORY_VERSION + 1;
	wrong += check("version", &ad, sizeof(ad), 1,
		       "it has a version we do not know");
	ad = good_ad();
	ad.length = sizeof(ad) - 4;
	wrong += check("length", &ad, sizeof(ad), 1, "it is too short");
	if (wrong) {
		printf("memory-ad: %d checks wrong\n", wrong);
		return 1;
	}
	printf("memory-ad: 6 checks passed\n");
	return 0;
}
