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

#include "instruments.h"
#include "options.h"
#include "report.h"

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

/*
 * Ask the adapter for each port's attributes: ports[0] is port 1, and so
 * on. Returns an array to free(), or NULL (reported) when one fails.
 */
static struct ibv_port_attr *query_ports(struct ibv_context *context,
					 unsigned int count)
{
	struct ibv_port_attr *ports;
	int ret;

	ports = calloc(count, sizeof(*ports));
	if (!ports) {
		our_error("no memory for %u ports", count);
		return NULL;
	}
	for (unsigned int port = 1; port <= count; port++) {
		/* The port's state, link layer and GID table size. */
		ret = ibv_query_port(context, port, &ports[port - 1]);
		if (our_verb_error(ret, "ibv_query_port %u", port)) {
			free(ports);
			return NULL;
		}
	}
	return ports;
}

/*
 * The valid GIDs of every port at once: the ports' addresses on the
 * fabric. The array must have room for all of them or the call fails, so
 * it is sized from each port's gid_tbl_len, the most GIDs the port can
 * hold: a RoCE port has a GID per IP address of its netdev and of its
 * VLANs, per RoCE version, often more than 64. Sets *count; returns an
 * array to free(), or NULL (reported) on failure.
 */
static struct ibv_gid_entry *query_gids(struct ibv_context *context,
					const struct ibv_port_attr *ports,
					unsigned int port_count, size_t *count)
{
	struct ibv_gid_entry *entries;
	size_t room = 0;
	ssize_t n;

	for (unsigned int i = 0; i < port_count; i++)
		room += ports[i].gid_tbl_len;
	/* calloc(0) may return NULL: ask for one entry at least. */
	entries = calloc(room ? room : 1, sizeof(*entries));
	if (!entries) {
		our_error("no memory for %zu GIDs", room);
		return NULL;
	}
	*count = 0;
	if (room == 0)
		return entries;
	/* The device lists the valid GIDs of all its ports at once. */
	n = ibv_query_gid_table(context, entries, room, 0);
	if (n < 0) {
		/* It returns the error number negated. */
		our_verb_error((int)n, "ibv_query_gid_table %zu entries",
			       room);
		free(entries);
		return NULL;
	}
	our_trace(1, "ibv_query_gid_table %zu entries -> %zd", room, n);
	*count = n;
	return entries;
}

/* Print the GIDs of one port, out of the device's GID entries. */
static void print_gids(const struct ibv_gid_entry *entries, size_t count,
		       unsigned int port)
{
	char address[INET6_ADDRSTRLEN];
	char netdev[IF_NAMESIZE];

	for (size_t i = 0; i < count; i++) {
		if (entries[i].port_num != port)
			continue;
		if (!inet_ntop(AF_INET6, entries[i].gid.raw, address,
			       sizeof(address)))
			snprintf(address, sizeof(address), "?");
		if (!if_indextoname(entries[i].ndev_ifindex, netdev))
			snprintf(netdev, sizeof(netdev), "-");
		printf("      gid[%u]: %s (%s, netdev %s)\n",
		       entries[i].gid_index, address,
		       gid_type_name(entries[i].gid_type), netdev);
	}
}

/* Print one port: its state, link, MTU and GIDs. */
static void print_port(const struct ibv_port_attr *attr,
		       enum ibv_transport_type transport, unsigned int port,
		       const struct ibv_gid_entry *gids, size_t gid_count)
{
	printf("    port %u: %s, %s\n", port, ibv_port_state_str(attr->state),
	       rdma_kind(transport, attr->link_layer));
	printf("      link layer: %s\n", link_layer_name(attr->link_layer));
	printf("      active mtu: %d (max %d)\n", mtu_bytes(attr->active_mtu),
	       mtu_bytes(attr->max_mtu));
	if (attr->link_layer == IBV_LINK_LAYER_INFINIBAND)
		printf("      lid: %u, sm lid: %u\n", attr->lid, attr->sm_lid);
	printf("      gid table: %d entries\n", attr->gid_tbl_len);
	print_gids(gids, gid_count, port);
}

/* Print the device's attributes, as the adapter reports them. */
static void print_attributes(struct ibv_device *device,
			     const struct ibv_device_attr *attr)
{
	uint64_t guid;

	guid = be64toh(ibv_get_device_guid(device));
	printf("%s\n", ibv_get_device_name(device));
	printf("  node guid: %04x:%04x:%04x:%04x\n",
	       (unsigned int)(guid >> 48) & 0xffff,
	       (unsigned int)(guid >> 32) & 0xffff,
	       (unsigned int)(guid >> 16) & 0xffff,
	       (unsigned int)guid & 0xffff);
	printf("  transport: %s\n", transport_name(device->transport_type));
	printf("  firmware: %s\n", attr->fw_ver[0] ? attr->fw_ver : "-");
	printf("  vendor id: 0x%x, part id: %u, hardware version: %u\n",
	       attr->vendor_id, attr->vendor_part_id, attr->hw_ver);
	printf("  limits: max_qp %d, max_qp_wr %d, max_sge %d, max_cq %d, "
	       "max_cqe %d\n",
	       attr->max_qp, attr->max_qp_wr, attr->max_sge, attr->max_cq,
	       attr->max_cqe);
	printf("          max_mr %d, max_mr_size %" PRIu64 ", max_pd %d\n",
	       attr->max_mr, (uint64_t)attr->max_mr_size, attr->max_pd);
	printf("  ports: %u\n", attr->phys_port_cnt);
}

/*
 * Print one device; returns 0, or -1 (reported) if it cannot be read. What
 * could be read is printed even so.
 */
static int print_device(struct ibv_device *device)
{
	const char *name = ibv_get_device_name(device);
	struct ibv_device_attr attr;
	struct ibv_context *context;
	struct ibv_port_attr *ports;
	struct ibv_gid_entry *gids;
	size_t gid_count = 0;
	int status = 0;
	int ret;

	/* excerpt open-query */
	/* Open the device to talk to it; close it when done. */
	context = ibv_open_device(device);
	if (our_verb_failed(!context, "ibv_open_device %s", name))
		return -1;
	/* Ask the adapter what it is and what it can do. */
	ret = ibv_query_device(context, &attr);
	if (our_verb_error(ret, "ibv_query_device %s", name)) {
		status = -1;
		goto out_close_device;
	}
	print_attributes(device, &attr);
	/* end excerpt open-query */
	ports = query_ports(context, attr.phys_port_cnt);
	if (!ports) {
		status = -1;
		goto out_close_device;
	}
	gids = query_gids(context, ports, attr.phys_port_cnt, &gid_count);
	if (!gids)
		status = -1;
	for (unsigned int port = 1; port <= attr.phys_port_cnt; port++)
		print_port(&ports[port - 1], device->transport_type, port, gids,
			   gid_count);

	free(gids);
	free(ports);
out_close_device:
	ret = ibv_close_device(context);
	if (our_verb_failed(ret, "ibv_close_device %s", name))
		status = -1;
	return status;
}

int main(int argc, char *argv[])
{
	/* No options but -h. */
	const struct our_option *const tables[] = { NULL };
	const struct our_program program = {
		.name = "devices",
		.purpose = "List the RDMA devices of this machine and their "
			   "attributes.",
		.tables = tables,
	};
	struct our_options options;
	struct ibv_device **devices;
	int status;
	int count;

	status = our_parse_options(&program, argc, argv, &options);
	if (status >= 0)
		return status;
	status = EXIT_SUCCESS;

	/* Every RDMA device the verbs library found on this machine. */
	devices = ibv_get_device_list(&count);
	if (our_verb_failed(!devices, "ibv_get_device_list")) {
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
