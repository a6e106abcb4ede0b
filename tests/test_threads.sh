#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CM event thread is thread-safe: helgrind reports no race, no lock
# misuse, in a whole run, when the peer dies mid-run and when Ctrl-C ends
# the run. Each test runs its stages side by side (helgrind is slow to
# start in the emulated lab).
. "$(dirname "$0")/lib.sh"

# ping-sr-2's run under helgrind is the one Ctrl-C ends (below): the same
# thread, started and joined the same way, with the signals added.
STAGES=${OUR_THREAD_STAGES:-ping-sr-3 blast-sr-2}
LIMIT=${OUR_VALGRIND_LIMIT:-300}

whole_run() {
	OUR_UNDER_VALGRIND=helgrind start_server "$1" || return
	OUR_UNDER_VALGRIND=helgrind run_client "$1" -c 50 -v
	wait_server
	save_statuses
}

check_whole_run() {
	statuses "$1" || return
	assertEquals "$1 client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "$1 server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_valgrind_clean "$WORK/client.out"
	assert_valgrind_clean "$WORK/server.out"
}

test_whole_run_under_helgrind() {
	require_rdma || return 0
	# shellcheck disable=SC2086
	at_once whole_run check_whole_run $STAGES
}

# The kill itself is tried 8 times a stage in test_disconnect.sh; under
# helgrind, once for the ping exchange and once for the blast: the agent
# under helgrind loses its client.
killed_client_run() {
	OUR_UNDER_VALGRIND=helgrind start_server "$1" || return
	start_client "$1" -D 3600
	SERVER_REAL=$(program_pid "$SERVER_PID")
	CLIENT_REAL=$(program_pid "$CLIENT_PID")
	wait_connected || return
	sleep 1
	kill -9 "$CLIENT_REAL"
	wait_server
	wait_client
	save_statuses
}

check_killed_client_run() {
	statuses "$1" || return
	# A timed run ends when the client goes: not a failure.
	assertEquals "$1 server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" "ended the run after [0-9]+ "
	assert_valgrind_clean "$WORK/server.out"
}

test_disconnect_under_helgrind() {
	require_rdma || return 0
	at_once killed_client_run check_killed_client_run ping-sr-3 blast-sr-2
}

# The thread blocks the signals it must leave to the main thread: the
# same code in every stage that has the thread.
test_ctrl_c_under_helgrind() {
	require_rdma || return 0
	local stage=ping-sr-2

	OUR_UNDER_VALGRIND=helgrind ctrl_c_ends_a_timed_run "$stage" || return
	assert_ctrl_c_ended_clean "$stage"
}

. shunit2
