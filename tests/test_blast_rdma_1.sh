#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# blast-rdma-1: the client streams RDMA writes into the agent's ring,
# chained, each chain ended by a notice; the agent gives the slots back.
# Verified from 1 byte to 1 MiB and from 1 buffer to 16; -x shows the
# chains and the completions per ibv_poll_cq, and they add up; a stopped
# agent stops the stream once the ring is full, and it goes on when the
# agent does; a ring closed to remote writes is explained, and the
# agent's receive then flushed; both sides run under memcheck to Ctrl-C
# (the whole run under memcheck is the single pair's, in test_single.sh).
. "$(dirname "$0")/lib.sh"

STAGE=blast-rdma-1
LIMIT=${OUR_VALGRIND_LIMIT:-300}
NUMBER='[0-9]+\.[0-9]+'

# stream BUFFERS SIZE COUNT: a verified stream; both sides end well and
# report COUNT messages.
stream() {
	local buffers=$1 size=$2 count=$3

	start_server "$STAGE" -x || return
	run_client "$STAGE" -v -x -b "$buffers" -s "$size" -c "$count"
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: $(plural "$count" message) of $(plural "$size" byte) in $NUMBER s\$"
	assert_output "$WORK/server.out" \
		"^server: $(plural "$count" message) of $(plural "$size" byte) in $NUMBER s\$"
	PORT=$((PORT + 1))
}

test_verified_from_1_byte_to_1_mib() {
	require_rdma || return 0
	stream 1 1 300
	stream 16 4096 2000
	stream 4 1048576 20
}

# bucket FILE SIDE WHAT NAME: the count in bucket NAME ("1", "2-3", ...)
# of SIDE's -x line that starts with WHAT.
bucket() {
	sed -En "s/^$2: $3.* $4: ([0-9]+).*/\1/p" "$1"
}

# -x: the client's chains hold at most half the ring (8 of -b 16), every
# message is one write, and each chain is one ibv_post_send with its
# notice; the calls of ibv_poll_cq that found completions, by how many
# they found, add up to the calls that found any.
test_statistics_show_the_chains_and_the_completions_per_poll() {
	require_rdma || return 0
	local out=$WORK/client.out calls empty chains sum=0 name

	start_server "$STAGE" -x || return
	run_client "$STAGE" -x -b 16 -c 1000 -s 64
	wait_server
	assertEquals "client; $(<"$out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$out" "^client: posting: [0-9]+ ibv_post_send calls, [0-9]+ work requests; RDMA writes per chain: 1: [0-9]+, 2-3: [0-9]+, 4-7: [0-9]+, 8-15: [0-9]+, 16\\+: 0\$"
	# The calls: the first notice (a call of its own), then a chain a
	# call. The chains' work requests: the 1000 writes, and a notice
	# each.
	calls=$(sed -En 's/^client: posting: ([0-9]+) ibv_post_send calls.*/\1/p' "$out")
	chains=$((calls - 1))
	assert_output "$out" "^client: posting: $calls ibv_post_send calls, $((1000 + chains)) work requests;"
	# At most 8 writes a chain: 125 chains or more for 1000.
	assertTrue "chains of at most 8 writes: $chains chains" \
		"[ $chains -ge 125 ]"
	assertTrue "some chains of 4 or more writes: $(grep posting "$out")" \
		"[ $(($(bucket "$out" client posting 4-7) + $(bucket "$out" client posting 8-15))) -gt 0 ]"
	for name in 1 2-3 4-7 8-15 16+; do
		sum=$((sum + $(bucket "$out" client 'batch polling' "${name/+/\\+}")))
	done
	calls=$(sed -En 's/^client: batch polling: ([0-9]+) ibv_poll_cq calls.*/\1/p' "$out")
	# With no call that found nothing, that count is left out.
	empty=$(sed -En 's/^client: batch polling: .* ([0-9]+) found nothing;.*/\1/p' "$out")
	assertEquals "calls that found completions: $(grep polling "$out")" \
		"$((calls - ${empty:-0}))" "$sum"
	assert_output "$WORK/server.out" "^server: flow control: 1000 slots given back\$"
}

# The agent's notices go out from send slots of their own, and a slot is
# taken again only once the send from it has completed: until then the
# adapter may still read it. A fault loaded into the server holds each
# send's completion back 20 ms, so that every slot is soon busy: the
# agent must wait for one to be free, and never post into a busy one (the
# fault would say so).
test_the_agent_takes_a_notice_slot_again_only_once_its_send_completed() {
	require_rdma || return 0

	OUR_SEND_DELAY_MS=20 LD_PRELOAD=$KIT/tests/slow-sends.so \
		start_server "$STAGE" || return
	run_client "$STAGE" -v -b 2 -c 200
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_no_output "$WORK/server.out" "^slow-sends: "
	assert_output "$WORK/server.out" "^server: 200 messages of 64 bytes in "
}

# A run of one message whose only write fails has failed, however the
# handshake before it went: the agent's ring, received, answers no
# transfer. The fault flushes the client's RDMA write (kind 3) once it
# has landed: the agent, done, hangs up, and the client counts nothing.
test_a_one_message_run_whose_write_is_flushed_fails() {
	require_rdma || return 0

	flushed_run 3 || return
	assert_output "$WORK/client.out" "^client: 0 messages of 64 bytes in "
}

# Flow control without the agent's CPU: once the agent is stopped, the
# client's writes go on landing until the ring is full, then stop; when
# the agent goes on, so does the stream.
test_a_stopped_agent_stops_the_stream_once_the_ring_is_full() {
	require_rdma || return 0
	local done="^client: work completion: RDMA write slot [0-9]+, success"
	local before after resumed stop

	start_timed_run "$STAGE" -v -T -b 8 || return
	wait_for_line "$WORK/client.out" "$done" "$CLIENT_PID" "$LIMIT" ||
		fail "no write completed"
	kill -STOP "$SERVER_REAL"
	stopped "$SERVER_REAL"
	stop=$SECONDS
	# Long enough for the client to fill the ring, however slow; a
	# stream that never stops fails here.
	before=-1 after=$(count "$WORK/client.out" "$done")
	while [ "$before" != "$after" ] && [ $SECONDS -lt $((stop + 60)) ]; do
		nap 2
		before=$after
		after=$(count "$WORK/client.out" "$done")
	done
	assertEquals "the stream went on while the agent was stopped" \
		"$before" "$after"
	assertEquals "the agent's state" T \
		"$(state "$SERVER_REAL")"
	kill -CONT "$SERVER_REAL"
	resumed=$after
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		nap 1
		resumed=$(count "$WORK/client.out" "$done")
		[ "$resumed" -gt "$after" ] && break
	done
	echo "  the stream stopped at $after writes, and went on to $resumed"
	assertTrue "the stream did not go on after the agent did" \
		"[ $resumed -gt $after ]"
	kill -INT "$CLIENT_REAL"
	wait_client
	wait_server
	assertEquals "client; $(tail -n 5 "$WORK/client.out")" 130 "$CLIENT_STATUS"
	assertEquals "server; $(tail -n 5 "$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" "ended the run after [0-9]+ messages"
}

# A ring registered without IBV_ACCESS_REMOTE_WRITE (a fault loaded into
# the server strips it): the client's first write is refused, and the
# client says what it means.
test_a_ring_closed_to_remote_writes_is_explained() {
	require_rdma || return 0

	LD_PRELOAD=$KIT/tests/no-remote-access.so start_server "$STAGE" || return
	run_client "$STAGE" -b 4 -c 10
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertNotEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: work request failed: remote access error"
	assert_output "$WORK/client.out" \
		"^client: [0-9.:]+ refused our RDMA write: the rkey or address it advertised is wrong, or its memory is not registered for this remote access\$"
}

# The run labs/guide/qp-states.md shows: the refused write puts both
# queue pairs in the error state, and the receive the agent had posted
# for the client's next notice is flushed (IBV_WC_WR_FLUSH_ERR), before
# the client's disconnect tells the agent that it has gone.
test_a_refused_write_flushes_the_agents_receive() {
	require_rdma || return 0

	local order

	LD_PRELOAD=$KIT/tests/no-remote-access.so start_server "$STAGE" -T ||
		return
	run_client "$STAGE" -c 10 -b 4 -T
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: ibv_post_send 2 RDMA writes from slot 0, 64 bytes each, and a notice -> 0\$"
	assert_output "$WORK/client.out" \
		"^client: work completion: work request slot 0, remote access error\$"
	assert_output "$WORK/client.out" \
		"^client: work request failed: remote access error \(status 10, vendor error 0x0\)\$"
	assert_output "$WORK/client.out" \
		"^client: [0-9.:]+ refused our RDMA write: the rkey or address it advertised is wrong, or its memory is not registered for this remote access\$"
	assert_output "$WORK/client.out" \
		"^client: 0 messages of 64 bytes in $NUMBER s\$"
	assert_output "$WORK/client.out" "^client: rdma_disconnect [0-9.:]+ -> 0\$"
	assert_output "$WORK/server.out" \
		"^server: work completion: send slot 0, success, 24 bytes\$"
	assert_output "$WORK/server.out" \
		"^server: work completion: receive slot 1, Work Request Flushed Error\$"
	assert_output "$WORK/server.out" \
		"^server: cm thread: RDMA_CM_EVENT_DISCONNECTED \(status 0\)\$"
	assert_output "$WORK/server.out" \
		"^server: our receive failed \(Work Request Flushed Error\): [0-9.:]+ has gone\$"
	assert_output "$WORK/server.out" \
		"^server: [0-9.:]+ ended the run after 0 of 10 messages\$"
	# The flush came first: the agent's queue pair went to the error
	# state when its adapter refused the write, not at the disconnect
	# (the client waits half a second for one before it disconnects).
	order=$(awk '/Work Request Flushed Error$/ && !f { f = NR }
		/RDMA_CM_EVENT_DISCONNECTED/ && !d { d = NR }
		END { print (f && d && f < d) ? "flush first" : "disconnect first" }' \
		"$WORK/server.out")
	assertEquals "the agent's receive flushed, then the disconnect; $(<"$WORK/server.out")" \
		"flush first" "$order"
}

# Both sides under memcheck, until Ctrl-C ends the client.
test_both_sides_under_memcheck() {
	require_rdma || return 0
	memcheck_both_sides "$STAGE"
}

. shunit2
