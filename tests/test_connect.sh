#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the connection manager does when a server is slow to take its
# clients, provoked: a server stopped (SIGSTOP) while clients connect.
# Its CM holds the first client's request for it and tells the client's
# CM to wait (an MRA, "message received, acknowledgement delayed"), so
# that client waits as long as it must and gets its run once the server
# goes on. The server listens with a backlog of one: a second request
# finds it full, its CM drops it without a reply, the second client's CM
# resends it until its retries run out, and the client says it timed
# out. (No listener at all: test_bad_input.sh. What the programs say:
# our_explain_cm_failure in common/connection.c; the story:
# ping-sr-0/README.md.) Its runs wait on the CM's clock, not on a CPU:
# tests/run: beside
. "$(dirname "$0")/lib.sh"

# The second client waits for its CM's retries (over 100 s in the lab),
# then the first for its run: allow both.
LIMIT=${OUR_CONNECT_LIMIT:-400}

# request_pending PID: until the server PID, stopped, has a connection
# request waiting for it: its CM has made an id for the request, in
# state CONNECT, on our port.
request_pending() {
	local deadline=$((SECONDS + LIMIT))

	while [ $SECONDS -lt $deadline ]; do
		rdma res show cm_id |
			grep -Eq "state CONNECT .*pid $1 .*src-addr [^ ]+:$PORT " &&
			return 0
		nap 0.2
	done
	return 1
}

# stopped_server STAGE: the server of STAGE, stopped once it listens;
# a first client connects, then a second. Once the second has ended (its
# CM gave up), the first must still be waiting: the server goes on, and
# serves it. Leaves the outputs and statuses, and the notes "pending"
# (the CM held the first request) and "waited" (the first client outlived
# the second's retries) in $WORK.
stopped_server() {
	local stage=${1#*.} first

	whole_run_args "$stage"
	start_server "$stage" "${WHOLE_SERVER_ARGS[@]}" || return
	SERVER_REAL=$(program_pid "$SERVER_PID")
	kill -STOP "$SERVER_REAL"
	stopped "$SERVER_REAL"
	start_client "$stage" "${WHOLE_ARGS[@]}"
	first=$CLIENT_PID
	request_pending "$SERVER_REAL" && echo yes >"$WORK/pending"
	CLIENT_OUT=$WORK/second.out
	program_command client "$stage"
	SECONDS=0
	"${COMMAND[@]}" -a "$ADDR" -p "$PORT" -v >"$CLIENT_OUT" 2>&1
	echo "$? $SECONDS" >"$WORK/second.status"
	running "$first" && echo yes >"$WORK/waited"
	kill -CONT "$SERVER_REAL"
	CLIENT_PID=$first
	wait_client
	wait_server
	save_statuses
}

check_stopped_server() {
	local stage=${1#*.} status seconds

	statuses "$1" || return
	read -r status seconds <"$WORK/second.status"
	echo "  $stage: the second client gave up after $seconds s"
	assertEquals "$stage: the CM held no request for the stopped server" \
		yes "$(cat "$WORK/pending" 2>/dev/null)"
	assertEquals "$stage second client; $(<"$WORK/second.out")" \
		1 "$status"
	assert_output "$WORK/second.out" \
		"^client: $ADDR:[0-9]+ does not answer: timed out after the CM's retries"
	assertEquals "$stage: the first client did not outlive the second's retries; $(<"$WORK/client.out")" \
		yes "$(cat "$WORK/waited" 2>/dev/null)"
	assertEquals "$stage first client; $(<"$WORK/client.out")" \
		0 "$CLIENT_STATUS"
	assertEquals "$stage server; $(<"$WORK/server.out")" \
		0 "$SERVER_STATUS"
	assert_whole_run client "$stage"
	assert_whole_run server "$stage"
}

# The blocking connect of ping-sr-0 and the event channel of ping-sr-2,
# side by side: both wait on the CM's clock, not on a CPU.
test_a_stopped_server_gets_its_client_and_a_full_backlog_times_out() {
	require_rdma || return 0
	at_once stopped_server check_stopped_server \
		stopped.ping-sr-0 stopped.ping-sr-2
}

. shunit2
