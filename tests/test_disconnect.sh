#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Problem 2 and its fix: a side that dies mid-run. ping-sr-1's survivor
# waits for ever, since nothing watches the connection while it polls;
# from ping-sr-2 on, the survivor sees the peer go, says that the peer
# ended the run after so many transfers (never that the sizes disagree),
# and exits within 5 seconds. Each watching stage loses its peer many
# times in a row, at different moments of the run: the send/recv stages,
# and ping-rdma-1, ping-rdma-2, blast-rdma-1 and atomic-1, whose RDMA
# writes, reads and atomics fail as sends do when the peer goes; and
# ping-sg-1, ping-post-1 and ping-wr-1, a third as many times. And the
# other way round: a side whose peer is stopped just as the run ends
# still ends, within 5 seconds. And a run that has done its count ends
# as planned, even when the peer's hang-up comes before the last
# acknowledgement.
. "$(dirname "$0")/lib.sh"

# Kills per stage: half of them the client, half the server.
KILLS=${OUR_KILLS:-8}

# paused_run SIDE: a ping-sr-1 run in which the side that will live is
# made to wait for a message that never comes, whatever the lab's speed;
# then SIDE (client or server) is killed, and 6 seconds later (more than
# the 5 in which a watching stage ends) the survivor is checked on. The
# other side is stopped (SIGSTOP) once the agent says it is connected
# (stopped before it, the client would leave the agent's accept to fail):
# the survivor's last message is then answered by the stopped side's
# kernel, not by its program. It is killed only once the survivor has
# nothing in flight (sends_done): a message still unacknowledged when
# its peer dies would fail, and tell the survivor.
paused_run() {
	local victim survivor=client survivor_pid

	start_server ping-sr-1 -T || return
	start_client ping-sr-1 -T -c 10000000
	SERVER_REAL=$(program_pid "$SERVER_PID")
	CLIENT_REAL=$(program_pid "$CLIENT_PID")
	victim=$SERVER_REAL survivor_pid=$CLIENT_REAL
	[ "$1" = server ] ||
		victim=$CLIENT_REAL survivor=server survivor_pid=$SERVER_REAL
	wait_connected || return
	kill -STOP "$victim"
	sends_done "$survivor" || return
	kill -9 "$victim"
	sleep 6
	running "$survivor_pid" && echo yes >"$WORK/still-waiting"
	kill "$SERVER_PID" "$CLIENT_PID" 2>/dev/null
	wait
}

# sends_done SIDE: until every send SIDE posted has its completion (-T
# traces both), the same a second apart: with its peer stopped, the
# kernel of the peer's host still acknowledges what arrives, and what
# was on its way has come.
sends_done() {
	local now last='' i

	for ((i = 0; i < LIMIT; i++)); do
		now="$(grep -c "^$1: ibv_post_send " "$WORK/$1.out") $(grep -c "^$1: work completion: send " "$WORK/$1.out")"
		[ "${now% *}" = "${now#* }" ] && [ "$now" = "$last" ] && return 0
		last=$now
		nap 1
	done
	fail "the $1's sends were never all acknowledged: $(tail -n 5 "$WORK/$1.out")"
	return 1
}

check_paused_run() {
	local survivor=server

	[ "$1" = server ] && survivor=client
	# The lesson: the survivor still polls for a message that never comes.
	assertEquals "the ping-sr-1 $survivor should still be waiting" yes \
		"$(cat "$WORK/still-waiting" 2>/dev/null)"
	assert_no_output "$WORK/$survivor.out" "ended the run"
}

# Both sides' cases side by side: they wait the same 6 seconds.
test_ping_sr_1_survivor_waits_for_ever_when_its_peer_dies() {
	require_rdma || return 0
	at_once paused_run check_paused_run client server
}

# problem MESSAGE: note a failure of a kill loop in $RESULTS (the loops
# run in the background, where shunit2's asserts would be lost), on one
# line, so that the output it quotes is shown whole.
problem() {
	local message="$*"

	echo "FAIL ${message//$'\n'/ | }" >>"$RESULTS"
	PROBLEMS=$((PROBLEMS + 1))
}

# kill_mid_run STAGE SIDE ROUND: a timed run of STAGE; once connected,
# wait a moment that changes with ROUND, kill SIDE (client or server) and
# check that the survivor exits within 5 seconds with the status it
# should, saying that the peer ended the run, never blaming the sizes or
# reporting a failure. Notes "ok" or the problems in $RESULTS.
kill_mid_run() {
	local stage=$1 side=$2 round=$3 victim survivor who expected
	local status out pause
	pause=$(printf '0.%02d' $(((round * 37) % 50)))
	PROBLEMS=0

	PORT=$((PORT + 1))
	if ! start_timed_run "$stage" 2>/dev/null; then
		problem "$stage, kill $round: no run: $(cat "$WORK"/*.out)"
		kill "$SERVER_PID" "$CLIENT_PID" 2>/dev/null
		wait
		return 1
	fi
	nap "$pause"
	if [ "$side" = client ]; then
		# A timed run ends when the client goes: not a failure.
		victim=$CLIENT_REAL survivor=$SERVER_REAL who=server expected=0
	else
		victim=$SERVER_REAL survivor=$CLIENT_REAL who=client expected=1
	fi
	kill -9 "$victim"
	ends_within 5 "$survivor" ||
		problem "$stage, kill $round: the $who did not exit within 5 s"
	wait_server
	wait_client
	status=$SERVER_STATUS
	[ "$who" = client ] && status=$CLIENT_STATUS
	out=$WORK/$who.out
	[ "$status" = "$expected" ] ||
		problem "$stage, kill $round: $who status $status, not $expected: $(<"$out")"
	has_line "$out" "^$who: [0-9.:]+ ended the run after [0-9]+ (round trip|message|addition)s?\$" ||
		problem "$stage, kill $round: the $who did not say the peer ended the run: $(<"$out")"
	! has_line "$out" "[Ss]ize" ||
		problem "$stage, kill $round: the $who blamed the sizes: $(<"$out")"
	! has_line "$out" "failed" ||
		problem "$stage, kill $round: the $who reported a failure: $(<"$out")"
	[ "$PROBLEMS" -eq 0 ] && echo "ok $stage $side $round" >>"$RESULTS"
	return 0
}

# kill_many STAGE: KILLS kills of STAGE's peers, alternately the client
# and the server, each at another moment of the run; on ports and in a
# folder of its own.
kill_many() {
	local stage=$1 round

	WORK=$WORK/$stage
	mkdir -p "$WORK"
	for round in $(seq 1 "$KILLS"); do
		if [ $((round % 2)) -eq 1 ]; then
			kill_mid_run "$stage" client "$round" || return
		else
			kill_mid_run "$stage" server "$round" || return
		fi
	done
}

# kill_two STAGE [STAGE]: the kill loops of two stages side by side, to
# save time (one of each pair polls busily, the other sleeps); then every
# kill must have gone as it should.
kill_two() {
	local stage

	require_rdma || return 0
	RESULTS=$WORK/results
	: >"$RESULTS"
	(kill_many "$1") 2>"$WORK/$1.log" &
	[ $# -eq 2 ] &&
		(PORT=$((PORT + 500)); swap_cpus; kill_many "$2") 2>"$WORK/$2.log" &
	wait
	assertFalse "$(grep '^FAIL' "$RESULTS")" "grep -q '^FAIL' '$RESULTS'"
	for stage in "$@"; do
		assertEquals "$stage: kills seen by the survivor" "$KILLS" \
			"$(grep -c "^ok $stage " "$RESULTS")"
		echo "  $stage: $(grep -c "^ok $stage " "$RESULTS") of $KILLS kills seen by the survivor as they should be"
	done
}

# The client has its last pong and hangs up; its disconnect may reach the
# server before the acknowledgement of that pong does: the pong's send
# completion then comes flushed (as it does in ping-sr-0 here, with a fault
# loaded into the server), or after the CM event thread has seen the
# disconnect (as it does in ping-sr-2, the completion held back 3 s, well
# past the grace the agent gives completions on their way). Either way the
# server has done its count: it ends as planned, and says nothing of a
# peer that ended the run.
test_a_hang_up_after_the_last_pong_ends_the_run_as_planned() {
	require_rdma || return 0
	local run stage flush count

	# STAGE:FLUSH; ping-sr-0's server runs the count it is given,
	# ping-sr-2's the client's.
	for run in ping-sr-0:1 ping-sr-2:0; do
		stage=${run%:*} flush=${run#*:} count=(-c 1)
		[ "$stage" = ping-sr-0 ] || count=()
		OUR_SEND_FLUSH=$flush OUR_SEND_DELAY_MS=3000 \
			LD_PRELOAD=$KIT/tests/slow-sends.so \
			start_server "$stage" "${count[@]}" || return
		run_client "$stage" -c 1
		wait_server
		assertEquals "$stage client, server; $(cat "$WORK"/*.out)" \
			"0 0" "$CLIENT_STATUS $SERVER_STATUS"
		assert_output "$WORK/server.out" "^server: 1 round trips? of "
		assert_no_output "$WORK/server.out" "ended the run|flushed"
		PORT=$((PORT + 1))
	done
}

# The CM event thread cannot take an event (a fault loaded into the
# server): the agent says so and ends the run, instead of polling for ever
# for a client that has gone.
test_a_failed_cm_thread_ends_the_run() {
	require_rdma || return 0
	local stage

	for stage in ping-sr-2 ping-sr-3 blast-sr-2; do
		LD_PRELOAD=$KIT/tests/fail-cm-event.so start_server "$stage" ||
			return
		SERVER_REAL=$(program_pid "$SERVER_PID")
		run_client "$stage" -D 1
		assertEquals "$stage client; $(<"$WORK/client.out")" \
			0 "$CLIENT_STATUS"
		assertTrue "$stage agent should exit within 5 s" \
			"ends_within 5 $SERVER_REAL"
		wait_server
		assertEquals "$stage agent; $(<"$WORK/server.out")" \
			1 "$SERVER_STATUS"
		assert_output "$WORK/server.out" \
			"^server: the connection to [0-9.:]+ can no longer be watched \\(Input/output error\\): ending the run\$"
		# Its own failure, not the client's end of the run.
		assert_no_output "$WORK/server.out" "ended the run after"
		PORT=$((PORT + 1))
	done
}

# ping-sr-4's one thread cannot take the peer's disconnect (a fault
# loaded into the server): the agent says so and ends the run as its own
# failure, not as the client's end of it.
test_a_failed_cm_watch_is_not_blamed_on_the_peer() {
	require_rdma || return 0
	OUR_CM_FAULT=disconnected LD_PRELOAD=$KIT/tests/fail-cm-event.so \
		start_server ping-sr-4 || return
	SERVER_REAL=$(program_pid "$SERVER_PID")
	run_client ping-sr-4 -D 1
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertTrue "the agent should exit within 5 s" \
		"ends_within 5 $SERVER_REAL"
	wait_server
	assertEquals "agent; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/server.out" \
		"^server: rdma_get_cm_event [0-9.:]+: Input/output error\$"
	assert_no_output "$WORK/server.out" "ended the run after"
	PORT=$((PORT + 1))
}

# rdma_disconnect fails (a fault loaded into ping-sr-4's client, whose
# agent waits for it to hang up): the report gives rdma_disconnect's own
# reason, not the EAGAIN of the look at the channel that follows it.
test_a_failed_rdma_disconnect_says_why() {
	require_rdma || return 0
	start_server ping-sr-4 || return
	OUR_CM_FAULT=rdma_disconnect LD_PRELOAD=$KIT/tests/fail-cm-event.so \
		run_client ping-sr-4 -D 1
	wait_server
	assert_output "$WORK/client.out" \
		"^client: rdma_disconnect [0-9.:]+: Invalid argument\$"
	PORT=$((PORT + 1))
}

test_ping_sr_2_and_3_survive_their_peers_dying() {
	kill_two ping-sr-2 ping-sr-3
}

test_ping_sr_4_and_blast_sr_2_survive_their_peers_dying() {
	kill_two blast-sr-2 ping-sr-4
}

test_ping_rdma_1_and_2_survive_their_peers_dying() {
	kill_two ping-rdma-1 ping-rdma-2
}

test_blast_rdma_1_and_atomic_1_survive_their_peers_dying() {
	kill_two blast-rdma-1 atomic-1
}

# stopped_at_the_end SIDE.STAGE: a whole run of STAGE (as the single
# pairs run it); the moment SIDE (client or server) prints its report, its
# peer is stopped (SIGSTOP), as a loaded machine may leave a program
# unscheduled for seconds just when the run ends. SIDE must end within 5 s
# all the same: the answer to its disconnect comes only once the peer's
# program disconnects too, so it waits for it no longer than
# our_disconnect's 3 s (ping-sr-2/cm_thread.c), and the rest of its
# teardown needs nothing from the peer. Then the peer goes on, and ends
# as well.
stopped_at_the_end() {
	local side=${1%%.*} stage=${1#*.}

	whole_run_args "$stage"
	whole_run_report "$side" "$stage"
	start_server "$stage" || return
	start_client "$stage" "${WHOLE_ARGS[@]}"
	SERVER_REAL=$(program_pid "$SERVER_PID")
	CLIENT_REAL=$(program_pid "$CLIENT_PID")
	local pid=$SERVER_PID reporter=$SERVER_REAL peer=$CLIENT_REAL
	[ "$side" = client ] && pid=$CLIENT_PID reporter=$CLIENT_REAL \
		peer=$SERVER_REAL
	if wait_for_line "$WORK/$side.out" "$REPORT" "$pid" "$LIMIT"; then
		kill -STOP "$peer" 2>/dev/null
		ends_within 5 "$reporter" && echo yes >"$WORK/ended"
		kill -CONT "$peer" 2>/dev/null
	fi
	wait_client
	wait_server
	save_statuses
}

check_stopped_at_the_end() {
	local side=${1%%.*} stage=${1#*.}

	statuses "$1" || return
	assert_whole_run "$side" "$stage"
	assertEquals "$stage: the $side did not end within 5 s of its report while its peer was stopped; $(<"$WORK/$side.out")" \
		yes "$(cat "$WORK/ended" 2>/dev/null)"
	assertEquals "$stage client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "$stage server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
}

# The one-sided stages whose servers, on a loaded machine, once reported
# and then did not end: each side stopped in turn as the other ends.
test_a_side_ends_while_its_peer_is_stopped() {
	require_rdma || return 0
	local stage runs=()

	for stage in blast-rdma-1 atomic-1 pubsub-rdma-1; do
		runs+=("server.$stage" "client.$stage")
	done
	at_once stopped_at_the_end check_stopped_at_the_end "${runs[@]}"
}

# The posting stages differ from ping-sr-2 in how they post, not in how
# they watch the connection: a list of pieces, rdma_post_* and ibv_wr_*
# meet a peer that has gone as one piece and ibv_post_* do, with flushed
# work. A third of the kills each, one stage at a time: all three poll
# busily, and four busy pollers on two CPUs would leave a survivor
# little time to see its peer go.
test_posting_stages_survive_their_peers_dying() {
	local stage

	for stage in ping-sg-1 ping-post-1 ping-wr-1; do
		KILLS=$((KILLS / 3)) kill_two "$stage"
	done
}

. shunit2
