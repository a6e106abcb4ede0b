// SPDX-License-Identifier: MIT
/*
 * no-remote-access.c - a fault for the tests, loaded with LD_PRELOAD:
 * memory is registered without the remote access the program asks for,
 * as if a newcomer had left out IBV_ACCESS_REMOTE_WRITE. The key the
 * program then advertises does not open its memory, and the peer's RDMA
 * write fails with a remote access error, which the peer must explain.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <infiniband/verbs.h>

/* The remote access bits, which this fault takes away. */
#define REMOTE_ACCESS (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
		       IBV_ACCESS_REMOTE_ATOMIC)

/* What ibv_reg_mr() calls when its access flags are not a constant. */
struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t iova, unsigned int access)
{
	struct ibv_mr *(*real)(struct ibv_pd *, void *, size_t, uint64_t,
			       unsigned int);

	real = (struct ibv_mr *(*)(struct ibv_pd *, void *, size_t, uint64_t,
				   unsigned int))dlsym(RTLD_NEXT,
						       "ibv_reg_mr_iova2");
	return real(pd, addr, length, iova, access & ~REMOTE_ACCESS);
}

/* What ibv_reg_mr() calls when they are. */
#undef ibv_reg_mr
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  int access)
{
	struct ibv_mr *(*real)(struct ibv_pd *, void *, size_t, int);

	real = (struct ibv_mr *(*)(struct ibv_pd *, void *, size_t,
				   int))dlsym(RTLD_NEXT, "ibv_reg_mr");
	return real(pd, addr, length, access & ~REMOTE_ACCESS);
}
