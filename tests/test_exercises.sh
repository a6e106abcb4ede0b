#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The exercises' checkers, each proved twice (see exercises.sh): it fails
# on the starter and passes with the solution. The two checkers of an
# exercise run side by side. rnr-retry's and wire-reading's, and their
# ways around, are proved in the pair: test_rnr_retry.sh and
# test_wire_reading.sh. Then every other way around a lesson kept beside
# the solutions fails, and two students' checkers run at once on one
# host.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/exercises.sh"

test_ping_sr_2e_checker() {
	prove ping-sr-2e "^    seen: (client|server): our_create_id: TODO 1 is not done yet\$"
}

test_bug_recv_access_checker() {
	prove bug-recv-access "^    seen: server: .*receive failed"
}

test_bug_lost_wakeup_checker() {
	prove bug-lost-wakeup "^    seen: checker: the (client|server) was still running after [0-9]+ s: it hung" \
		"^    seen: its last line before the hang: (client|server): "
}

test_bug_unacked_events_checker() {
	prove bug-unacked-events "^    seen: checker: the (client|server) printed its report, and [0-9]+ s later had not exited; .* last trace line: (client|server): rdma_destroy_qp\$"
}

test_bug_rdma_address_checker() {
	prove bug-rdma-address "^    seen: client: [0-9.:]+ refused our RDMA write: "
}

test_blast_sr_2e_checker() {
	prove blast-sr-2e "^    seen: the agent used [0-9]+ of [0-9]+ CPU ticks"
}

test_rdma_read_checker() {
	prove rdma-read "^    seen: (client|server): post_read [0-9.:]+: TODO 1 is not done yet\$"
}

test_atomic_counter_checker() {
	prove atomic-counter "^    seen: the clients posted 0 fetch-and-adds \(0 completed\) and [1-9][0-9]* RDMA reads, writes and compare-and-swaps;"
}

test_pubsub_board_checker() {
	prove pubsub-board "^    seen: client: post_reads: TODO is not done yet\$"
}

# Each way around a lesson, labs/solutions/NAME.gaming/ATTEMPT.patch
# applied to the starter: the checker fails, as its expect lines say.
test_gaming_attempts_fail() {
	prove_attempts
}

# Two students on one shared host, each with a range of ports of their
# own (OUR_PORT): their checkers of the same exercise, run at once, both
# pass; the checker's ports follow OUR_PORT.
room_run() {
	OUR_PORT=$1 run_checker \
		"$COPIES/solution/labs/exercises/bug-recv-access/check"
}

room_result() {
	echo "  bug-recv-access, OUR_PORT=$1: $(tail -n 1 "$WORK/check.out")"
	assertEquals "the checker with OUR_PORT=$1; $(checker_said)" \
		0 "$(cat "$WORK/check.status")"
	assert_output "$WORK/check.out" "^bug-recv-access: [1-9][0-9]* passed, 0 failed\$"
}

test_two_rooms_check_at_once() {
	require_rdma || return 0
	at_once room_run room_result 12321 14321
}

test_post_wr_checker() {
	prove post-wr "^    seen: client: rdma_create_qp 3 times, rdma_create_qp_ex 3, in 3 runs\$"
}

test_selective_signaling_checker() {
	prove selective-signaling "^    seen: -b 4 -c 151: 151 sends posted, 151 signaled, the last signaled; one in 2 and the last make 76; sq_sig_all=0\$"
}

test_ping_sr_0e_checker() {
	prove ping-sr-0e "^    seen: client: never undone: id PD MR MR CQ QP\$"
}

test_cm_thread_checker() {
	prove cm-thread "^    seen: checker: the client was still running [0-9]+ s after its server was killed: it hung"
}

test_write_chain_checker() {
	prove write-chain "^    seen: -b 16 -c 203: 203 RDMA writes in 203 calls of ibv_post_send with no notice\$" \
		"^    seen: -b 16 -c 203: at most 1 RDMA write in a call, where the ring allows 8\$"
}

. shunit2
