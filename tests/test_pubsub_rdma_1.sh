#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pubsub-rdma-1: one publisher, many subscribers at once, each reading
# the publications from the publisher's board by RDMA read. Eight
# subscribers at once each get every publication, verified; the server
# for eight runs helgrind clean with its publisher thread; a subscriber
# that stops reading and dies holds the others back only while it lives,
# and its agent's failure to watch it is the agent's own;
# the publisher's death ends every subscriber's run with the reason;
# Ctrl-C on either side ends the run with matching reports.
. "$(dirname "$0")/lib.sh"

STAGE=pubsub-rdma-1
LIMIT=${OUR_VALGRIND_LIMIT:-300}
NUMBER='[0-9]+\.[0-9]+'

# published: the count in the server's last line.
published() {
	sed -En 's/^server: ([0-9]+) publications for [0-9]+ subscribers?$/\1/p' \
		"$WORK/server.out"
}

test_eight_subscribers_at_once_each_get_every_publication() {
	require_rdma || return 0
	local i

	start_server "$STAGE" -n 8 || return
	clients 8 -v -b 8 -c 300
	wait_clients 8
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	for ((i = 1; i <= 8; i++)); do
		assert_output "$WORK/client.$i.out" \
			"^client: 300 publications of 64 bytes in $NUMBER s\$"
	done
	assertEquals "agents whose subscriber read 300" 8 \
		"$(count "$WORK/server.out" "^server: 300 publications of 64 bytes in ")"
	# Every one was published once, whoever read it: at least the 300
	# each subscriber read, at most 64 (the board) past the last one's.
	assertTrue "published $(published): $(tail -n 1 "$WORK/server.out")" \
		"[ '$(published)' -ge 300 ]"
}

# -b 1: one read in flight, and the two receives a subscriber keeps
# posted (its agent's advertisement and its notices) fit its receive
# queue, which the buffer plan sizes, not -b.
test_a_subscriber_with_one_buffer() {
	require_rdma || return 0

	start_server "$STAGE" || return
	run_client "$STAGE" -v -b 1 -c 100
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: 100 publications of 64 bytes in $NUMBER s\$"
}

# A read that fails has read nothing, even once the agent's answer is in:
# the fault flushes the subscriber's RDMA read. Its agent, whose count
# the first notice seemed to finish, sees it go and ends its run: with
# nothing in flight, no flush would end its wait.
test_a_subscriber_whose_read_is_flushed_fails() {
	require_rdma || return 0

	flushed_run 4 || return
	assert_output "$WORK/client.out" "^client: work request flushed: "
	assertEquals "server; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/server.out" \
		"^server: [0-9.:]+ ended the run after 0 of 1 publications\$"
}

# The subscriber reads what the agent told of, -b reads a chain: -x shows
# how many publications each notice told of, and the agent reports the
# count the subscriber's last notice gave.
test_a_subscriber_reads_what_each_notice_tells_of() {
	require_rdma || return 0

	start_server "$STAGE" || return
	run_client "$STAGE" -v -x -b 4 -c 1000
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" \
		"^client: subscriber: publications the agent's notices told of: 1: [0-9]+, 2-3: [0-9]+, 4-7: [0-9]+, 8-15: [0-9]+, 16\\+: [0-9]+\$"
	assert_output "$WORK/server.out" \
		"^server: 1000 publications of 64 bytes in $NUMBER s\$"
}

# The publisher thread, the agents and their CM event threads share the
# board and a signal note: helgrind finds no race.
test_the_publisher_for_many_is_helgrind_clean() {
	require_rdma || return 0

	OUR_UNDER_VALGRIND=helgrind start_server "$STAGE" -n 8 || return
	clients 8 -v -c 100
	wait_clients 8
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_valgrind_clean "$WORK/server.out"
	assertEquals "agents whose subscriber read 100" 8 \
		"$(count "$WORK/server.out" "^server: 100 publications of 64 bytes in ")"
}

# A subscriber that stops reading holds the board, so the publisher can
# run at most 64 publications past it: two subscribers of 2000 that come
# then are held back, and finish only once it has died and its agent has
# left the board.
test_a_subscriber_dying_leaves_the_others_running() {
	require_rdma || return 0
	local victim i

	start_server "$STAGE" -n 3 || return
	program_command client "$STAGE"
	"${COMMAND[@]}" -a "$ADDR" -p "$PORT" -t -c 1000000 \
		>"$WORK/client.out" 2>&1 &
	CLIENT_PID=$!
	victim=$(program_pid "$CLIENT_PID")
	wait_for_line "$WORK/client.out" "'s memory: 4096 bytes at " \
		"$CLIENT_PID" "$LIMIT" || fail "the first subscriber did not start"
	kill -STOP "$victim"
	clients 2 -t -v -c 2000
	# Both have their place on the board (the agent takes it before it
	# advertises the board) before the stopped one goes.
	for i in 1 2; do
		wait_for_line "$WORK/client.$i.out" "'s memory: 4096 bytes at " \
			"$SERVER_PID" "$LIMIT" || fail "subscriber $i did not start"
	done
	# Held back: a second later neither has its 2000. (A board that did
	# not wait for the stopped one would let them finish in a fraction
	# of that.)
	nap 1
	for i in 1 2; do
		assertFalse "subscriber $i finished while the stopped one held the board: $(<"$WORK/client.$i.out")" \
			"[ -e '$WORK/client.$i.status' ]"
	done
	kill -KILL "$victim"
	wait_client
	wait_clients 2
	assertEquals "server; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assertEquals "agents whose subscriber read 2000" 2 \
		"$(count "$WORK/server.out" "^server: 2000 publications of 64 bytes in ")"
	assert_output "$WORK/server.out" \
		"^server: [0-9.:]+ ended the run after [0-9]+ of 1000000 publications\$"
}

# hold_the_board: with the server started for two, a subscriber stopped
# (VICTIM) holds the board while another (READER, killed on return)
# reads to 64 past it, and then its agent waits for the publisher.
hold_the_board() {
	program_command client "$STAGE"
	"${COMMAND[@]}" -a "$ADDR" -p "$PORT" -c 1000000 \
		>"$WORK/client.out" 2>&1 &
	VICTIM=$(program_pid "$!")
	clients_connected 1 || return
	kill -STOP "$VICTIM"
	"${COMMAND[@]}" -a "$ADDR" -p "$PORT" -c 1000000 \
		>"$WORK/client.1.out" 2>&1 &
	READER=$(program_pid "$!")
	clients_connected 2 || return
	nap 1
	kill -KILL "$READER"
}

# A subscriber that dies while a stopped one holds the board ends its
# agent all the same: the agent that waits for the publisher sees its own
# connection go, and the server is not kept waiting for it.
test_an_agent_waiting_for_the_board_sees_its_subscriber_die() {
	require_rdma || return 0

	start_server "$STAGE" -n 2 || return
	hold_the_board || return
	wait_for_line "$WORK/server.out" \
		"^server: [0-9.:]+ ended the run after [0-9]+ of 1000000 publications\$" \
		"$SERVER_PID" "$LIMIT" ||
		fail "the agent of the dead subscriber did not end: $(<"$WORK/server.out")"
	kill -KILL "$VICTIM"
	wait_server
	wait
	assertEquals "server; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
}

# The same wait, when the agent's watch cannot take its subscriber's
# disconnect (a fault loaded into the server): the agent says so, and
# ends its run as its own failure, not as the subscriber's end of it.
test_a_failed_watch_of_an_agent_waiting_for_the_board_is_its_own() {
	require_rdma || return 0

	OUR_CM_FAULT=disconnected LD_PRELOAD=$KIT/tests/fail-cm-event.so \
		start_server "$STAGE" -n 2 || return
	hold_the_board || return
	wait_for_line "$WORK/server.out" "can no longer be watched" \
		"$SERVER_PID" "$LIMIT" ||
		fail "the agent of the dead subscriber did not end: $(<"$WORK/server.out")"
	kill -KILL "$VICTIM"
	wait_server
	wait
	assertEquals "server; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/server.out" \
		"^server: the connection to [0-9.:]+ can no longer be watched \\(Input/output error\\): ending the run\$"
	assert_no_output "$WORK/server.out" "ended the run after"
}

# The publisher killed while two subscribers read: each sees its
# connection go, says that the server ended its run, and exits 1; none
# blames a read or the board.
test_the_publisher_dying_ends_every_subscribers_run() {
	require_rdma || return 0
	local i

	start_server "$STAGE" -n 2 || return
	clients 2 -v -D 3600
	clients_connected 2 || return
	nap 0.5
	kill -KILL "$(program_pid "$SERVER_PID")"
	wait_server
	wait
	for i in 1 2; do
		assertEquals "client $i; $(<"$WORK/client.$i.out")" 1 \
			"$(<"$WORK/client.$i.status")"
		assert_output "$WORK/client.$i.out" \
			"^client: [0-9.:]+ ended the run after [0-9]+ publications\$"
		assert_no_output "$WORK/client.$i.out" "failed|corrupt|read publication"
	done
}

# Ctrl-C on the server (under memcheck): the publisher thread stops, each
# agent ends its run and reports, and the server exits 130, valgrind
# clean; each subscriber says that the server ended its run.
test_ctrl_c_on_the_publisher_ends_every_agent() {
	require_rdma || return 0

	ctrl_c_ends_every_agent publications || return
	assert_output "$WORK/server.out" \
		"^server: [0-9]+ publications for 2 subscribers\$"
}

# Ctrl-C on a subscriber (under memcheck): it ends after the reads in
# progress and tells its agent how far it read, which the agent reports.
test_ctrl_c_on_a_subscriber_tells_its_agent_the_count() {
	require_rdma || return 0

	ctrl_c_ends_a_client || return
	assert_output "$WORK/server.out" \
		"^server: $MADE publications? of 64 bytes in "
}

. shunit2
