#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Problem 2 and its fix: a side that dies mid-run. ping-sr-1's survivor
# waits for ever, since nothing watches the connection while it polls;
# from ping-sr-2 on, the survivor sees the disconnect, says so, and exits
# within 5 seconds.
. "$(dirname "$0")/lib.sh"

WATCHING_STAGES=${OUR_DISCONNECT_STAGES:-ping-sr-2 ping-sr-3 ping-sr-4 blast-sr-2}
# Long enough that the run is still going when a side is killed.
LONG_RUN=(-c 1000000 -s 64)

# start_long_run STAGE: a server and a client in the middle of a long run;
# sets SERVER_REAL and CLIENT_REAL, the programs' own pids.
start_long_run() {
	start_server "$1" "${LONG_RUN[@]}" || return 1
	start_client "$1" "${LONG_RUN[@]}"
	SERVER_REAL=$(program_pid "$SERVER_PID")
	CLIENT_REAL=$(program_pid "$CLIENT_PID")
	sleep 2
	kill -0 "$CLIENT_REAL" 2>/dev/null && kill -0 "$SERVER_REAL" 2>/dev/null ||
		{ fail "$1: the run ended too early: $(cat "$WORK"/*.out)"; return 1; }
}

test_ping_sr_1_agent_waits_for_ever_when_the_client_dies() {
	require_rdma || return
	start_long_run ping-sr-1 || return
	kill -9 "$CLIENT_REAL"
	# The lesson: the agent is still polling for a pong that never comes.
	sleep 6
	assertTrue "the ping-sr-1 agent should still be waiting" \
		"kill -0 $SERVER_REAL"
	assertFalse "and not have noticed anything" \
		"grep -q disconnected '$WORK/server.out'"
}

test_ping_sr_1_client_waits_for_ever_when_the_server_dies() {
	require_rdma || return
	start_long_run ping-sr-1 || return
	kill -9 "$SERVER_REAL"
	sleep 6
	assertTrue "the ping-sr-1 client should still be waiting" \
		"kill -0 $CLIENT_REAL"
}

test_agents_see_the_client_die() {
	require_rdma || return
	local stage

	for stage in $WATCHING_STAGES; do
		start_long_run "$stage" || return
		kill -9 "$CLIENT_REAL"
		assertTrue "$stage agent should exit within 5 s" \
			"ends_within 5 $SERVER_REAL"
		wait_server
		assertEquals "$stage agent status; $(cat "$WORK/server.out")" \
			1 "$SERVER_STATUS"
		assert_output "$WORK/server.out" \
			"^server: [0-9.:]+ disconnected while we waited"
		wait "$CLIENT_PID" 2>/dev/null
		CLIENT_PID=
		PORT=$((PORT + 1))
	done
}

test_clients_see_the_server_die() {
	require_rdma || return
	local stage status

	for stage in $WATCHING_STAGES; do
		start_long_run "$stage" || return
		kill -9 "$SERVER_REAL"
		assertTrue "$stage client should exit within 5 s" \
			"ends_within 5 $CLIENT_REAL"
		wait "$CLIENT_PID"
		status=$?
		assertEquals "$stage client status; $(cat "$WORK/client.out")" \
			1 "$status"
		CLIENT_PID=
		assert_output "$WORK/client.out" \
			"^client: [0-9.:]+ disconnected while we waited"
		wait_server
		PORT=$((PORT + 1))
	done
}

. shunit2
