// SPDX-License-Identifier: MIT
/*
 * small_device.c - given, for rdma-read's checker: loaded into a program
 * with LD_PRELOAD, it makes ibv_query_device say that the device allows
 * no RDMA reads in flight, at a queue pair or from it (max_qp_rd_atom
 * and max_qp_init_rd_atom 0), as a device without reads would. The rest
 * of what the device says is left as it is.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <infiniband/verbs.h>

int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *attr)
{
	int (*real)(struct ibv_context *, struct ibv_device_attr *) =
		(int (*)(struct ibv_context *, struct ibv_device_attr *))
			dlsym(RTLD_NEXT, "ibv_query_device");
	int ret = real(context, attr);

	if (ret == 0) {
		attr->max_qp_rd_atom = 0;
		attr->max_qp_init_rd_atom = 0;
	}
	return ret;
}
