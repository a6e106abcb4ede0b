#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Problem 3 and its fix: while the client is paused (SIGSTOP), ping-sr-2's
# agent burns a CPU busy-polling for the next ping; ping-sr-3's sleeps on
# its completion channel and uses almost none. After SIGCONT both runs
# complete. CPU time is read from /proc.
. "$(dirname "$0")/lib.sh"

BLOCKING_STAGES=${OUR_BLOCKING_STAGES:-ping-sr-3 ping-sr-4}
PAUSE=3
RUN=(-c 30000 -s 64 -x)
# The emulated lab's round trips vary a lot in time: allow for it.
LIMIT=180

# wait_connected: until the run on $PORT is connected, up to 30 seconds.
wait_connected() {
	local deadline=$((SECONDS + 30))

	while [ $SECONDS -lt $deadline ]; do
		rdma resource show cm_id 2>/dev/null |
			grep -q "state CONNECT .* src-addr [^ ]*:$PORT " && return 0
		sleep 0.05
	done
	return 1
}

# paused_cpu STAGE: run STAGE, pause the client for $PAUSE seconds mid-run
# and set PAUSED_TICKS to the CPU ticks the agent used meanwhile; then let
# the run finish and check that it did.
paused_cpu() {
	local stage=$1 server client before status

	start_server "$stage" "${RUN[@]}" || return 1
	start_client "$stage" "${RUN[@]}"
	server=$(program_pid "$SERVER_PID")
	client=$(program_pid "$CLIENT_PID")
	wait_connected
	sleep 0.1
	kill -0 "$client" 2>/dev/null ||
		{ fail "$stage: the run ended before the pause"; return 1; }
	kill -STOP "$client"
	before=$(cpu_ticks "$server")
	sleep $PAUSE
	PAUSED_TICKS=$(($(cpu_ticks "$server") - before))
	kill -CONT "$client"
	wait "$CLIENT_PID"
	status=$?
	CLIENT_PID=
	wait_server
	assertEquals "$stage client; $(cat "$WORK/client.out")" 0 "$status"
	assertEquals "$stage server; $(cat "$WORK/server.out")" \
		0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" "^server: 30000 round trips"
	assert_output "$WORK/server.out" "^server: cpu: .* utilization [0-9.]+%"
	echo "$stage: agent used $PAUSED_TICKS of $((PAUSE * $(getconf CLK_TCK))) ticks while the client was paused"
}

test_busy_polling_burns_a_cpu_while_waiting() {
	require_rdma || return
	local ticks=$((PAUSE * $(getconf CLK_TCK)))

	paused_cpu ping-sr-2 || return
	# Close to one CPU-second per second paused: at least 70% of it.
	assertTrue "ping-sr-2 used $PAUSED_TICKS of $ticks ticks" \
		"[ $((PAUSED_TICKS * 10)) -ge $((ticks * 7)) ]"
}

test_completion_channel_rests_while_waiting() {
	require_rdma || return
	local ticks=$((PAUSE * $(getconf CLK_TCK))) stage

	for stage in $BLOCKING_STAGES; do
		paused_cpu "$stage" || return
		# Almost none: under 10% of the paused time.
		assertTrue "$stage used $PAUSED_TICKS of $ticks ticks" \
			"[ $((PAUSED_TICKS * 10)) -lt $ticks ]"
		PORT=$((PORT + 1))
	done
}

. shunit2
