// SPDX-License-Identifier: MIT
/*
 * made_up_board.c - the checker's, not yours: a board of made-up bytes,
 * loaded with LD_PRELOAD after the verb log (verb_log.so). Memory
 * registered for remote reads (the board, as each agent registers it; a
 * subscriber opens nothing to remote reads) is swapped for a copy the
 * publisher never writes, registered at the board's address
 * (ibv_reg_mr_iova2's iova): a subscriber's RDMA reads then fetch the
 * copy. In each slot of 64 bytes the copy holds the slot's own number, as
 * the board's first round would, and a body of made-up bytes. A
 * subscriber that reads and checks what it reads must refuse them; one
 * that makes its publications up, or does not check them, goes on.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#define SLOT_SIZE 64u

/* A copy of length bytes of made-up publications at the same offset in
 * its page as addr (the kernel registers a range at an iova only so),
 * or NULL. */
static char *made_up(const void *addr, size_t length)
{
	size_t page_size = (size_t)sysconf(_SC_PAGESIZE);
	size_t offset = (uintptr_t)addr % page_size;
	size_t pages = (offset + length + page_size - 1) / page_size;
	char *page = aligned_alloc(page_size, pages * page_size);
	char *copy;

	if (!page)
		return NULL;
	copy = page + offset;
	memset(copy, 0x5a, length);
	for (size_t slot = 0; slot + sizeof(uint32_t) <= length;
	     slot += SLOT_SIZE) {
		uint32_t number = htonl((uint32_t)(slot / SLOT_SIZE));

		memcpy(copy + slot, &number, sizeof(number));
	}
	return copy;
}

/* register: the board's registration swapped for the copy's; any other
 * registration as asked. (The copy is never freed: a checker's run is
 * short.) */
static struct ibv_mr *register_memory(struct ibv_pd *pd, void *addr,
				      size_t length, uint64_t iova,
				      unsigned int access)
{
	struct ibv_mr *(*real)(struct ibv_pd *, void *, size_t, uint64_t,
			       unsigned int);
	char *copy;

	real = (struct ibv_mr *(*)(struct ibv_pd *, void *, size_t, uint64_t,
				   unsigned int))dlsym(RTLD_NEXT,
						       "ibv_reg_mr_iova2");
	if (access & IBV_ACCESS_REMOTE_READ) {
		copy = made_up(addr, length);
		if (copy)
			return real(pd, copy, length, iova, access);
	}
	return real(pd, addr, length, iova, access);
}

/* What ibv_reg_mr() calls when its access flags are not a constant. */
struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t iova, unsigned int access)
{
	return register_memory(pd, addr, length, iova, access);
}

/* What ibv_reg_mr() calls when they are. */
#undef ibv_reg_mr
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  int access)
{
	return register_memory(pd, addr, length, (uintptr_t)addr,
			       (unsigned int)access);
}
