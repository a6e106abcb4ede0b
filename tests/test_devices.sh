#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# devices: lists the RDMA device the tests run on, named for what it is.
. "$(dirname "$0")/lib.sh"

test_devices_names_the_lab_device() {
	require_rdma || return 0
	run_program "$KIT/devices/devices"
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assert_output "$WORK/program.out" "^$DEVICE\$"
	assert_output "$WORK/program.out" "node guid: [0-9a-f]{4}(:[0-9a-f]{4}){3}"
	assert_output "$WORK/program.out" "max_qp [1-9][0-9]*, max_qp_wr [1-9]"
	assert_output "$WORK/program.out" "max_mr_size [1-9][0-9]*, max_pd [1-9]"
	assert_output "$WORK/program.out" "port 1: active"
}

test_soft_roce_is_roce_over_ethernet() {
	require_rdma || return 0
	[ -n "${LAB_GUEST:-}" ] ||
		{ skip_test "the link layer is known only in the lab"; return 0; }
	run_program "$KIT/devices/devices"
	# rxe speaks the InfiniBand transport over an Ethernet link: RoCE.
	assert_output "$WORK/program.out" "transport: InfiniBand"
	assert_output "$WORK/program.out" "link layer: Ethernet"
	assert_output "$WORK/program.out" "port 1: active, RoCE"
	# Soft-RoCE's MTU follows the netdev's: 1500 gives 1024.
	assert_output "$WORK/program.out" "active mtu: 1024"
	# Its GIDs carry the netdev's IPv4 address, as RoCE v2.
	assert_output "$WORK/program.out" "::ffff:$ADDR \\(RoCE v2"
}

test_devices_lists_more_than_64_gids() {
	require_rdma || return 0
	[ -n "${LAB_GUEST:-}" ] ||
		{ skip_test "it adds addresses to the netdev: only in the lab"; return 0; }
	local netdev i last=192.0.2.169

	netdev=$(rdma link show "$DEVICE/1" |
		sed -n 's/.* netdev \([^ ]*\).*/\1/p')
	# Each IPv4 address of the netdev is one more RoCE v2 GID: 70 more
	# than the two the port has make a table no fixed 64 entries can hold.
	for i in $(seq 100 169); do
		echo "address add 192.0.2.$i/32 dev $netdev"
	done | ip -batch -
	# The GIDs follow the addresses a moment later.
	for i in $(seq 50); do
		run_program "$KIT/devices/devices"
		grep -q "::ffff:$last " "$WORK/program.out" && break
		sleep 0.2
	done
	for i in $(seq 100 169); do
		echo "address delete 192.0.2.$i/32 dev $netdev"
	done | ip -batch -
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assert_output "$WORK/program.out" \
		"::ffff:$last \\(RoCE v2, netdev $netdev\\)"
	assertTrue "fewer than 72 GIDs: $(<"$WORK/program.out")" \
		"[ $(grep -c 'gid\[' "$WORK/program.out") -ge 72 ]"
}

test_devices_help_and_bad_option() {
	run_program "$KIT/devices/devices" --help
	assertEquals "--help exit status" 0 "$STATUS"
	assert_output "$WORK/program.out" "^usage: devices"
	run_program "$KIT/devices/devices" -z
	assertEquals "bad option exit status" 2 "$STATUS"
	assert_output "$WORK/program.out" "unknown option '-z'"
}

. shunit2
