#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Valgrind memcheck: every client and server runs with 0 errors and no
# bytes definitely or indirectly lost, on success and on failure paths.
# valgrind takes seconds of CPU to start a program in the emulated lab, so
# each test starts its programs side by side.
. "$(dirname "$0")/lib.sh"

# The stages whose whole run is here: the others (ping-sr-1, 2, 4 and
# blast-sr-2) run whole under memcheck in test_private_data.sh, where the
# server first refuses bad private data and then serves a good client.
STAGES=${OUR_STAGES:-ping-sr-0 ping-sr-3}
# A client that finds no server unwinds through its CM piece and its
# private data piece, not the rest: one stage of each pair of them.
NO_SERVER_STAGES="ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-4"
# valgrind is slow in the emulated lab: allow it time.
LIMIT=${OUR_VALGRIND_LIMIT:-300}

# whole_run STAGE: a short verified run, both sides under memcheck.
# ping-sr-0's server is told the count and size: it gets no private data.
whole_run() {
	local told=()

	whole_run_args "$1"
	[ "$1" = ping-sr-0 ] && told=(-c 20 -s 1000)
	OUR_UNDER_VALGRIND=1 start_server "$1" "${told[@]}" || return
	OUR_UNDER_VALGRIND=1 run_client "$1" "${WHOLE_ARGS[@]}"
	wait_server
	save_statuses
}

check_whole_run() {
	statuses "$1" || return
	assertEquals "$1 client; $(cat "$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "$1 server; $(cat "$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_whole_run client "$1"
	assert_whole_run server "$1"
	assert_valgrind_clean "$WORK/client.out"
	assert_valgrind_clean "$WORK/server.out"
}

test_whole_runs_under_valgrind() {
	require_rdma || return 0
	# shellcheck disable=SC2086
	at_once whole_run check_whole_run $STAGES
}

test_failures_under_valgrind() {
	require_rdma || return 0
	local stage

	# No server listens: the client unwinds what it set up.
	for stage in $NO_SERVER_STAGES; do
		in_background "$stage.no-server" "${VALGRIND[@]}" \
			"$KIT/$stage/client" -a "$ADDR" -p "$PORT" -c 5
	done
	# A name that does not resolve: the same code in every stage, after
	# an event channel in some; tried with a ping and a blast program.
	for stage in ping-sr-0 blast-sr-2; do
		in_background "$stage.bad-name" "${VALGRIND[@]}" \
			"$KIT/$stage/client" -a no-such-host.invalid
	done
	# Bad usage: the options code every program shares.
	in_background bad-usage "${VALGRIND[@]}" "$KIT/blast-sr-2/server" -c 0
	# And the device listing.
	in_background devices "${VALGRIND[@]}" "$KIT/devices/devices"
	wait
	for stage in $NO_SERVER_STAGES; do
		assert_ended "$stage.no-server" 1 "no server listens"
	done
	for stage in ping-sr-0 blast-sr-2; do
		assert_ended "$stage.bad-name" 1 "cannot resolve .no-such-host.invalid."
	done
	assert_ended bad-usage 2 "count must be 1 to"
	assert_ended devices 0 "${DEVICE:-.}"
}

# assert_ended NAME STATUS REGEX: the program run as NAME (in_background)
# exited with STATUS, said REGEX, and valgrind had nothing to report.
assert_ended() {
	local out=$WORK/$1.out

	assertEquals "$1: exit status; $(cat "$out")" "$2" \
		"$(cat "$WORK/$1.status" 2>/dev/null)"
	assert_output "$out" "$3"
	assert_valgrind_clean "$out"
}

# Ctrl-C ends the client's timed run: the client unwinds after its
# report, the agent after the client hung up. Both release everything.
ctrl_c_run() {
	OUR_UNDER_VALGRIND=1 ctrl_c_ends_a_timed_run "$1"
	save_statuses
}

check_ctrl_c_run() {
	statuses "$1" || return
	assert_ctrl_c_ended_clean "$1"
}

test_ctrl_c_under_valgrind() {
	require_rdma || return 0
	# ping-sr-4's are in test_ping_sr_4.sh.
	at_once ctrl_c_run check_ctrl_c_run ping-sr-3 blast-sr-2
}

. shunit2
