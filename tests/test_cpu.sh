#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Problem 3 and its fix: while the client is paused (SIGSTOP), ping-sr-2's
# agent burns a CPU busy-polling for the next ping; ping-sr-3's sleeps on
# its completion channel and uses almost none. After SIGCONT both runs
# complete. CPU time is read from /proc.
# tests/run: alone
. "$(dirname "$0")/lib.sh"

BLOCKING_STAGES=${OUR_BLOCKING_STAGES:-ping-sr-3 ping-sr-4}
PAUSE=3
# The emulated lab's round trips vary a lot in time: allow for it.
LIMIT=180

# The client runs this long: the pause, taken as soon as the connection
# is up, falls mid-run however fast or slow the lab is today.
DURATION=$((PAUSE + 3))

# wait_first_pong: until the agent (traced with -t) has sent its first
# pong, so that the client's run is under way. (Once it has accepted is
# too soon: a client stopped before its first ping would not count the
# pause in any round trip.)
wait_first_pong() {
	local tries=3000

	while [ $tries -gt 0 ]; do
		has_line "$WORK/server.out" "^server: ibv_post_send .* -> 0" &&
			return 0
		nap 0.01
		tries=$((tries - 1))
	done
	return 1
}

# paused_cpu STAGE: run STAGE, pause the client for $PAUSE seconds mid-run
# and set PAUSED_TICKS to the CPU ticks the agent used meanwhile; then let
# the run finish and check that it did.
paused_cpu() {
	local stage=$1 server client before status

	start_server "$stage" -x -t || return 1
	start_client "$stage" -D "$DURATION" -x
	server=$(program_pid "$SERVER_PID")
	client=$(program_pid "$CLIENT_PID")
	wait_first_pong
	kill -STOP "$client"
	before=$(cpu_ticks "$server")
	sleep $PAUSE
	PAUSED_TICKS=$(($(cpu_ticks "$server") - before))
	kill -CONT "$client"
	wait "$CLIENT_PID"
	status=$?
	CLIENT_PID=
	wait_server
	assertEquals "$stage client; $(<"$WORK/client.out")" 0 "$status"
	assertEquals "$stage server; $(tail "$WORK/server.out")" \
		0 "$SERVER_STATUS"
	# The pause fell mid-run: the client's slowest round trip had it.
	assert_output "$WORK/client.out" "^client: latency us: .* max [3-9][0-9]{6}\."
	assert_output "$WORK/server.out" "^server: [0-9]+ round trips"
	assert_output "$WORK/server.out" "^server: cpu: .* utilization [0-9.]+%"
	echo "  $stage: the agent used $PAUSED_TICKS of" \
		"$((PAUSE * $(getconf CLK_TCK))) ticks while the client was paused"
}

test_busy_polling_burns_a_cpu_while_waiting() {
	require_rdma || return 0
	local ticks=$((PAUSE * $(getconf CLK_TCK)))

	paused_cpu ping-sr-2 || return
	# Close to one CPU-second per second paused: at least 70% of it.
	assertTrue "ping-sr-2 used $PAUSED_TICKS of $ticks ticks" \
		"[ $((PAUSED_TICKS * 10)) -ge $((ticks * 7)) ]"
}

test_completion_channel_rests_while_waiting() {
	require_rdma || return 0
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
