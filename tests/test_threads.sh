#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CM event thread is thread-safe: helgrind reports no race, no lock
# misuse, in a whole run, when the peer dies mid-run and when Ctrl-C ends
# the run.
. "$(dirname "$0")/lib.sh"

STAGES=${OUR_THREAD_STAGES:-ping-sr-2 ping-sr-3 blast-sr-2}
LIMIT=${OUR_VALGRIND_LIMIT:-300}

test_whole_run_under_helgrind() {
	require_rdma || return 0
	local stage

	for stage in $STAGES; do
		timeout -k 5 "$LIMIT" "${HELGRIND[@]}" "$KIT/$stage/server" \
			-a "$ADDR" -p "$PORT" >"$WORK/server.out" 2>&1 &
		SERVER_PID=$!
		wait_listening "$PORT" "$LIMIT" || fail "$stage: no server"
		timeout -k 5 "$LIMIT" "${HELGRIND[@]}" "$KIT/$stage/client" \
			-a "$ADDR" -p "$PORT" -c 50 -v >"$WORK/client.out" 2>&1
		assertEquals "$stage client; $(cat "$WORK/client.out")" 0 $?
		wait_server
		assertEquals "$stage server; $(cat "$WORK/server.out")" \
			0 "$SERVER_STATUS"
		assert_valgrind_clean "$WORK/client.out"
		assert_valgrind_clean "$WORK/server.out"
		PORT=$((PORT + 1))
	done
}

# The kill itself is tried 20 times a stage in test_disconnect.sh; under
# helgrind, once for the ping exchange and once for the blast.
test_disconnect_under_helgrind() {
	require_rdma || return 0
	local stage client

	for stage in ping-sr-3 blast-sr-2; do
		timeout -k 5 "$LIMIT" "${HELGRIND[@]}" "$KIT/$stage/server" \
			-a "$ADDR" -p "$PORT" >"$WORK/server.out" 2>&1 &
		SERVER_PID=$!
		wait_listening "$PORT" "$LIMIT" || fail "$stage: no server"
		start_client "$stage" -D 3600
		client=$(program_pid "$CLIENT_PID")
		wait_connected || return
		sleep 1
		kill -9 "$client"
		wait_server
		# A timed run ends when the client goes: not a failure.
		assertEquals "$stage server; $(cat "$WORK/server.out")" \
			0 "$SERVER_STATUS"
		assert_output "$WORK/server.out" "ended the run after [0-9]+ "
		assert_valgrind_clean "$WORK/server.out"
		wait "$CLIENT_PID" 2>/dev/null
		CLIENT_PID=
		PORT=$((PORT + 1))
	done
}

# The thread blocks the signals it must leave to the main thread: the
# same code in every stage that has the thread.
test_ctrl_c_under_helgrind() {
	require_rdma || return 0
	local stage

	for stage in ping-sr-2; do
		OUR_UNDER_VALGRIND=helgrind ctrl_c_ends_a_timed_run "$stage" ||
			return
		assertEquals "$stage client; $(cat "$WORK/client.out")" \
			130 "$CLIENT_STATUS"
		assertEquals "$stage server; $(cat "$WORK/server.out")" \
			0 "$SERVER_STATUS"
		assert_output "$WORK/client.out" "interrupted by Ctrl-C"
		assert_valgrind_clean "$WORK/client.out"
		assert_valgrind_clean "$WORK/server.out"
		PORT=$((PORT + 1))
	done
}

. shunit2
