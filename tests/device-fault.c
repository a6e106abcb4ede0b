// SPDX-License-Identifier: MIT
/*
 * no-atomics.c - a fault for the tests, loaded with LD_PRELOAD: the RDMA
 * device says it does no atomics (atomic_cap IBV_ATOMIC_NONE), as some
 * adapters and some software devices do. atomic-1 must refuse to run on
 * it, and say why.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <infiniband/verbs.h>

int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr)
{
	int (*real)(struct ibv_context *, struct ibv_device_attr *);
	int ret;

	real = (int (*)(struct ibv_context *,
			struct ibv_device_attr *))dlsym(RTLD_NEXT,
							"ibv_query_device");
	ret = real(context, device_attr);
	if (ret == 0)
		device_attr->atomic_cap = IBV_ATOMIC_NONE;
	return ret;
}
