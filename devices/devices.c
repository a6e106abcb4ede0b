// SPDX-License-Identifier: MIT
/*
 * devices.c - list the RDMA devices of this machine and what they offer.
 *
 * For each device: its name, node GUID, the kind of RDMA it speaks
 * (InfiniBand, RoCE or iWARP), firmware and ids, the main limits, and each
 * port's state, MTU and GID table.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>

#include <infiniband/verbs.h>

#include "options.h"
#include "report.h"

static const struct our_program program = {
	.name = "devices",
	.purpose = "List the RDMA devices of this machine and their "
		   "attributes.",
	.role = OUR_NO_ROLE,
	.accepts = OUR_ACCEPTS_TRACE_ONLY,
};

/* Most GID entries shown per port. */
#define MAX_GIDS 64

static int mtu_bytes(enum ibv_mtu mtu)
{
	return 128 << mtu; /* IBV_MTU_256 is 1, and 256 = 128 << 1 */
}

/*
 * The kind of RDMA a port speaks. rxe (Soft-RoCE) and RoCE adapters use
 * the InfiniBand transport over an Ethernet link layer: that is RoCE.
 */
static const char *rdma_kind(enum ibv_transport_type transport,
			     uint8_t link_layer)
{
	if (transport == IBV_TRANSPORT_IWARP)
		return "iWARP";
	if (transport != IBV_TRANSPORT_IB)
		return "other";
	if (link_layer == IBV_LINK_LAYER_ETHERNET)
		return "RoCE";
	return "InfiniBand";
}

static const char *transport_name(enum ibv_transport_type transport)
{
	switch (transport) {
	case IBV_TRANSPORT_IB:
		return "InfiniBand";
	case IBV_TRANSPORT_IWARP:
		return "iWARP";
	case IBV_TRANSPORT_USNIC:
	case IBV_TRANSPORT_USNIC_UDP:
		return "usNIC";
	case IBV_TRANSPORT_UNSPECIFIED:
		return "unspecified";
	default:
		return "unknown";
	}
}

static const char *link_layer_name(uint8_t link_layer)
{
	switch (link_layer) {
	case IBV_LINK_LAYER_INFINIBAND:
		return "InfiniBand";
	case IBV_LINK_LAYER_ETHERNET:
		return "Ethernet";
	default:
		return "unspecified";
	}
}

static const char *gid_type_name(uint32_t type)
{
	switch (type) {
	case IBV_GID_TYPE_IB:
		return "IB";
	case IBV_GID_TYPE_ROCE_V1:
		return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2:
		return "RoCE v2";
	default:
		return "?";
	}
}

/* Print the GID table of one port: the port's addresses on the fabric. */
static void print_gids(struct ibv_context *context, uint8_t port)
{
	struct ibv_gid_entry entries[MAX_GIDS];
	char address[INET6_ADDRSTRLEN];
	char netdev[IF_NAMESIZE];
	ssize_t n;

	/* The device lists the GIDs of all its ports at once. */
	n = ibv_query_gid_table(context, entries, MAX_GIDS, 0);
	if (n < 0) {
		our_error("ibv_query_gid_table: %s", "failed");
		return;
	}
	our_trace(1, "ibv_query_gid_table -> %zd entries", n);
	for (ssize_t i = 0; i < n; i++) {
		if (entries[i].port_num != port)
			continue;
		inet_ntop(AF_INET6, entries[i].gid.raw, address,
			  sizeof(address));
		if (!if_indextoname(entries[i].ndev_ifindex, netdev))
			snprintf(netdev, sizeof(netdev), "-");
		printf("      gid[%u]: %s (%s, netdev %s)\n",
		       entries[i].gid_index, address,
		       gid_type_name(entries[i].gid_type), netdev);
	}
}

static void print_port(struct ibv_context *context,
		       enum ibv_transport_type transport, uint8_t port)
{
	struct ibv_port_attr attr;
	int ret;

	/* Ask the adapter for the port's state and link. */
	ret = ibv_query_port(context, port, &attr);
	if (our_verb_failed(ret, "ibv_query_port %u", port))
		return;
	printf("    port %u: %s, %s\n", port, ibv_port_state_str(attr.state),
	       rdma_kind(transport, attr.link_layer));
	printf("      link layer: %s\n", link_layer_name(attr.link_layer));
	printf("      active mtu: %d (max %d)\n", mtu_bytes(attr.active_mtu),
	       mtu_bytes(attr.max_mtu));
	if (attr.link_layer == IBV_LINK_LAYER_INFINIBAND)
		printf("      lid: %u, sm lid: %u\n", attr.lid, attr.sm_lid);
	printf("      gid table: %d entries\n", attr.gid_tbl_len);
	print_gids(context, port);
}

/* Print one device; returns 0, or -1 (reported) if it cannot be read. */
static int print_device(struct ibv_device *device)
{
	struct ibv_device_attr attr;
	struct ibv_context *context;
	uint64_t guid;
	int ret;

	/* Open the device to talk to it; close it when done. */
	context = ibv_open_device(device);
	if (our_verb_null(context, "ibv_open_device %s",
			  ibv_get_device_name(device)))
		return -1;
	ret = ibv_query_device(context, &attr);
	if (our_verb_failed(ret, "ibv_query_device %s",
			    ibv_get_device_name(device)))
		goto out_close_device;

	guid = be64toh(ibv_get_device_guid(device));
	printf("%s\n", ibv_get_device_name(device));
	printf("  node guid: %04x:%04x:%04x:%04x\n",
	       (unsigned int)(guid >> 48) & 0xffff,
	       (unsigned int)(guid >> 32) & 0xffff,
	       (unsigned int)(guid >> 16) & 0xffff,
	       (unsigned int)guid & 0xffff);
	printf("  transport: %s\n", transport_name(device->transport_type));
	printf("  firmware: %s\n", attr.fw_ver[0] ? attr.fw_ver : "-");
	printf("  vendor id: 0x%x, part id: %u, hardware version: %u\n",
	       attr.vendor_id, attr.vendor_part_id, attr.hw_ver);
	printf("  limits: max_qp %d, max_qp_wr %d, max_sge %d, max_cq %d, "
	       "max_cqe %d\n",
	       attr.max_qp, attr.max_qp_wr, attr.max_sge, attr.max_cq,
	       attr.max_cqe);
	printf("          max_mr %d, max_mr_size %" PRIu64 ", max_pd %d\n",
	       attr.max_mr, (uint64_t)attr.max_mr_size, attr.max_pd);
	printf("  ports: %u\n", attr.phys_port_cnt);
	for (uint8_t port = 1; port <= attr.phys_port_cnt; port++)
		print_port(context, device->transport_type, port);

out_close_device:
	ibv_close_device(context);
	return ret ? -1 : 0;
}

int main(int argc, char *argv[])
{
	struct our_options options;
	enum our_parse_result parsed;
	struct ibv_device **devices;
	int status = EXIT_SUCCESS;
	int count;

	parsed = our_parse_options(&program, argc, argv, &options);
	if (parsed != OUR_OPTIONS_RUN)
		return our_options_exit_status(parsed);

	/* Every RDMA device the verbs library found on this machine. */
	devices = ibv_get_device_list(&count);
	if (our_verb_null(devices, "ibv_get_device_list")) {
		our_error("no RDMA device found: this kernel has no RDMA "
			  "support; use the lab ('make lab')");
		return EXIT_FAILURE;
	}
	if (count == 0) {
		our_error("no RDMA device found: none is installed, or its "
			  "driver or provider library is missing; without "
			  "hardware, use the lab ('make lab')");
		status = EXIT_FAILURE;
	}
	for (int i = 0; i < count; i++) {
		if (i > 0)
			printf("\n");
		if (print_device(devices[i]))
			status = EXIT_FAILURE;
	}
	ibv_free_device_list(devices);
	return status;
}
