#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# devices: lists the RDMA device the tests run on, named for what it is.
. "$(dirname "$0")/lib.sh"

test_devices_names_the_lab_device() {
	require_rdma || return
	run_program "$KIT/devices/devices"
	assertEquals "exit status; $(cat "$WORK/program.out")" 0 "$STATUS"
	assert_output "$WORK/program.out" "^$DEVICE\$"
	assert_output "$WORK/program.out" "node guid: [0-9a-f]{4}(:[0-9a-f]{4}){3}"
	assert_output "$WORK/program.out" "max_qp [1-9][0-9]*, max_qp_wr [1-9]"
	assert_output "$WORK/program.out" "max_mr_size [1-9][0-9]*, max_pd [1-9]"
	assert_output "$WORK/program.out" "port 1: active"
}

test_soft_roce_is_roce_over_ethernet() {
	require_rdma || return
	[ -n "${LAB_GUEST:-}" ] ||
		{ skip_test "the link layer is known only in the lab"; return; }
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

test_devices_help_and_bad_option() {
	run_program "$KIT/devices/devices" --help
	assertEquals "--help exit status" 0 "$STATUS"
	assert_output "$WORK/program.out" "^usage: devices"
	run_program "$KIT/devices/devices" -z
	assertEquals "bad option exit status" 2 "$STATUS"
	assert_output "$WORK/program.out" "unknown option '-z'"
}

. shunit2
