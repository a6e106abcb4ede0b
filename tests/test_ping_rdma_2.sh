#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ping-rdma-2: the ping-pong by RDMA read. Verified from 1 byte to 1 MiB;
# each side asks the CM for RDMA read resources and reads from the
# peer's advertised memory; a read is answered while the agent's CPU is
# stopped; memory not open to remote reads gives the reader a remote
# access error that it explains; and both sides run under memcheck to
# Ctrl-C (their whole run under memcheck is test_single.sh's).
. "$(dirname "$0")/lib.sh"

STAGE=ping-rdma-2
LIMIT=${OUR_VALGRIND_LIMIT:-300}

test_verified_from_1_byte_to_1_mib() {
	require_rdma || return 0
	verified "$STAGE" 300 1
	verified "$STAGE" 100 4096
	verified "$STAGE" 10 1048576
}

# -t shows the read resources each side asks for, and the reads: the
# agent's into its only slot, the client's into its pong slot, 1.
test_trace_shows_the_read_resources_and_the_reads() {
	require_rdma || return 0
	local hex='0x[0-9a-f]+'

	start_server "$STAGE" -t || return
	run_client "$STAGE" -t -x -c 50 -s 100
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	for side in client server; do
		assert_output "$WORK/$side.out" \
			"^$side: asking for 1 RDMA reads in flight each way\$"
		assert_output "$WORK/$side.out" \
			"^$side: [0-9.:]+'s memory: [0-9]+ bytes at $hex, rkey $hex\$"
	done
	# The client's buffer holds the ping and the pong; the agent's one.
	assert_output "$WORK/client.out" \
		"^client: advertising 200 bytes at $hex, rkey $hex\$"
	assert_output "$WORK/server.out" \
		"^server: advertising 100 bytes at $hex, rkey $hex\$"
	assertEquals "the client's reads" 50 \
		"$(count "$WORK/client.out" "^client: ibv_post_send RDMA read slot 1, 100 bytes -> 0\$")"
	assertEquals "the agent's reads" 50 \
		"$(count "$WORK/server.out" "^server: ibv_post_send RDMA read slot 0, 100 bytes -> 0\$")"
	assert_output "$WORK/client.out" "^client: latency us: min "
}

# ibv_query_device returns its error number, and leaves errno alone: a
# fault loaded into the client makes it fail with EOPNOTSUPP and errno 0.
# The client says which error it was, not errno's "Success".
test_a_failed_device_query_names_its_error() {
	require_rdma || return 0

	# It fails before it connects: no server is needed.
	OUR_DEVICE_FAULT=query-fails LD_PRELOAD=$KIT/tests/device-fault.so \
		run_program "$KIT/$STAGE/client" -a "$ADDR" -p "$PORT" -c 10
	assertEquals "client; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" \
		"^client: ibv_query_device: Operation not supported\$"
}

# A read that fails has read nothing, even the last once the agent's
# notice is in: the fault flushes the client's RDMA read of its one pong.
# The client fails, and says why; the agent, which waits for the
# client's last notice, sees it go.
test_a_client_whose_read_is_flushed_fails() {
	require_rdma || return 0

	flushed_run 4 || return
	assert_output "$WORK/client.out" "^client: work request flushed: "
	assert_no_output "$WORK/client.out" "^client: 1 round trip "
	assertEquals "server; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
}

# The target of a read takes no part either: its adapter answers, and
# -v checks the pong that the stopped agent's memory held (see
# one_sided_while_the_agent_is_stopped in lib.sh).
test_a_read_is_answered_while_the_agent_is_stopped() {
	require_rdma || return 0
	one_sided_while_the_agent_is_stopped "$STAGE" read 1
}

# The client's last notice, which says it has read the last pong, can
# reach the agent before the completion of the agent's own last notice
# (its acknowledgement lost and sent again, on a lossy link or a busy
# machine). A fault loaded into the server holds each send's completion
# back 300 ms, so that the client's last notice always comes first: the
# agent awaits the two together, and ends the run.
test_the_agent_ends_when_the_clients_last_notice_overtakes_its_own() {
	require_rdma || return 0

	OUR_SEND_DELAY_MS=300 LD_PRELOAD=$KIT/tests/slow-sends.so \
		start_server "$STAGE" || return
	run_client "$STAGE" -v -c 3
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" "^server: 3 round trips of 64 bytes in "
}

# A server whose memory is registered without IBV_ACCESS_REMOTE_READ (a
# fault loaded into it strips the remote flags): the agent reads the
# first ping from the client, but the client's read of the pong fails
# with a remote access error, and the client says what it means.
test_memory_closed_to_remote_reads_is_explained() {
	require_rdma || return 0

	LD_PRELOAD=$KIT/tests/no-remote-access.so start_server "$STAGE" || return
	run_client "$STAGE" -c 10
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertNotEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: work request failed: remote access error"
	assert_output "$WORK/client.out" \
		"^client: [0-9.:]+ refused our RDMA read: the rkey or address it advertised is wrong, or its memory is not registered for this remote access\$"
}

# Both sides under memcheck, in a run that Ctrl-C ends.
test_both_sides_under_memcheck() {
	require_rdma || return 0
	memcheck_both_sides "$STAGE"
}

. shunit2
