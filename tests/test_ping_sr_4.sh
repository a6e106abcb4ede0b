#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ping-sr-4: both channels in O_NONBLOCK mode and one poll() on both fds.
# A verified ping-pong at every size, the counters of the completion
# channel, one thread only, and a survivor that sees its peer die, says
# so and exits within 5 seconds, releasing everything (valgrind-clean).
. "$(dirname "$0")/lib.sh"

STAGE=ping-sr-4

# The counters line of -x (cq_events.c, completions_poll.c), each number
# captured.
COUNTERS='completion channel: ([0-9]+) ibv_poll_cq calls, '
COUNTERS+='([0-9]+) first polls found nothing, ([0-9]+) poll\(\) calls, '
COUNTERS+='([0-9]+) events received'

# What a survivor says, after its peer's address and port.
ENDED='ended the run after [0-9]+ round trips?'

# valgrind is slow in the emulated lab: allow it time where it runs.
VALGRIND_LIMIT=${OUR_VALGRIND_LIMIT:-300}

# ping_pong_verified COUNT SIZE: both sides end well and agree on counts.
ping_pong_verified() {
	require_rdma || return 0
	ping_pong "$STAGE" -v -c "$1" -s "$2"
	assert_output "$WORK/client.out" \
		"^client: $(plural "$1" "round trip") of $(plural "$2" byte) in [0-9.]+ s\$"
	assert_output "$WORK/server.out" \
		"^server: $(plural "$1" "round trip") of $(plural "$2" byte) in [0-9.]+ s\$"
}

# start_long_run: a server and a client of the stage in the middle of a
# long run; sets SERVER_REAL and CLIENT_REAL, the programs' own pids (the
# ones `timeout` runs). With OUR_UNDER_VALGRIND=1 the server runs under
# valgrind; with CLIENT_UNDER_VALGRIND=1 the client does.
start_long_run() {
	local wrapper=()

	start_server "$STAGE" || return 1
	[ "${CLIENT_UNDER_VALGRIND:-}" = 1 ] && wrapper=("${VALGRIND[@]}")
	# A timed run far longer than the test: the test ends it.
	timeout -k 5 "$LIMIT" "${wrapper[@]}" "$KIT/$STAGE/client" \
		-a "$ADDR" -p "$PORT" -D 3600 >"$WORK/client.out" 2>&1 &
	CLIENT_PID=$!
	SERVER_REAL=$(program_pid "$SERVER_PID")
	CLIENT_REAL=$(program_pid "$CLIENT_PID")
	wait_connected "$LIMIT" || return 1
	# A moment of ping-pong, so that each side is waiting in poll().
	sleep 1
	if ! running "$CLIENT_REAL" ||
		! running "$SERVER_REAL"; then
		fail "the run ended too early: $(cat "$WORK"/*.out)"
		return 1
	fi
}

# under_valgrind PID: PID is a program run by valgrind.
under_valgrind() {
	readlink "/proc/$1/exe" | grep -q memcheck
}

# threads PID: the number of threads of process PID.
threads() {
	awk '/^Threads:/ { print $2 }' "/proc/$1/status"
}

test_one_byte_1000_times() {
	ping_pong_verified 1000 1
}

test_4_kib_500_times() {
	ping_pong_verified 500 4096
}

test_1_mib_20_times() {
	ping_pong_verified 20 1048576
}

test_statistics_count_polls_events_and_poll_calls() {
	require_rdma || return 0
	ping_pong "$STAGE" -x -c 300 -s 256
	local side polls empty events calls

	for side in client server; do
		assert_output "$WORK/$side.out" "^$side: $COUNTERS\$"
		read -r polls empty calls events <<<"$(sed -En \
			"s/^$side: $COUNTERS\$/\\1 \\2 \\3 \\4/p" \
			"$WORK/$side.out")"
		# 300 round trips are 600 completions, each polled for.
		assertTrue "$side: $polls polls for 600 completions" \
			"[ '${polls:-0}' -ge 600 ]"
		assertTrue "$side: empty first polls $empty <= polls $polls" \
			"[ '${empty:-0}' -le '${polls:-0}' ]"
		# A ping-pong waits for each message: it sleeps in poll().
		assertTrue "$side: some events were received ($events)" \
			"[ '${events:-0}' -gt 0 ]"
		assertTrue "$side: poll() was called ($calls)" \
			"[ '${calls:-0}' -gt 0 ]"
		# Each event came to a poll() that saw the channel ready.
		assertTrue "$side: $events events from $calls calls of poll()" \
			"[ '${events:-0}' -le '${calls:-0}' ]"
	done
}

test_client_and_server_run_one_thread_each() {
	require_rdma || return 0
	start_long_run || return
	local server_threads client_threads

	server_threads=$(threads "$SERVER_REAL")
	client_threads=$(threads "$CLIENT_REAL")
	assertEquals "threads of the server" 1 "$server_threads"
	assertEquals "threads of the client" 1 "$client_threads"
}

# A whole run under valgrind memcheck is the single pair's, in
# test_single.sh; here each side under memcheck loses its peer, both
# cases side by side.
killed_peer_run() {
	local survivor victim

	if [ "$1" = agent ]; then
		LIMIT=$VALGRIND_LIMIT OUR_UNDER_VALGRIND=1 start_long_run ||
			return
		survivor=$SERVER_REAL victim=$CLIENT_REAL
	else
		LIMIT=$VALGRIND_LIMIT CLIENT_UNDER_VALGRIND=1 start_long_run ||
			return
		survivor=$CLIENT_REAL victim=$SERVER_REAL
	fi
	under_valgrind "$survivor" && echo yes >"$WORK/under-valgrind"
	kill -9 "$victim"
	timed_end "$survivor"
	wait_client
	wait_server
	save_statuses
}

# timed_end PID: wait for PID to end; keep in $WORK how long it took.
timed_end() {
	local start=$(date +%s%N)

	ends_within "$VALGRIND_LIMIT" "$1"
	echo $((($(date +%s%N) - start) / 1000000)) >"$WORK/ms"
}

check_killed_peer_run() {
	local survivor=server status expected=0

	statuses "$1" || return
	status=$SERVER_STATUS
	if [ "$1" = client ]; then
		survivor=client status=$CLIENT_STATUS expected=1
	fi
	assertEquals "the $1 runs under valgrind" yes \
		"$(cat "$WORK/under-valgrind" 2>/dev/null)"
	# A timed run ends when the client goes: not a failure.
	assertEquals "$1 status; $(<"$WORK/$survivor.out")" \
		"$expected" "$status"
	assert_output "$WORK/$survivor.out" "$ENDED"
	assert_valgrind_clean "$WORK/$survivor.out"
	echo "  the $1 under valgrind exited $(<"$WORK/ms") ms after" \
		"its peer was killed"
}

test_either_side_under_valgrind_releases_everything_when_its_peer_dies() {
	require_rdma || return 0
	at_once killed_peer_run check_killed_peer_run agent client
}

. shunit2
