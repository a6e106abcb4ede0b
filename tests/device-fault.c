// SPDX-License-Identifier: MIT
/*
 * device-fault.c - faults of the RDMA device for the tests, loaded with
 * LD_PRELOAD; OUR_DEVICE_FAULT says which:
 *   no-atomics  the device says it does no atomics (atomic_cap
 *               IBV_ATOMIC_NONE), as some adapters and some software
 *               devices do: atomic-1 must refuse to run on it, saying
 *               why, before it opens any memory to atomics
 *   query-fails ibv_query_device, called by the program (librdmacm's
 *               own calls go through), fails, returning its error number
 *               (EOPNOTSUPP) as that verb does, errno untouched: the
 *               program must report that error, not errno's
 *   no-wr       rdma_create_qp_ex fails with EOPNOTSUPP, as on a
 *               provider without the ibv_wr_* interface: ping-wr-1 must
 *               say so plainly
 *   no-inline   rdma_create_qp_ex fails with EINVAL when asked for inline
 *               data, as on a device that takes none: ping-wr-1 must ask
 *               again, for none
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/* The fault asked for is name. */
static int asked(const char *name)
{
	const char *fault = getenv("OUR_DEVICE_FAULT");

	return fault && strcmp(fault, name) == 0;
}

/* The code at address belongs to a shared library, not the program. */
static int in_a_library(const void *address)
{
	Dl_info info;
	const char *name;

	if (!dladdr(address, &info) || !info.dli_fname)
		return 0;
	name = strrchr(info.dli_fname, '/');
	name = name ? name + 1 : info.dli_fname;
	return strncmp(name, "lib", 3) == 0;
}

int rdma_create_qp_ex(struct rdma_cm_id *id,
		      struct ibv_qp_init_attr_ex *qp_init_attr)
{
	int (*real)(struct rdma_cm_id *, struct ibv_qp_init_attr_ex *);

	if (asked("no-wr")) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (asked("no-inline") && qp_init_attr->cap.max_inline_data) {
		errno = EINVAL;
		return -1;
	}
	real = (int (*)(struct rdma_cm_id *, struct ibv_qp_init_attr_ex *))
		dlsym(RTLD_NEXT, "rdma_create_qp_ex");
	return real(id, qp_init_attr);
}

int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr)
{
	int (*real)(struct ibv_context *, struct ibv_device_attr *);
	int ret;

	if (asked("query-fails") &&
	    !in_a_library(__builtin_return_address(0))) {
		errno = 0;
		return EOPNOTSUPP;
	}
	real = (int (*)(struct ibv_context *,
			struct ibv_device_attr *))dlsym(RTLD_NEXT,
							"ibv_query_device");
	ret = real(context, device_attr);
	if (ret == 0 && asked("no-atomics"))
		device_attr->atomic_cap = IBV_ATOMIC_NONE;
	return ret;
}
