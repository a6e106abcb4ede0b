#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# blast-sr-2: the client streams messages with -b in flight, the agent
# returns credits. Every run is verified (order and content) and must end
# with no receiver-not-ready: the connection allows no RNR retries, so one
# would fail the run, and the device's RNR counters must not move.
. "$(dirname "$0")/lib.sh"

STAGE=blast-sr-2
# A long run with one buffer needs both sides to run at once for every
# message: in the emulated lab on a busy host that can take minutes.
LIMIT=${OUR_BLAST_LIMIT:-600}
# Messages per run at 4 KiB and below.
SMALL_COUNT=${OUR_BLAST_SMALL_COUNT:-5000}
NUMBER='[0-9]+\.[0-9]+'

# rnr_events: receiver-not-ready NAKs the device sent and received, and
# RNR retries it gave up on, added up (0 where there are no counters).
rnr_events() {
	rdma statistic show link "$DEVICE/1" 2>/dev/null | awk '
		{
			for (i = 1; i < NF; i++)
				if ($i ~ /^(rcvd|send)_rnr_err$/ ||
				    $i == "retry_rnr_exceeded_err")
					sum += $(i + 1)
		}
		END { print sum + 0 }'
}

# blast_verified BUFFERS SIZE COUNT: a verified blast; both sides end well,
# report COUNT messages, and no receiver was ever found not ready.
blast_verified() {
	require_rdma || return 0
	local buffers=$1 size=$2 count=$3 before start=$SECONDS

	before=$(rnr_events)
	start_server "$STAGE" || return
	run_client "$STAGE" -v -x -b "$buffers" -s "$size" -c "$count"
	wait_server
	assertEquals "client exit status; $(<"$WORK/client.out")" \
		0 "$CLIENT_STATUS"
	assertEquals "server exit status; $(<"$WORK/server.out")" \
		0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: $(plural "$count" message) of $(plural "$size" byte) in $NUMBER s\$"
	assert_output "$WORK/server.out" \
		"^server: $(plural "$count" message) of $(plural "$size" byte) in $NUMBER s\$"
	assertEquals "receiver-not-ready events" "$before" "$(rnr_events)"
	# The figures, for whoever reads the run.
	echo "  -b $buffers -s $size -c $count: $((SECONDS - start)) s;" \
		"$(sed -n 's/^client: rate: //p' "$WORK/client.out")"
}

test_1_byte_1_buffer() {
	blast_verified 1 1 "$SMALL_COUNT"
}

test_1_byte_4_buffers() {
	blast_verified 4 1 "$SMALL_COUNT"
}

test_1_byte_16_buffers() {
	blast_verified 16 1 "$SMALL_COUNT"
}

test_4_kib_1_buffer() {
	blast_verified 1 4096 "$SMALL_COUNT"
}

test_4_kib_4_buffers() {
	blast_verified 4 4096 "$SMALL_COUNT"
}

test_4_kib_16_buffers() {
	blast_verified 16 4096 "$SMALL_COUNT"
}

# The larger sizes: about 32 MB a run.
test_64_kib_1_buffer() {
	blast_verified 1 65536 500
}

test_64_kib_4_buffers() {
	blast_verified 4 65536 500
}

test_64_kib_16_buffers() {
	blast_verified 16 65536 500
}

test_1_mib_1_buffer() {
	blast_verified 1 1048576 30
}

test_1_mib_4_buffers() {
	blast_verified 4 1048576 30
}

test_1_mib_16_buffers() {
	blast_verified 16 1048576 30
}

# Fewer messages than buffers: the agent's first receives are all the
# client needs, and no credit comes back.
test_fewer_messages_than_buffers() {
	blast_verified 16 100 3
	assert_no_output "$WORK/client.out" "credits returned"
	PORT=$((PORT + 1))
	blast_verified 64 1 1
}

# An odd number of buffers, and a count that leaves the last credit batch
# short: the credits still add up and no receive is ever missing.
test_odd_buffers_and_a_partial_credit_batch() {
	blast_verified 3 64 1001
	assert_output "$WORK/client.out" "^client: flow control: 998 credits returned\$"
	PORT=$((PORT + 1))
	blast_verified 7 1000 1003
}

test_statistics() {
	require_rdma || return 0
	local count=20000 buffers=16 out=$WORK/client.out calls credits

	start_server "$STAGE" -x || return
	run_client "$STAGE" -x -b "$buffers" -s 512 -c "$count"
	wait_server
	assertEquals "client exit status; $(<"$out")" 0 "$CLIENT_STATUS"
	assertEquals "server exit status; $(<"$WORK/server.out")" \
		0 "$SERVER_STATUS"
	assert_output "$out" "^client: rate: $NUMBER messages/s, $NUMBER MB/s, $NUMBER Gb/s\$"
	assert_output "$out" "^client: cpu: user $NUMBER s, system $NUMBER s, utilization $NUMBER%, $NUMBER us per message\$"
	assert_output "$out" "^client: busy polling: [0-9]+ ibv_poll_cq calls"
	assert_output "$out" "^client: latency us: min $NUMBER median"
	assert_output "$WORK/server.out" \
		"^server: rate: $NUMBER messages/s, $NUMBER MB/s"
	# Every message beyond the agent's first receives is paid for by a
	# credit; the agent sends its credits one message per post.
	credits=$((count - buffers))
	assert_output "$out" "^client: posting: [0-9]+ ibv_post_send calls, $count messages\$"
	assert_output "$out" "^client: flow control: $credits credits returned\$"
	assert_output "$WORK/server.out" "^server: posting: [0-9]+ ibv_post_send calls\$"
	assert_output "$WORK/server.out" "^server: flow control: $credits credits returned\$"
	# With 16 in flight the client chains its messages: fewer calls
	# than messages.
	calls=$(sed -En 's/^client: posting: ([0-9]+) ibv_post_send calls.*/\1/p' "$out")
	assertTrue "$calls ibv_post_send calls for $count messages" \
		"[ ${calls:-$count} -lt $count ]"
	echo "  $(grep -E '^client: (rate|posting)' "$out" | tr '\n' ' ')"
}

test_agent_adopts_the_clients_buffers() {
	require_rdma || return 0
	start_server "$STAGE" -t || return
	run_client "$STAGE" -b 8 -c 40 -s 100 -v
	wait_server
	assertEquals "client exit status; $(<"$WORK/client.out")" \
		0 "$CLIENT_STATUS"
	assertEquals "server exit status; $(<"$WORK/server.out")" \
		0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" \
		"adopting the client's count 40, size 100, buffers 8"
	assert_output "$WORK/server.out" "^server: 40 messages of 100 bytes"
}

test_buffers_out_of_range_are_refused() {
	local bad

	for bad in 0 65 abc; do
		run_program "$KIT/$STAGE/client" -a 127.0.0.1 -b "$bad"
		assertEquals "-b $bad: exit status" 2 "$STATUS"
		assert_output "$WORK/program.out" "-b must be 1 to 64"
	done
	run_program "$KIT/$STAGE/client" -h
	assert_output "$WORK/program.out" \
		"^  -b N +messages in flight, 1 to 64 \\(default 4\\)$"
}

# Both sides under valgrind memcheck: in test_valgrind.sh.

. shunit2
