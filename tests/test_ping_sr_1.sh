#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Problem 1 and its fix: ping-sr-0's two sides can disagree on the size;
# ping-sr-1's client sends count and size as private data, and the agent
# adopts them.
. "$(dirname "$0")/lib.sh"

# ping_pong_sides STAGE SERVER_ARGS CLIENT_ARGS: a run of 50 round trips
# where each side has options of its own; both must succeed.
ping_pong_sides() {
	start_server "$1" $2 || return 1
	run_client "$1" -c 50 $3
	wait_server
	assertEquals "client status ($3); $(<"$WORK/client.out")" \
		0 "$CLIENT_STATUS"
	assertEquals "server status ($2); $(<"$WORK/server.out")" \
		0 "$SERVER_STATUS"
}

test_ping_sr_0_sizes_disagree_and_both_sides_fail() {
	require_rdma || return 0
	start_server ping-sr-0 -c 10 -s 64 || return
	run_client ping-sr-0 -c 10 -s 4096
	wait_server
	assertEquals "client status; $(<"$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertEquals "server status; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/client.out" "^client: size mismatch"
	assert_output "$WORK/server.out" "^server: size mismatch"
}

test_ping_sr_0_client_smaller_than_server_both_fail() {
	require_rdma || return 0
	start_server ping-sr-0 -c 10 -s 4096 || return
	run_client ping-sr-0 -c 10 -s 64
	wait_server
	assertEquals "client status; $(<"$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertEquals "server status; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/client.out" "^client: size mismatch"
	assert_output "$WORK/server.out" "^server: size mismatch: message 0 .* has 64 bytes, we expect 4096"
}

# Different counts: the client ends after its 10 round trips while the
# server waits for ping 11, which never comes; ping-sr-0 cannot see the
# client hang up (problem 2): the test ends it. (Not the other way round:
# a client whose ping 11 reaches the server before the server's queue
# pair is gone waits for pong 11, but on a slow machine it may come
# after, and fail after its retries: which one depends on the machine's
# speed. A receive that never comes has no such race.)
test_ping_sr_0_counts_disagree_and_the_longer_side_waits() {
	require_rdma || return 0
	local server deadline=$((SECONDS + LIMIT))

	start_server ping-sr-0 -c 20 -v || return
	server=$(program_pid "$SERVER_PID")
	start_client ping-sr-0 -c 10 -v
	until has_line "$WORK/client.out" "^client: 10 round trips of 64 bytes"; do
		[ $SECONDS -lt $deadline ] ||
			{ fail "no client report: $(cat "$WORK"/*.out)"; return; }
		nap 0.1
	done
	sleep 3
	assertTrue "the ping-sr-0 server should still wait for ping 11" \
		"running $server"
	assertFalse "and have no report" \
		"grep -q 'round trips of' '$WORK/server.out'"
}

test_ping_sr_1_agent_adopts_the_clients_count() {
	require_rdma || return 0
	start_server ping-sr-1 || return
	run_client ping-sr-1 -c 20 -v
	wait_server
	assertEquals "client status; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server status; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" "^client: 20 round trips of 64 bytes"
	assert_output "$WORK/server.out" "^server: 20 round trips of 64 bytes"
}

# -v travels with the count and size: the client's -v is the agent's,
# and a server is not given one of its own to disagree with.
test_ping_sr_1_verify_is_the_clients() {
	require_rdma || return 0
	ping_pong_sides ping-sr-1 "-t" "-v"
	assert_output "$WORK/server.out" "^server: 50 round trips"
	assert_output "$WORK/server.out" "adopting .* verify yes"
	run_program "$KIT/ping-sr-1/server" -v
	assertEquals "server -v status" 2 "$STATUS"
	assert_output "$WORK/program.out" "^server: unknown option '-v'\$"
}

test_ping_sr_1_agent_adopts_the_clients_size() {
	require_rdma || return 0
	start_server ping-sr-1 || return
	run_client ping-sr-1 -c 25 -s 4096 -v
	wait_server
	assertEquals "client status; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server status; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" "^client: 25 round trips of 4096 bytes"
	assert_output "$WORK/server.out" "^server: 25 round trips of 4096 bytes"
}

test_ping_sr_1_large_and_small() {
	require_rdma || return 0
	ping_pong ping-sr-1 -v -c 20 -s 1048576
	PORT=$((PORT + 1))
	ping_pong ping-sr-1 -v -c 1000 -s 1
}

. shunit2
