#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ping-sr-0: a verified send/recv ping-pong over the real RDMA device.
. "$(dirname "$0")/lib.sh"

# ping_pong_verified COUNT SIZE: both sides end well and agree on counts.
ping_pong_verified() {
	require_rdma || return 0
	ping_pong ping-sr-0 -v -c "$1" -s "$2"
	assert_output "$WORK/client.out" \
		"^client: $(plural "$1" "round trip") of $(plural "$2" byte) in [0-9.]+ s\$"
	assert_output "$WORK/server.out" \
		"^server: $(plural "$1" "round trip") of $(plural "$2" byte) in [0-9.]+ s\$"
}

test_one_byte_once() {
	ping_pong_verified 1 1
}

test_64_bytes_2000_times() {
	ping_pong_verified 2000 64
}

test_4_kib_500_times() {
	ping_pong_verified 500 4096
}

test_64_kib_100_times() {
	ping_pong_verified 100 65536
}

test_1_mib_20_times() {
	ping_pong_verified 20 1048576
}

test_4_mib_5_times() {
	ping_pong_verified 5 4194304
}

test_statistics() {
	require_rdma || return 0
	ping_pong ping-sr-0 -x -c 300 -s 256
	local out=$WORK/client.out number='[0-9]+\.[0-9]+'

	assert_output "$out" "^client: latency us: min $number median $number mean $number max $number p99 $number p99\\.9 $number\$"
	assert_output "$out" "^client: rate: $number round trips/s, $number MB/s, $number Gb/s\$"
	assert_output "$out" "^client: cpu: user $number s, system $number s, utilization $number%, $number us per round trip\$"
	assert_output "$out" "^client: busy polling: [0-9]+ ibv_poll_cq calls"
	assert_output "$WORK/server.out" "^server: latency us: min"
	# The percentiles are in order.
	read -r min median max p99 <<<"$(sed -n \
		's/^client: latency us: min \([^ ]*\) median \([^ ]*\) mean [^ ]* max \([^ ]*\) p99 \([^ ]*\) .*/\1 \2 \3 \4/p' "$out")"
	assertTrue "min $min <= median $median <= p99 $p99 <= max $max" \
		"awk 'BEGIN { exit !($min <= $median && $median <= $p99 && $p99 <= $max && $min > 0) }'"
}

test_trace_names_each_verb() {
	require_rdma || return 0
	ping_pong ping-sr-0 -t -c 2
	for verb in rdma_create_id rdma_resolve_addr rdma_resolve_route \
		ibv_alloc_pd ibv_create_cq rdma_create_qp ibv_reg_mr \
		ibv_post_recv rdma_connect ibv_post_send rdma_disconnect \
		ibv_dereg_mr ibv_destroy_cq ibv_dealloc_pd rdma_destroy_id; do
		assert_output "$WORK/client.out" "^client: $verb"
	done
	for verb in rdma_bind_addr rdma_listen rdma_get_request rdma_accept; do
		assert_output "$WORK/server.out" "^server: $verb"
	done
}

# The agent echoes each ping from the slot it landed in: it registers two
# receive slots and nothing to send from; the client one of each.
test_agent_echoes_without_a_copy() {
	require_rdma || return 0
	ping_pong ping-sr-0 -t -v -c 5 -s 1000
	assert_output "$WORK/server.out" "^server: ibv_reg_mr receive 2000 bytes -> 0\$"
	assert_no_output "$WORK/server.out" "ibv_reg_mr send"
	assert_output "$WORK/server.out" "^server: ibv_post_send send slot 1, 1000 bytes -> 0\$"
	assert_output "$WORK/client.out" "^client: ibv_reg_mr send 1000 bytes -> 0\$"
	assert_output "$WORK/client.out" "^client: ibv_reg_mr receive 1000 bytes -> 0\$"
}

# qp_before_memory SIDE STAGE: in SIDE's -t trace, the queue pair was
# destroyed before any memory was deregistered: until it is, the adapter
# may still send from that memory or receive into it.
qp_before_memory() {
	local out=$WORK/$1.out qp mr

	qp=$(grep -n "^$1: rdma_destroy_qp\$" "$out" | head -n 1 | cut -d: -f1)
	mr=$(grep -n "^$1: ibv_dereg_mr " "$out" | head -n 1 | cut -d: -f1)
	assertTrue "$2 $1: rdma_destroy_qp (line ${qp:-none}) before ibv_dereg_mr (line ${mr:-none}): $(grep -E 'rdma_destroy_qp|ibv_dereg_mr' "$out")" \
		"[ -n '$qp' ] && [ -n '$mr' ] && [ '$qp' -lt '$mr' ]"
}

# ended_in_order STAGE STATUS: both programs of STAGE exited with STATUS,
# and each destroyed its queue pair before its memory; the next pair
# takes the next port.
ended_in_order() {
	assertEquals "$1 client; $(tail -n 5 "$WORK/client.out")" \
		"$2" "$CLIENT_STATUS"
	assertEquals "$1 server; $(tail -n 5 "$WORK/server.out")" \
		"$2" "$SERVER_STATUS"
	qp_before_memory client "$1"
	qp_before_memory server "$1"
	PORT=$((PORT + 1))
}

# The undo runs in the reverse order of the set-up: the queue pair goes
# before the memory it sends from and receives into.
test_the_queue_pair_goes_before_its_memory() {
	require_rdma || return 0
	local stage server_args

	for stage in ping-sr-0 ping-sr-1; do
		server_args=(-t)
		[ "$stage" = ping-sr-0 ] && server_args=(-t -c 5)
		start_server "$stage" "${server_args[@]}" || return
		run_client "$stage" -t -c 5
		wait_server
		ended_in_order "$stage" 0
	done
}

# The same undo on the path Ctrl-C takes: the client is interrupted in
# the middle of its run, and the server, which cannot see it go (problem
# 2), waits for the next ping until its own Ctrl-C. Both exit 130, each
# having destroyed its queue pair before its memory.
test_the_queue_pair_goes_before_its_memory_after_ctrl_c() {
	require_rdma || return 0
	local stage

	for stage in ping-sr-0 ping-sr-1; do
		if [ "$stage" = ping-sr-0 ]; then
			start_server "$stage" -t -c 10000000 || return
		else
			start_server "$stage" -t || return
		fi
		start_client "$stage" -t -c 10000000
		wait_for_line "$WORK/client.out" "^client: ibv_post_send " \
			"$CLIENT_PID" "$LIMIT" ||
			{ fail "$stage: the client's run did not start"; return; }
		kill -INT "$(program_pid "$CLIENT_PID")"
		wait_client
		kill -INT "$(program_pid "$SERVER_PID")"
		wait_server
		ended_in_order "$stage" 130
	done
}

. shunit2
