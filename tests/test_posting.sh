#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The ways to post: ping-sg-1 (ibv_post_send and ibv_post_recv with lists
# of scatter-gather elements: a header and a payload), ping-post-1 (the
# same by rdma_post_sendv and rdma_post_recvv) and ping-wr-1 (ping-sr-2's
# sends by ibv_wr_* on an extended queue pair, inline when a message
# fits). Each is verified from 1 byte to 1 MiB; each side's trace names
# the verb that posted every send and receive; ping-wr-1 sends inline
# exactly the messages that fit in what the device gave, read back after
# the queue pair was created, and gives up a send found wrong while it is
# built (tests/wr-abort), and makes its queue pair without inline data on
# a device that takes none; its two sides run under memcheck to Ctrl-C
# (the whole runs of all three under memcheck are test_single.sh's, their
# peers' deaths test_disconnect.sh's).
. "$(dirname "$0")/lib.sh"

POSTING_STAGES="ping-sg-1 ping-post-1 ping-wr-1"
LIMIT=${OUR_VALGRIND_LIMIT:-300}

test_each_way_verified_from_1_byte_to_1_mib() {
	require_rdma || return 0
	local stage

	for stage in $POSTING_STAGES; do
		verified "$stage" 200 1
		verified "$stage" 50 4096
		verified "$stage" 5 1048576
	done
}

# posted_with STAGE SEND RECV: in a traced run of STAGE, 20 round trips of
# 100 bytes, each side posts every send and every receive with the verbs
# its posting pieces use: its trace has a line matching "^side: SEND" for
# each send, and "^side: RECV" for each receive (the client's 20; the
# agent's 21, its receive for a next ping being up when the client stops).
posted_with() {
	local stage=$1 send=$2 recv=$3 side

	start_server "$stage" -t || return
	run_client "$stage" -t -c 20 -s 100
	wait_server
	assertEquals "$stage client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "$stage server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	for side in client server; do
		assertEquals "$stage $side: sends by /$send/" 20 \
			"$(count "$WORK/$side.out" "^$side: $send")"
	done
	assertEquals "$stage client: receives by /$recv/" 20 \
		"$(count "$WORK/client.out" "^client: $recv")"
	assertEquals "$stage server: receives by /$recv/" 21 \
		"$(count "$WORK/server.out" "^server: $recv")"
	PORT=$((PORT + 1))
}

test_each_way_posts_with_its_own_verbs() {
	require_rdma || return 0
	local pieces=', 2 pieces -> 0$'

	posted_with ping-sg-1 "ibv_post_send slot [01]$pieces" \
		"ibv_post_recv slot [01]$pieces"
	posted_with ping-post-1 "rdma_post_sendv slot [01]$pieces" \
		"rdma_post_recvv slot [01]$pieces"
	posted_with ping-wr-1 \
		"ibv_wr_complete: send slot [01], 100 bytes( inline)? -> 0$" \
		"ibv_post_recv slot [01], 100 bytes -> 0$"
}

# inline_sends SIZE N: in a traced ping-wr-1 run of -s SIZE, N of the
# client's 30 sends went inline (and all 30 were completed).
inline_sends() {
	ping_pong ping-wr-1 -t -v -c 30 -s "$1"
	assertEquals "sends of $1 bytes" 30 \
		"$(count "$WORK/client.out" "^client: ibv_wr_complete: send slot 0, $1 bytes( inline)? -> 0$")"
	assertEquals "inline sends of $1 bytes" "$2" \
		"$(count "$WORK/client.out" "^client: ibv_wr_complete: send slot 0, $1 bytes inline -> 0$")"
	PORT=$((PORT + 1))
}

# The device says, when the queue pair is created, how much a send may
# carry inline (it may give more than was asked); a message that fits
# goes inline, one a byte longer does not.
test_inline_exactly_when_the_message_fits() {
	require_rdma || return 0
	local max

	start_server ping-wr-1 || return
	run_client ping-wr-1 -t -c 1
	wait_server
	max=$(sed -n 's/^client: extended queue pair: sends of up to \([0-9]*\) bytes go inline$/\1/p' \
		"$WORK/client.out")
	PORT=$((PORT + 1))
	echo "  the device takes $max bytes inline"
	assertTrue "no inline size read back: $(<"$WORK/client.out")" \
		"[ '${max:-0}' -gt 1 ]"
	[ "${max:-0}" -gt 1 ] || return
	inline_sends "$max" 30
	inline_sends $((max + 1)) 0
}

# A send found wrong while it is built is given up (ibv_wr_abort), with
# its reason, and the next send on the queue pair comes back: a batch
# left open would make it wait, for ever, in ibv_wr_start.
test_a_send_found_wrong_is_given_up_and_the_next_goes_on() {
	require_rdma || return 0

	LIMIT=30 run_program "$KIT/tests/wr-abort" "$ADDR"
	assertEquals "wr-abort; $(<"$WORK/program.out")" 0 "$STATUS"
	assert_output "$WORK/program.out" \
		"^wr-abort: a send of 64 bytes from slot 1 of 64-byte slots: not posted\$"
	assert_output "$WORK/program.out" \
		"^wr-abort: the next send came back from ibv_wr_complete\$"
}

# A provider without the ibv_wr_* interface (a fault makes
# rdma_create_qp_ex fail with EOPNOTSUPP): ping-wr-1 says so plainly, and
# fails before it connects.
test_a_provider_without_ibv_wr_is_named() {
	require_rdma || return 0

	OUR_DEVICE_FAULT=no-wr LD_PRELOAD=$KIT/tests/device-fault.so \
		run_program "$KIT/ping-wr-1/client" -a "$ADDR" -p "$PORT" -c 5
	assertEquals "client; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" \
		"^client: rdma_create_qp_ex RC .*: Operation not supported\$"
	assert_output "$WORK/program.out" \
		"^client: this device's provider has no ibv_wr_\\* interface: the extended queue pair needs one\$"
}

# A device that takes no inline data refuses a queue pair that asks for
# some (a fault makes rdma_create_qp_ex fail with EINVAL then): ping-wr-1
# asks again for none, and its run goes on. (Soft-RoCE, asked for none,
# gives a little: 16 bytes; a message of 1000 goes from memory.)
test_a_device_without_inline_data_gets_a_queue_pair_without() {
	require_rdma || return 0

	start_server ping-wr-1 || return
	OUR_DEVICE_FAULT=no-inline LD_PRELOAD=$KIT/tests/device-fault.so \
		run_client ping-wr-1 -t -v -c 5 -s 1000
	wait_server
	PORT=$((PORT + 1))
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: rdma_create_qp_ex with max_inline_data=256: Invalid argument; trying without inline data\$"
	assertEquals "sends from memory" 5 \
		"$(count "$WORK/client.out" "^client: ibv_wr_complete: send slot 0, 1000 bytes -> 0$")"
}

# Both sides of ping-wr-1 under memcheck, in a run that Ctrl-C ends.
test_ping_wr_1_under_memcheck() {
	require_rdma || return 0
	memcheck_both_sides ping-wr-1
}

. shunit2
