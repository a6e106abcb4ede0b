#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Problem 1 and its fix: ping-sr-0's two sides can disagree on the size;
# ping-sr-1's client sends count and size as private data, and the agent
# adopts them.
. "$(dirname "$0")/lib.sh"

test_ping_sr_0_sizes_disagree_and_both_sides_fail() {
	require_rdma || return
	start_server ping-sr-0 -c 10 -s 64 || return
	run_client ping-sr-0 -c 10 -s 4096
	wait_server
	assertEquals "client status; $(cat "$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertEquals "server status; $(cat "$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/client.out" "^client: size mismatch"
	assert_output "$WORK/server.out" "^server: size mismatch"
}

test_ping_sr_0_client_smaller_than_server_both_fail() {
	require_rdma || return
	start_server ping-sr-0 -c 10 -s 4096 || return
	run_client ping-sr-0 -c 10 -s 64
	wait_server
	assertEquals "client status; $(cat "$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertEquals "server status; $(cat "$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/client.out" "^client: size mismatch"
	assert_output "$WORK/server.out" "^server: size mismatch: message 0 .* has 64 bytes, we expect 4096"
}

test_ping_sr_1_agent_adopts_the_clients_size() {
	require_rdma || return
	start_server ping-sr-1 -c 10 -s 64 -v || return
	run_client ping-sr-1 -c 25 -s 4096 -v
	wait_server
	assertEquals "client status; $(cat "$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server status; $(cat "$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" "^client: 25 round trips of 4096 bytes"
	assert_output "$WORK/server.out" "^server: 25 round trips of 4096 bytes"
}

test_ping_sr_1_large_and_small() {
	require_rdma || return
	ping_pong ping-sr-1 -v -c 20 -s 1048576
	PORT=$((PORT + 1))
	ping_pong ping-sr-1 -v -c 1000 -s 1
}

. shunit2
