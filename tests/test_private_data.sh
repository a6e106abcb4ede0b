#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Private-data validation: short, garbled, wrong-magic and out-of-range
# private data is refused with its reason; the server says why, survives,
# serves a good client next, and stays valgrind-clean throughout. (Both
# sides of a whole run under memcheck: the stage's single pair, in
# test_single.sh; the good client here runs natively.) The client hears
# the reason
# whichever way it awaits CM events: the test client is built with each
# (blocking, thread, nonblocking).
. "$(dirname "$0")/lib.sh"

# The stages whose agent adopts the client's private data, one for each
# way of awaiting CM events: ping-sr-3, blast-sr-2 and the RDMA stages
# check private data as ping-sr-2 does, with the same pieces (they differ
# in what runs after the agent has accepted, which each stage's single
# pair runs under memcheck in test_single.sh).
STAGES=${OUR_PDATA_STAGES:-ping-sr-1 ping-sr-2 ping-sr-4}
LIMIT=${OUR_VALGRIND_LIMIT:-300}

# case  what the client prints  what the server prints
CASES="short|its private data is too short
garbled|its private data is not ours, or of another version
magic|its private data is not ours, or of another version
version|its private data is not ours, or of another version
length|its private data is too short
count|the count is out of range
flags|its private data has flags we do not know
size|the size is out of range
oversize|the size is out of range
buffers|the buffer count is out of range"

# The ways a client awaits CM events; the test client is built with each,
# and the cases take them in turn.
CM_STYLES=(blocking thread nonblocking)

# refused_with CASE CM: the test client built with CM sends CASE to the
# server on $PORT and is refused; its output and status are kept as
# $WORK/CASE.out and $WORK/CASE.status.
refused_with() {
	timeout 60 "$KIT/tests/pdata-client-$2" "$ADDR" "$PORT" "$1" \
		>"$WORK/$1.out" 2>&1
	echo $? >"$WORK/$1.status"
}

# refusals STAGE: a server of STAGE under valgrind refuses each case in
# turn, then serves a good client.
refusals() {
	local stage=$1 name reason turn=0

	OUR_UNDER_VALGRIND=1 start_server "$stage" || return
	while IFS='|' read -r name reason; do
		refused_with "$name" "${CM_STYLES[$((turn % 3))]}"
		turn=$((turn + 1))
	done <<<"$CASES"
	# No count: ping-sr-1's agent would never see the run end.
	[ "$stage" = ping-sr-1 ] && refused_with untimed blocking
	# Still there, and still serving: a good client is accepted.
	whole_run_args "$stage"
	run_client "$stage" "${WHOLE_ARGS[@]}"
	wait_server
	save_statuses
}

# check_refused CASE REASON: the client was refused with status 3 and
# said REASON, and so did the server.
check_refused() {
	assertEquals "$stage, $1: status; $(<"$WORK/$1.out")" \
		3 "$(cat "$WORK/$1.status" 2>/dev/null)"
	assert_output "$WORK/$1.out" \
		"^pdata-client: the server refused us: $2\$"
	assert_output "$WORK/server.out" "^server: refusing .*: $2\$"
}

check_refusals() {
	local stage=$1 name reason

	statuses "$stage" || return
	while IFS='|' read -r name reason; do
		check_refused "$name" "$reason"
	done <<<"$CASES"
	[ "$stage" = ping-sr-1 ] && check_refused untimed \
		"this server cannot see a hang-up: a run needs a count"
	assertEquals "$stage: good client; $(<"$WORK/client.out")" \
		0 "$CLIENT_STATUS"
	assertEquals "$stage: server; $(<"$WORK/server.out")" \
		0 "$SERVER_STATUS"
	# The agent adopted the client's count and size.
	assert_whole_run client "$stage"
	assert_whole_run server "$stage"
	assert_valgrind_clean "$WORK/server.out"
}

# No private data at all (a NULL pointer, 0 bytes: what an iWARP client
# that sends none gives; over RoCE the CM pads it) is refused as too
# short without being copied: the check, built with the undefined
# behaviour sanitizer, would end the test at a memcpy from NULL.
test_no_private_data_is_refused_without_a_copy() {
	run_program "$KIT/tests/pdata-check"
	assertEquals "pdata-check; $(<"$WORK/program.out")" 0 "$STATUS"
	assert_output "$WORK/program.out" \
		"^pdata-check: refusing a client: its private data is too short\$"
	assert_output "$WORK/program.out" "^pdata-check: 2 checks passed\$"
	assert_no_output "$WORK/program.out" "runtime error"
}

test_servers_refuse_bad_private_data() {
	require_rdma || return 0
	# The stages side by side: valgrind is slow to start in the lab.
	# shellcheck disable=SC2086
	at_once refusals check_refusals $STAGES
}

. shunit2
