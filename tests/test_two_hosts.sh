#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two hosts on a wire: in the two-host lab (labs/lab pair) each guest has
# its own Soft-RoCE device on its own network card, a client on host a
# works with its server on host b across the link, every byte checked,
# and `labs/lab on` runs a command on the other host as if here.
# make check runs it there: labs/lab pair run -- tests/run
# tests/test_two_hosts.sh. Elsewhere each test is skipped, and counted.
# tests/run: pair
. "$(dirname "$0")/lib.sh"

NUMBER='[0-9]+\.[0-9]+'

# frames_sent: how many frames this host's end of the link has sent.
frames_sent() {
	local frames
	read -r frames </sys/class/net/lab0/statistics/tx_packets
	echo "$frames"
}

# across_the_link STAGE COUNT ARGS...: a ping-pong of STAGE with ARGS
# (tests/lib.sh's ping_pong: both sides must succeed) for COUNT round
# trips, its server on the other host, its client here; this host must
# have sent at least one frame a round trip. Output in $WORK/server.out
# and $WORK/client.out.
across_the_link() {
	local stage=$1 count=$2 sent status=0
	shift 2
	sent=$(frames_sent)
	over_there
	ping_pong "$stage" "$@" || status=1
	here
	PORT=$((PORT + 1))
	[ $(($(frames_sent) - sent)) -ge "$count" ] ||
		fail "$stage: $count transfers, but only $(($(frames_sent) - sent)) frames went out on lab0"
	return "$status"
}

test_each_host_has_its_own_device_on_its_own_card() {
	require_pair || return 0

	for host in a b; do
		run_program "$KIT/labs/lab" on "$host" -- bash -c \
			'echo "$LAB_HOST $LAB_ADDR $LAB_PEER"; ip -o -4 addr show dev lab0; ip -o link show dev lab0; rdma link show rxe0/1'
		assertEquals "host $host; $(<"$WORK/program.out")" 0 "$STATUS"
		cp "$WORK/program.out" "$WORK/$host.out"
	done
	assert_output "$WORK/a.out" "^a 192\\.0\\.2\\.1 192\\.0\\.2\\.2\$"
	assert_output "$WORK/b.out" "^b 192\\.0\\.2\\.2 192\\.0\\.2\\.1\$"
	assert_output "$WORK/a.out" " inet 192\\.0\\.2\\.1/24 "
	assert_output "$WORK/b.out" " inet 192\\.0\\.2\\.2/24 "
	assert_output "$WORK/a.out" " link/ether 52:54:00:c0:02:01 "
	assert_output "$WORK/b.out" " link/ether 52:54:00:c0:02:02 "
	for host in a b; do
		assert_output "$WORK/$host.out" \
			"^link rxe0/1 state ACTIVE physical_state LINK_UP netdev lab0 *\$"
	done
}

# A verified run (-v) across the link, the server on the other host, the
# client here: every transfer sends at least one frame out of this
# host's card. (Every stage runs verified across the link in the
# READMEs' two-host blocks, which test_readmes.sh runs in the pair.)
test_a_verified_run_crosses_the_link() {
	require_pair || return 0

	across_the_link ping-sr-0 200 -c 200 -s 1000 -v &&
		assert_output "$WORK/server.out" \
			"^server: 200 round trips of 1000 bytes in $NUMBER s\$"
	across_the_link ping-rdma-1 200 -v -s 1000 -c 200 &&
		assert_output "$WORK/client.out" \
			"^client: 200 round trips of 1000 bytes in $NUMBER s\$"
}

# What `labs/lab on` brings back: the command's output, both streams,
# and its exit status.
test_on_passes_output_and_status() {
	require_pair || return 0

	run_program "$KIT/labs/lab" on "$OTHER" -- \
		bash -c 'echo "out on $(hostname)"; echo "err on $LAB_HOST" >&2; exit 7'
	assertEquals "status; $(<"$WORK/program.out")" 7 "$STATUS"
	assert_output "$WORK/program.out" "^out on lab-$OTHER\$"
	assert_output "$WORK/program.out" "^err on $OTHER\$"
}

# A signal to `labs/lab on` goes on to the program on the other host: a
# server told SIGTERM in the middle of a timed run ends as it would here,
# with its report, and its client here says the server ended the run.
test_on_passes_a_signal_on() {
	require_pair || return 0

	over_there
	start_server ping-sr-2 || { here; return; }
	start_client ping-sr-2 -D 60
	wait_connected || { here; return; }
	here
	kill -TERM "$(program_pid "$SERVER_PID")"
	wait_server
	wait_client
	assertEquals "server status; $(<"$WORK/server.out")" 143 "$SERVER_STATUS"
	assertEquals "client status; $(<"$WORK/client.out")" 1 "$CLIENT_STATUS"
	assert_output "$WORK/server.out" \
		"^server: interrupted by SIGTERM after [0-9]+ round trips"
	assert_output "$WORK/client.out" \
		"^client: 192\\.0\\.2\\.[12]:$PORT ended the run after [0-9]+ "
}

test_on_refuses_what_it_cannot_do() {
	require_pair || return 0

	run_program "$KIT/labs/lab" on c -- true
	assertEquals "on c; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: on: the hosts of a pair are a and b, not 'c'\$"
	run_program "$KIT/labs/lab" on "$OTHER"
	assertEquals "no command; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" "^lab: on $OTHER: no command\$"
	run_program env -u LAB_PAIR "$KIT/labs/lab" on "$OTHER" -- true
	assertEquals "outside a pair; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: on: only inside the two hosts of labs/lab pair"
}

. shunit2
