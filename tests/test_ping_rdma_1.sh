#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ping-rdma-1: the ping-pong by RDMA write. Verified from 1 byte to 1 MiB;
# each side advertises its memory and traces the peer's; a write lands
# while the agent's CPU is stopped; a target whose memory is not open to
# remote writes gives the writer a remote access error that it explains;
# advertisements that cannot be used are refused with their reason; and
# both sides run under memcheck, to the end and to Ctrl-C.
. "$(dirname "$0")/lib.sh"

STAGE=ping-rdma-1
LIMIT=${OUR_VALGRIND_LIMIT:-300}

test_verified_from_1_byte_to_1_mib() {
	require_rdma || return 0
	verified "$STAGE" 300 1
	verified "$STAGE" 100 4096
	verified "$STAGE" 10 1048576
}

# -t shows what each side advertised and what it took from the peer; -x
# gives the statistics of a ping-pong.
test_trace_shows_the_memory_each_side_advertised() {
	require_rdma || return 0
	local hex='0x[0-9a-f]+'

	start_server "$STAGE" -t || return
	run_client "$STAGE" -t -x -c 50 -s 100
	wait_server
	assertEquals "client; $(cat "$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(cat "$WORK/server.out")" 0 "$SERVER_STATUS"
	for side in client server; do
		assert_output "$WORK/$side.out" \
			"^$side: remote buffers: 100 bytes at $hex, rkey $hex\$"
		assert_output "$WORK/$side.out" \
			"^$side: [0-9.:]+'s memory: 100 bytes at $hex, rkey $hex\$"
		assert_output "$WORK/$side.out" \
			"^$side: ibv_post_send RDMA write slot 0, 100 bytes -> 0\$"
	done
	assert_output "$WORK/client.out" "^client: latency us: min "
	assert_output "$WORK/client.out" "^client: busy polling: [0-9]+ ibv_poll_cq calls"
}

# count FILE REGEX: how many lines of FILE match.
count() {
	grep -Ec -- "$2" "$1"
}

# stopped PID: wait until PID is stopped (SIGSTOP has taken effect).
stopped() {
	while [ "$(awk '{ print $3 }' "/proc/$1/stat")" != T ]; do
		nap 0.05
	done
}

# The point of RDMA: the target's CPU takes no part. Both sides are
# stopped (SIGSTOP), the client first: the agent has a moment to send the
# notice that the client awaits. Then the client alone goes on: its next
# write, posted after the agent stopped, must complete, that is, land in
# the agent's memory. If the agent was slower than that moment, both go
# on a while, and the test tries again.
test_a_write_lands_while_the_agent_is_stopped() {
	require_rdma || return 0
	local posts landed= try deadline

	start_timed_run "$STAGE" -v -T || return
	wait_for_line "$WORK/client.out" "^client: work completion: RDMA write" \
		"$CLIENT_PID" "$LIMIT" || fail "no write completed"
	for try in 1 2 3 4 5; do
		kill -STOP "$CLIENT_REAL"
		stopped "$CLIENT_REAL"
		nap 0.5
		kill -STOP "$SERVER_REAL"
		stopped "$SERVER_REAL"
		posts=$(count "$WORK/client.out" "^client: ibv_post_send RDMA write ")
		kill -CONT "$CLIENT_REAL"
		deadline=$((SECONDS + 5))
		while [ $SECONDS -lt $deadline ]; do
			if [ "$(count "$WORK/client.out" "^client: ibv_post_send RDMA write ")" -gt "$posts" ] &&
				[ "$(count "$WORK/client.out" "^client: work completion: RDMA write slot 0, success")" -gt "$posts" ]; then
				landed=$try
				break
			fi
			nap 0.1
		done
		# Still stopped: the write completed without the agent.
		assertEquals "the agent's state" T \
			"$(awk '{ print $3 }' "/proc/$SERVER_REAL/stat")"
		kill -CONT "$SERVER_REAL"
		[ -n "$landed" ] && break
		nap 0.5
	done
	echo "  a write landed while the agent was stopped, try ${landed:-none}"
	assertNotNull "no write landed while the agent was stopped" "$landed"
	kill -INT "$CLIENT_REAL"
	wait_client
	wait_server
	# And every pong was verified, before and after.
	assertEquals "client; $(tail -n 5 "$WORK/client.out")" 130 "$CLIENT_STATUS"
	assertEquals "server; $(tail -n 5 "$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" "ended the run after [0-9]+ round trips"
}

# A target whose memory is registered without IBV_ACCESS_REMOTE_WRITE (a
# fault loaded into the server strips it): the client's first write
# fails with a remote access error, and the client says what it means.
test_memory_closed_to_remote_writes_is_explained() {
	require_rdma || return 0

	LD_PRELOAD=$KIT/tests/no-remote-access.so start_server "$STAGE" || return
	run_client "$STAGE" -c 10
	wait_server
	assertEquals "client; $(cat "$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertNotEquals "server; $(cat "$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: RDMA write failed: remote access error"
	assert_output "$WORK/client.out" \
		"^client: [0-9.:]+ refused our RDMA write: the rkey or address it advertised is wrong, or its memory is not registered for this remote access\$"
}

# Advertisements are checked before any write: a unit test of the check.
test_advertisements_that_cannot_be_used_are_refused() {
	run_program "$KIT/tests/memory-ad"
	assertEquals "memory-ad; $(cat "$WORK/program.out")" 0 "$STATUS"
	assert_output "$WORK/program.out" "^memory-ad: 6 checks passed\$"
}

# Both sides under memcheck: a whole verified run, and a timed run that
# Ctrl-C ends; side by side.
memcheck_run() {
	if [ "$1" = whole ]; then
		whole_run_args "$STAGE"
		OUR_UNDER_VALGRIND=1 start_server "$STAGE" -x || return
		OUR_UNDER_VALGRIND=1 run_client "$STAGE" "${WHOLE_ARGS[@]}"
		wait_server
	else
		OUR_UNDER_VALGRIND=1 ctrl_c_ends_a_timed_run "$STAGE"
	fi
	save_statuses
}

check_memcheck_run() {
	statuses "$1" || return
	if [ "$1" = whole ]; then
		assertEquals "client; $(cat "$WORK/client.out")" 0 "$CLIENT_STATUS"
		assertEquals "server; $(cat "$WORK/server.out")" 0 "$SERVER_STATUS"
		assert_whole_run client "$STAGE"
		assert_whole_run server "$STAGE"
		assert_valgrind_clean "$WORK/client.out"
		assert_valgrind_clean "$WORK/server.out"
	else
		assert_ctrl_c_ended_clean "$STAGE"
	fi
}

test_both_sides_under_memcheck() {
	require_rdma || return 0
	at_once memcheck_run check_memcheck_run whole ctrl-c
}

. shunit2
