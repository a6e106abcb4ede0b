#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Ctrl-C (SIGINT) and SIGTERM end a run cleanly: the side that gets one
# finishes the transfer in progress, disconnects, prints its report and
# exits with 130 or 143; from ping-sr-2 on its peer says that it ended the
# run after as many transfers. And -D: a run bounded by time, not count.
. "$(dirname "$0")/lib.sh"

STAGES=${OUR_INTERRUPT_STAGES:-ping-sr-2 ping-sr-3 ping-sr-4 blast-sr-2}

# counts_agree STAGE: the two reports count the same transfers, give or
# take those in flight when the run ended: the round trip in progress, or
# the messages of a blast (-b, 4 by default) that the client saw complete
# and an interrupted agent stopped before it took in.
counts_agree() {
	local client server slack=1

	[[ $1 = blast-* ]] && slack=4
	client=$(reported_count client)
	server=$(reported_count server)
	assertTrue "$1: client counted '$client', server '$server'" \
		"[ -n '$client' ] && [ -n '$server' ] &&
		 [ \$(( $client - $server )) -le $slack ] &&
		 [ \$(( $server - $client )) -le $slack ]"
}

# interrupt SIDE SIGNAL STATUS STAGE...: a timed run of each stage; once
# SIDE's run is under way, send SIGNAL to SIDE, which must exit with
# STATUS and say so; its peer says that it ended the run.
interrupt() {
	local side=$1 signal=$2 expected=$3 stage peer words
	shift 3

	require_rdma || return 0
	for stage in "$@"; do
		# -T: SIDE's first work completion says its run is under way.
		if [ "$side" = client ]; then
			start_timed_run "$stage" -v -T || return
		else
			start_timed_run "$stage" -v -- -T || return
		fi
		wait_under_way "$side" "$stage" || return
		if [ "$side" = client ]; then
			peer=server
			kill -"$signal" "$CLIENT_REAL"
			wait_client
			wait_server
			assertEquals "$stage client status; $(<"$WORK/client.out")" \
				"$expected" "$CLIENT_STATUS"
			# The agent of a timed run: the client says when it ends.
			assertEquals "$stage server status; $(<"$WORK/server.out")" \
				0 "$SERVER_STATUS"
		else
			peer=client
			kill -"$signal" "$SERVER_REAL"
			wait_server
			wait_client
			assertEquals "$stage server status; $(<"$WORK/server.out")" \
				"$expected" "$SERVER_STATUS"
			assertEquals "$stage client status; $(<"$WORK/client.out")" \
				1 "$CLIENT_STATUS"
		fi
		words="Ctrl-C \\(SIGINT\\)"
		[ "$signal" = TERM ] && words=SIGTERM
		assert_output "$WORK/$side.out" \
			"^$side: interrupted by $words after [0-9]+ "
		assert_output "$WORK/$side.out" \
			"^$side: [0-9]+ (round trip|message)s? of 64 bytes in "
		assert_output "$WORK/$peer.out" \
			"^$peer: [0-9.:]+ ended the run after [0-9]+ "
		counts_agree "$stage"
		PORT=$((PORT + 1))
	done
}

test_ctrl_c_ends_the_client_cleanly() {
	interrupt client INT 130 $STAGES
}

# SIGTERM takes the same path as Ctrl-C: two stages of each CM piece.
test_sigterm_ends_the_client_cleanly() {
	interrupt client TERM 143 ping-sr-3 ping-sr-4
}

test_ctrl_c_ends_the_server_cleanly() {
	interrupt server INT 130 $STAGES
}

test_sigterm_ends_the_server_cleanly() {
	interrupt server TERM 143 ping-sr-2 blast-sr-2
}

# The RDMA stages' agents stop at Ctrl-C too, their last notice sent,
# taking no more of the client's: their clients' Ctrl-C is tried under
# memcheck in their own suites.
test_ctrl_c_ends_an_rdma_server_cleanly() {
	interrupt server INT 130 ping-rdma-1 ping-rdma-2 blast-rdma-1
}

# Before ping-sr-2 the interrupted side still ends cleanly with its report;
# only its peer cannot tell (problem 2), so the test ends the peer.
test_ctrl_c_ends_a_ping_sr_0_client_cleanly() {
	require_rdma || return 0
	start_server ping-sr-0 -c 10000000 || return
	start_client ping-sr-0 -c 10000000 -T
	SERVER_REAL=$(program_pid "$SERVER_PID")
	CLIENT_REAL=$(program_pid "$CLIENT_PID")
	wait_connected || return
	wait_under_way client ping-sr-0 || return
	kill -INT "$CLIENT_REAL"
	wait_client
	assertEquals "client status; $(<"$WORK/client.out")" 130 \
		"$CLIENT_STATUS"
	assert_output "$WORK/client.out" \
		"^client: interrupted by Ctrl-C \\(SIGINT\\) after [0-9]+ round trips?\$"
	assert_output "$WORK/client.out" "^client: [0-9]+ round trips? of 64 bytes"
}

# -D: the client runs for the time asked, whatever the lab's speed, and
# the agent, which has no count, ends with it: both succeed.
test_duration_bounds_the_run() {
	require_rdma || return 0
	local stage

	for stage in $STAGES; do
		start_server "$stage" || return
		run_client "$stage" -D 1 -v -x
		wait_server
		assertEquals "$stage client status; $(<"$WORK/client.out")" \
			0 "$CLIENT_STATUS"
		assertEquals "$stage server status; $(<"$WORK/server.out")" \
			0 "$SERVER_STATUS"
		assert_output "$WORK/client.out" \
			"^client: [0-9]+ (round trip|message)s? of 64 bytes in [1-3]\\.[0-9]+ s\$"
		counts_agree "$stage"
		PORT=$((PORT + 1))
	done
}

. shunit2
