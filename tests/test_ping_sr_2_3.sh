#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ping-sr-2 and ping-sr-3: verified ping-pongs from 1 byte to 1 MiB, and a
# server that listens on every address (no -a).
. "$(dirname "$0")/lib.sh"

STAGES="ping-sr-2 ping-sr-3"

test_one_byte_500_times() {
	require_rdma || return 0
	local stage

	for stage in $STAGES; do
		verified "$stage" 500 1
	done
}

test_1_mib_20_times() {
	require_rdma || return 0
	local stage

	for stage in $STAGES; do
		verified "$stage" 20 1048576
	done
}

# Without -a the server listens on every local address; the client names
# the one that carries the RDMA device.
test_server_without_an_address() {
	require_rdma || return 0
	timeout -k 5 "$LIMIT" "${ON_SERVER_CPU[@]}" "$KIT/ping-sr-2/server" \
		-p "$PORT" -t >"$WORK/server.out" 2>&1 &
	SERVER_PID=$!
	wait_for_line "$WORK/server.out" "^server: listening on " \
		"$SERVER_PID" "$LIMIT" || fail "no server on port $PORT"
	run_client ping-sr-2 -c 10 -v
	wait_server
	assertEquals "client status; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server status; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" "^server: listening on (0\\.0\\.0\\.0|::):$PORT\$"
	assert_output "$WORK/server.out" "^server: 10 round trips of 64 bytes"
}

. shunit2
