#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Valgrind memcheck: every client and server runs with 0 errors and no
# bytes definitely or indirectly lost, on success and on failure paths.
# valgrind takes seconds of CPU to start a program in the emulated lab, so
# each test starts its programs side by side.
. "$(dirname "$0")/lib.sh"

# The runs here, side by side: ping-sr-3 and blast-sr-2 run until Ctrl-C
# ends the client: the client unwinds after its report, the agent after
# the client hung up, through the same teardown as a run that reached its
# count. Both sides of a whole run under memcheck are each stage's single
# pair, in test_single.sh (the same code, in one file each); the stages'
# own servers serve a whole run under memcheck in test_private_data.sh.
RUNS=${OUR_VALGRIND_RUNS:-ping-sr-3 blast-sr-2}
# A client that finds no server unwinds through its CM piece and its
# private data piece, not the rest: each of those pieces once.
NO_SERVER_STAGES="ping-sr-0 ping-sr-2 ping-sr-4"
# valgrind is slow in the emulated lab: allow it time.
LIMIT=${OUR_VALGRIND_LIMIT:-300}

# memcheck_run STAGE: a run of STAGE, both sides under memcheck, that
# Ctrl-C ends.
memcheck_run() {
	OUR_UNDER_VALGRIND=1 ctrl_c_ends_a_timed_run "$1"
	save_statuses
}

check_memcheck_run() {
	statuses "$1" || return
	assert_ctrl_c_ended_clean "$1"
}

test_interrupted_runs_under_valgrind() {
	require_rdma || return 0
	# shellcheck disable=SC2086
	at_once memcheck_run check_memcheck_run $RUNS
}

test_failures_under_valgrind() {
	require_rdma || return 0
	local stage

	# No server listens: the client unwinds what it set up.
	for stage in $NO_SERVER_STAGES; do
		in_background "$stage.no-server" "${VALGRIND[@]}" \
			"$KIT/$stage/client" -a "$ADDR" -p "$PORT" -c 5
	done
	# A name that does not resolve: the same code in every stage.
	in_background bad-name "${VALGRIND[@]}" \
		"$KIT/ping-sr-0/client" -a no-such-host.invalid
	# Bad usage: the options code every program shares.
	in_background bad-usage "${VALGRIND[@]}" "$KIT/ping-sr-0/server" -c 0
	# And the device listing.
	in_background devices "${VALGRIND[@]}" "$KIT/devices/devices"
	wait
	for stage in $NO_SERVER_STAGES; do
		assert_ended "$stage.no-server" 1 "no server listens"
	done
	assert_ended bad-name 1 "cannot resolve .no-such-host.invalid."
	assert_ended bad-usage 2 "-c must be 1 to"
	assert_ended devices 0 "${DEVICE:-.}"
}

# assert_ended NAME STATUS REGEX: the program run as NAME (in_background)
# exited with STATUS, said REGEX, and valgrind had nothing to report.
assert_ended() {
	local out=$WORK/$1.out

	assertEquals "$1: exit status; $(<"$out")" "$2" \
		"$(cat "$WORK/$1.status" 2>/dev/null)"
	assert_output "$out" "$3"
	assert_valgrind_clean "$out"
}

. shunit2
