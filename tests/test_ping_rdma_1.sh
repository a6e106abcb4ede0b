#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ping-rdma-1: the ping-pong by RDMA write. Verified from 1 byte to 1 MiB;
# each side advertises its memory and traces the peer's; a write lands
# while the agent's CPU is stopped; a target whose memory is not open to
# remote writes gives the writer a remote access error that it explains;
# advertisements that cannot be used are refused with their reason; and
# both sides run under memcheck to Ctrl-C (their whole run under memcheck
# is test_single.sh's).
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
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	for side in client server; do
		assert_output "$WORK/$side.out" \
			"^$side: advertising 100 bytes at $hex, rkey $hex\$"
		assert_output "$WORK/$side.out" \
			"^$side: [0-9.:]+'s memory: 100 bytes at $hex, rkey $hex\$"
		assert_output "$WORK/$side.out" \
			"^$side: ibv_post_send RDMA write slot 0, 100 bytes -> 0\$"
	done
	assert_output "$WORK/client.out" "^client: latency us: min "
	assert_output "$WORK/client.out" "^client: busy polling: [0-9]+ ibv_poll_cq calls"
}

# The point of RDMA: the target's CPU takes no part. The client's next
# write lands while the agent is stopped (see
# one_sided_while_the_agent_is_stopped in lib.sh).
test_a_write_lands_while_the_agent_is_stopped() {
	require_rdma || return 0
	one_sided_while_the_agent_is_stopped "$STAGE" write 0
}

# A target whose memory is registered without IBV_ACCESS_REMOTE_WRITE (a
# fault loaded into the server strips it): the client's first write
# fails with a remote access error, and the client says what it means.
test_memory_closed_to_remote_writes_is_explained() {
	require_rdma || return 0

	LD_PRELOAD=$KIT/tests/no-remote-access.so start_server "$STAGE" || return
	run_client "$STAGE" -c 10
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertNotEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: work request failed: remote access error"
	assert_output "$WORK/client.out" \
		"^client: [0-9.:]+ refused our RDMA write: the rkey or address it advertised is wrong, or its memory is not registered for this remote access\$"
}

# Advertisements are checked before any write: a unit test of the check.
test_advertisements_that_cannot_be_used_are_refused() {
	run_program "$KIT/tests/memory-ad"
	assertEquals "memory-ad; $(<"$WORK/program.out")" 0 "$STATUS"
	assert_output "$WORK/program.out" "^memory-ad: 6 checks passed\$"
}

# Both sides under memcheck, in a run that Ctrl-C ends.
test_both_sides_under_memcheck() {
	require_rdma || return 0
	memcheck_both_sides "$STAGE"
}

. shunit2
