#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Private-data validation: short, garbled, wrong-magic and out-of-range
# private data is refused with its reason; the server says why, survives,
# serves a good client next, and stays valgrind-clean throughout. The
# client hears the reason whichever way it awaits CM events: the test
# client is built with each (blocking, thread, nonblocking).
. "$(dirname "$0")/lib.sh"

# The stages whose agent adopts the client's private data.
# ping-sr-3 checks private data as ping-sr-2 does, with the same pieces.
STAGES=${OUR_PDATA_STAGES:-ping-sr-1 ping-sr-2 ping-sr-4 blast-sr-2}
LIMIT=${OUR_VALGRIND_LIMIT:-300}

# case  what the client prints  what the server prints
CASES="short|its private data is too short
garbled|its private data does not start with the kit's magic
magic|its private data does not start with the kit's magic
version|its private data has a version we do not know
length|its private data is too short
count|the count is out of range
flags|its private data has flags we do not know
size|the size is out of range
oversize|the size is out of range
buffers|the buffer count is out of range"

# The ways a client awaits CM events; the test client is built with each,
# and the cases take them in turn.
CM_STYLES=(blocking thread nonblocking)

# refused_with CASE REASON CM: the test client built with CM sends CASE to
# the server on $PORT, is refused and says REASON, and so does the server.
refused_with() {
	local name=$1 reason=$2 cm=$3 status

	timeout 60 "$KIT/tests/pdata-client-$cm" "$ADDR" "$PORT" "$name" \
		>"$WORK/pdata.out" 2>&1
	status=$?
	assertEquals "$stage, $name, $cm: status; $(cat "$WORK/pdata.out")" \
		3 "$status"
	assert_output "$WORK/pdata.out" \
		"^pdata-client: the server refused us: $reason\$"
	assert_output "$WORK/server.out" "^server: refusing .*: $reason\$"
}

refuses_bad_private_data() {
	local stage=$1 name reason turn=0

	OUR_UNDER_VALGRIND=1 start_server "$stage" || return
	while IFS='|' read -r name reason; do
		refused_with "$name" "$reason" "${CM_STYLES[$((turn % 3))]}"
		turn=$((turn + 1))
	done <<<"$CASES"
	# No count: ping-sr-1's agent would never see the run end.
	[ "$stage" = ping-sr-1 ] && refused_with untimed \
		"this server cannot see a client hang up, so a run needs a count" \
		blocking
	# Still there, and still serving: a good client is accepted.
	run_client "$stage" -c 5 -s 100 -v
	wait_server
	assertEquals "$stage: good client; $(cat "$WORK/client.out")" \
		0 "$CLIENT_STATUS"
	assertEquals "$stage: server; $(cat "$WORK/server.out")" \
		0 "$SERVER_STATUS"
	assert_valgrind_clean "$WORK/server.out"
}

test_servers_refuse_bad_private_data() {
	require_rdma || return 0
	local stage

	for stage in $STAGES; do
		refuses_bad_private_data "$stage"
		PORT=$((PORT + 1))
	done
}

. shunit2
