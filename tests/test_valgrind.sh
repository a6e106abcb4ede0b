#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Valgrind memcheck: every client and server runs with 0 errors and no
# bytes definitely or indirectly lost, on success and on failure paths.
. "$(dirname "$0")/lib.sh"

# ping-sr-4 has its own valgrind tests, in test_ping_sr_4.sh.
STAGES=${OUR_STAGES:-ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-3 blast-sr-2}
# A client that finds no server unwinds through its CM piece and its
# private data piece, not the rest: one stage of each pair of them.
NO_SERVER_STAGES="ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-4"
# valgrind is slow in the emulated lab: allow it time.
LIMIT=${OUR_VALGRIND_LIMIT:-300}

test_ping_pong_under_valgrind() {
	require_rdma || return 0
	local stage

	for stage in $STAGES; do
		OUR_UNDER_VALGRIND=1 ping_pong "$stage" -v -x -c 20 -s 1000
		assert_valgrind_clean "$WORK/client.out"
		assert_valgrind_clean "$WORK/server.out"
		PORT=$((PORT + 1))
	done
}

test_failures_under_valgrind() {
	require_rdma || return 0
	local stage

	for stage in $NO_SERVER_STAGES; do
		# No server listens: the client unwinds what it set up.
		OUR_UNDER_VALGRIND=1 run_client "$stage" -c 5
		assertEquals "no server: exit status" 1 "$CLIENT_STATUS"
		assert_output "$WORK/client.out" "no server listens"
		assert_valgrind_clean "$WORK/client.out"
	done
	# A name that does not resolve, and bad usage: the same code in
	# every stage, tried with a ping and a blast program.
	for stage in ping-sr-0 blast-sr-2; do
		run_program "${VALGRIND[@]}" "$KIT/$stage/client" \
			-a no-such-host.invalid
		assertEquals "bad name: exit status" 1 "$STATUS"
		assert_valgrind_clean "$WORK/program.out"
		run_program "${VALGRIND[@]}" "$KIT/$stage/server" -c 0
		assertEquals "bad usage: exit status" 2 "$STATUS"
		assert_valgrind_clean "$WORK/program.out"
	done
}

# Ctrl-C ends the client's timed run: the client unwinds after its
# report, the agent after the client hung up. Both release everything.
test_ctrl_c_under_valgrind() {
	require_rdma || return 0
	local stage

	# ping-sr-4's are in test_ping_sr_4.sh.
	for stage in ping-sr-3 blast-sr-2; do
		OUR_UNDER_VALGRIND=1 ctrl_c_ends_a_timed_run "$stage" || return
		assertEquals "$stage client; $(cat "$WORK/client.out")" \
			130 "$CLIENT_STATUS"
		assertEquals "$stage server; $(cat "$WORK/server.out")" \
			0 "$SERVER_STATUS"
		assert_output "$WORK/server.out" "ended the run after [0-9]+ "
		assert_valgrind_clean "$WORK/client.out"
		assert_valgrind_clean "$WORK/server.out"
		PORT=$((PORT + 1))
	done
}

test_devices_under_valgrind() {
	require_rdma || return 0
	run_program "${VALGRIND[@]}" "$KIT/devices/devices"
	assertEquals "exit status; $(cat "$WORK/program.out")" 0 "$STATUS"
	assert_valgrind_clean "$WORK/program.out"
}

. shunit2
