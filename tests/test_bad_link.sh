#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A bad link (labs/link) between the two hosts of labs/lab pair: at 2%
# loss with reordering every stage still checks every byte (the
# transport sends again, and the devices' counters say so); a cut link
# fails the sender's work requests, which each program says in words; a
# server of many clients goes on with the others; blast-rdma-1's agent
# waits for a free send slot when its notices' acknowledgements are late;
# labs/link refuses what it cannot do.
# make check runs it in the pair: labs/lab pair run -- tests/run
# tests/test_bad_link.sh. Elsewhere each test is skipped, and counted.
# tests/run: pair
. "$(dirname "$0")/lib.sh"

LINK=$KIT/labs/link
NUMBER='[0-9]+\.[0-9]+'

# A packet the link loses is sent again after the ACK timeout; then, after
# the retries, the work request fails with these words.
GONE='failed: no acknowledgement from (192\.0\.2\.[12]:[0-9]+) after 6 retries: the link is down, or \1 is gone$'

# link SETTING...: labs/link, which must succeed.
link() {
	"$LINK" "$@" >"$WORK/link.out" 2>&1 ||
		fail "labs/link $*: $(<"$WORK/link.out")"
}

# retransmissions: what both hosts' devices have sent again so far: after
# an ACK timeout (completer_retry_err) or a NAK for a packet out of
# sequence (rcvd_seq_err).
retransmissions() {
	local host sum=0 n
	for host in a b; do
		for n in $("$KIT/labs/lab" on "$host" -- rdma statistic show link rxe0/1 |
			awk '{ for (i = 1; i < NF; i++)
				if ($i == "completer_retry_err" || $i == "rcvd_seq_err")
					print $(i + 1) }'); do
			sum=$((sum + n))
		done
	done
	echo "$sum"
}

# BOUND: what bounds each program in time. A `timeout` given a signal, or
# whose time is up, sends it to its command, then to its process group,
# which holds the command too: two signals, the second of which ends a
# program that has caught the first at once (see common/interrupt.c), its
# report unsaid. --foreground sends it to the command only.
BOUND=(timeout --foreground -k 5 $((5 * LIMIT)))

# serve NAME STAGE PORT ARGS...: STAGE's server with ARGS on the other
# host, for as long as the test may take, output in
# $WORK/NAME.server.out, the pid of its `labs/lab on` in
# PIDS[NAME.server]. listening NAME: until that server listens.
declare -A PIDS PORTS
serve() {
	local name=$1 stage=$2 port=$3
	shift 3
	"$KIT/labs/lab" on "$OTHER" -- "${BOUND[@]}" \
		"$KIT/$stage/server" -a "$LAB_PEER" -p "$port" "$@" \
		>"$WORK/$name.server.out" 2>&1 &
	PIDS[$name.server]=$!
}

listening() {
	wait_for_line "$WORK/$1.server.out" '^server: listening' \
		"${PIDS[$1.server]}" "$LIMIT" ||
		fail "$1: the server did not start: $(<"$WORK/$1.server.out")"
}

# connect NAME STAGE PORT [on HOST] ARGS...: STAGE's client with ARGS, here
# (or on HOST), to the server on the other host's PORT, for as long as
# the test may take; output in
# $WORK/NAME.client.out, the pid to wait for in PIDS[NAME.client].
connect() {
	local name=$1 stage=$2 port=$3 on=()
	shift 3
	if [ "$1" = on ]; then
		on=("$KIT/labs/lab" on "$2" --)
		shift 2
	fi
	"${on[@]}" "${BOUND[@]}" "$KIT/$stage/client" -a "$LAB_PEER" \
		-p "$port" "$@" >"$WORK/$name.client.out" 2>&1 &
	PIDS[$name.client]=$!
	PORTS[$name]=$port
}

# pause NAME, go_on NAME: stop and continue the client of NAME, here
# (found by its port: `timeout` stands between).
pause() {
	pkill -STOP -f -- "/client -a $LAB_PEER -p ${PORTS[$1]} " ||
		fail "no client of $1 to stop"
}

go_on() {
	pkill -CONT -f -- "/client -a $LAB_PEER -p ${PORTS[$1]} "
}

# await NAME.SIDE: wait for that program to end; STATUS: its exit status.
await() {
	wait "${PIDS[$1]}"
	STATUS=$?
}

# quiet_link: once no packet has crossed the link for half a second.
quiet_link() {
	local now last='' i
	for ((i = 0; i < LIMIT * 2; i++)); do
		now=$(cat /sys/class/net/lab0/statistics/{tx,rx}_packets)
		[ "$now" = "$last" ] && return 0
		last=$now
		nap 0.5
	done
	fail "the link never went quiet"
}

# Each stage verifies (-v) a short run across the link: the unit of its
# report, and its client's arguments, the count first. blast-rdma-1's
# agent has one send slot: a notice stays in flight until its
# acknowledgement comes, and when the client's next notice overtakes that
# acknowledgement (the link reorders), the agent must wait for the slot
# rather than write over a message the adapter may have to send again.
# -x counts how often; how often depends on how fast the two guests run
# (none, when the client is slower than the link's delay), so only the
# slots given back are asserted here; test_blast_rdma_1.sh holds the
# agent's send completions back so that its slots are soon all busy.
LOSSY_RUNS=(
	"ping-sr-0|round trips|-c 10 -s 3000"
	"ping-sr-1|round trips|-c 10 -s 3000"
	"ping-sr-2|round trips|-c 10 -s 3000"
	"ping-sr-3|round trips|-c 10 -s 3000"
	"ping-sr-4|round trips|-c 10 -s 3000"
	"blast-sr-2|messages|-c 100 -s 1000 -b 8"
	"ping-rdma-1|round trips|-c 10 -s 3000"
	"ping-rdma-2|round trips|-c 10 -s 3000"
	"blast-rdma-1|messages|-c 150 -s 100 -b 1 -x"
	"atomic-1|additions|-c 20"
	"pubsub-rdma-1|publications|-c 20 -b 8"
	"ping-sg-1|round trips|-c 10 -s 3000"
	"ping-post-1|round trips|-c 10 -s 3000"
	"ping-wr-1|round trips|-c 10 -s 200"
)

# All at once, each with its own port: the link's losses cost each run
# its ACK timeouts, not the others'. The settings hold for both ends
# until changed, and `down` puts them back.
test_every_stage_checks_every_byte_at_two_percent_loss_with_reordering() {
	require_pair || return 0
	local run stage unit args server_args before after port=$PORT

	before=$(retransmissions)
	link loss 2% delay 5 reorder 25%
	"$LINK" show >"$WORK/show.out" 2>&1
	assert_output "$WORK/show.out" "^host a sends: netem .*delay 5ms loss 2% reorder 25%"
	assert_output "$WORK/show.out" "^host b sends: netem .*delay 5ms loss 2% reorder 25%"
	for run in "${LOSSY_RUNS[@]}"; do
		IFS='|' read -r stage unit args <<<"$run"
		read -r -a args <<<"$args"
		server_args=()
		[ "$stage" != ping-sr-0 ] || server_args=("${args[@]}")
		[ "$stage" != blast-rdma-1 ] || server_args=(-x)
		serve "$stage" "$stage" "$port" "${server_args[@]}"
		port=$((port + 1))
	done
	port=$PORT
	for run in "${LOSSY_RUNS[@]}"; do
		IFS='|' read -r stage unit args <<<"$run"
		read -r -a args <<<"$args"
		listening "$stage" || return
		connect "$stage" "$stage" "$port" -v "${args[@]}"
		port=$((port + 1))
	done
	PORT=$port
	for run in "${LOSSY_RUNS[@]}"; do
		IFS='|' read -r stage unit args <<<"$run"
		read -r -a args <<<"$args"
		await "$stage.client"
		assertEquals "$stage client; $(<"$WORK/$stage.client.out")" 0 "$STATUS"
		await "$stage.server"
		assertEquals "$stage server; $(<"$WORK/$stage.server.out")" 0 "$STATUS"
		assert_output "$WORK/$stage.client.out" \
			"^client: ${args[1]} $unit of [0-9]+ bytes in $NUMBER s\$"
	done
	assert_output "$WORK/blast-rdma-1.server.out" \
		"^server: flow control: 150 slots given back(, [0-9]+ notices? that waited for a send slot)?\$"
	link down 1
	assert_output "$WORK/link.out" "^link: down for 1 s\$"
	"$LINK" show >"$WORK/show.out" 2>&1
	assert_output "$WORK/show.out" "^host b sends: netem .*delay 5ms loss 2% reorder 25%"
	link clear
	"$LINK" show >"$WORK/show.out" 2>&1
	assert_output "$WORK/show.out" "^host a sends: pfifo_fast"
	assert_output "$WORK/show.out" "^host b sends: pfifo_fast"
	after=$(retransmissions)
	echo "  sent again: $((after - before))"
	[ "$after" -gt "$before" ] ||
		fail "no retransmission counted ($before before, $after after)"
}

# Cut the link in the middle of runs of these stages (the three ways of
# watching the connection, and a stream of writes), each client stopped
# (SIGSTOP) once it is connected, so that it is the one with work to
# send when it goes on.
CUT_RUNS=(
	"ping-sr-0|-c 1000000"
	"ping-sr-3|-c 1000000"
	"ping-sr-4|-c 1000000"
	"blast-rdma-1|-c 1000000 -b 8 -s 1000"
)

# Each client says why its run failed, in words; its server, which
# waits for the next message, cannot know (no packet comes to tell it),
# and ends on SIGTERM, as the instructor's Ctrl-C would end it, at once.
test_a_cut_link_fails_the_senders_work_requests_in_words() {
	require_pair || return 0
	local run stage args port=$PORT server_args

	for run in "${CUT_RUNS[@]}"; do
		IFS='|' read -r stage args <<<"$run"
		read -r -a args <<<"$args"
		server_args=()
		[ "$stage" != ping-sr-0 ] || server_args=("${args[@]}")
		serve "$stage" "$stage" "$port" "${server_args[@]}"
		port=$((port + 1))
	done
	port=$PORT
	for run in "${CUT_RUNS[@]}"; do
		IFS='|' read -r stage args <<<"$run"
		read -r -a args <<<"$args"
		listening "$stage" || return
		connect "$stage" "$stage" "$port" "${args[@]}"
		wait_for_line "$WORK/$stage.server.out" '^server: [^ ]+ connected$' \
			"${PIDS[$stage.server]}" "$LIMIT" ||
			fail "$stage: no connection: $(cat "$WORK/$stage".*.out)"
		pause "$stage"
		port=$((port + 1))
	done
	PORT=$port
	quiet_link
	link loss 100%
	for run in "${CUT_RUNS[@]}"; do
		go_on "${run%%|*}"
	done
	for run in "${CUT_RUNS[@]}"; do
		stage=${run%%|*}
		await "$stage.client"
		assertEquals "$stage client; $(<"$WORK/$stage.client.out")" 1 "$STATUS"
		assert_output "$WORK/$stage.client.out" "^client: [a-zA-Z ]+ $GONE"
	done
	# The link still cut, each server ends on SIGTERM with its report:
	# none waits for an answer to its disconnect, which cannot come
	# (`timeout -k 5` kills what still runs 5 s after it: status 137).
	for run in "${CUT_RUNS[@]}"; do
		kill -TERM "${PIDS[${run%%|*}.server]}"
	done
	for run in "${CUT_RUNS[@]}"; do
		stage=${run%%|*}
		await "$stage.server"
		[ "$STATUS" != 137 ] ||
			fail "$stage server: still there 5 s after SIGTERM"
		assertEquals "$stage server; $(<"$WORK/$stage.server.out")" 143 "$STATUS"
		assert_output "$WORK/$stage.server.out" \
			"^server: interrupted by SIGTERM after [0-9]+ "
	done
	link clear
}

# atomic-1's server for three clients: the link to the one on host a is
# cut; its agent waits, and the server goes on with a client on host b
# (whose packets never take the link) and takes a third there. The first
# two run until they are ended (-D: a day), however fast the machine.
test_a_server_of_many_goes_on_when_one_clients_link_is_cut() {
	require_pair || return 0

	serve atomic atomic-1 "$PORT" -n 3
	listening atomic || return
	connect far atomic-1 "$PORT" -D 86400
	connect near atomic-1 "$PORT" on "$OTHER" -D 86400
	wait_for_line "$WORK/atomic.server.out" '^server: 192\.0\.2\.2:[0-9]+ connected$' \
		"${PIDS[atomic.server]}" "$LIMIT" &&
		wait_for_line "$WORK/atomic.server.out" '^server: 192\.0\.2\.1:[0-9]+ connected$' \
			"${PIDS[atomic.server]}" "$LIMIT" ||
		fail "no connections: $(cat "$WORK"/*.out)"
	pause far
	quiet_link
	link loss 100%
	go_on far
	await far.client
	assertEquals "far client; $(<"$WORK/far.client.out")" 1 "$STATUS"
	assert_output "$WORK/far.client.out" "^client: [a-zA-Z ]+ $GONE"
	connect third atomic-1 "$PORT" on "$OTHER" -c 100 -v
	await third.client
	assertEquals "third client; $(<"$WORK/third.client.out")" 0 "$STATUS"
	assert_output "$WORK/third.client.out" \
		"^client: 100 additions of 8 bytes in $NUMBER s\$"
	link clear
	kill -TERM "${PIDS[near.client]}"
	await near.client
	assertEquals "near client; $(<"$WORK/near.client.out")" 143 "$STATUS"
	kill -TERM "${PIDS[atomic.server]}"
	await atomic.server
	assertEquals "server; $(<"$WORK/atomic.server.out")" 143 "$STATUS"
	assert_output "$WORK/atomic.server.out" "^server: 192\.0\.2\.2:[0-9]+ added 100\$"
}

# port_state: the state of this host's RDMA port (ACTIVE, DOWN).
port_state() {
	rdma link show "$DEVICE/1" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "state") print $(i + 1) }'
}

# A RoCE port whose netdev is down: the kernel has no way to the peer,
# rdma_resolve_addr fails at once, and each client says what to look at
# (labs/guide/troubleshooting.md quotes it). Then the port comes back
# and the same client gets through.
test_a_port_that_is_down_is_named() {
	require_pair || return 0
	local netdev stage

	netdev=$(rdma link show "$DEVICE/1" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "netdev") print $(i + 1) }')
	serve back ping-sr-2 "$PORT"
	listening back || return
	ip link set "$netdev" down
	assertEquals "the port, its netdev down" DOWN "$(port_state)"
	for stage in ping-sr-0 ping-sr-2 ping-sr-4; do
		run_program "$KIT/$stage/client" -a "$LAB_PEER" -p "$PORT" -c 1
		assertEquals "$stage client; $(<"$WORK/program.out")" 1 "$STATUS"
		assert_output "$WORK/program.out" \
			"^client: rdma_resolve_addr $LAB_PEER:$PORT: Network is unreachable\$"
		assert_output "$WORK/program.out" \
			"^client: no route to $LAB_PEER:$PORT: no network interface that is up reaches it; is the RDMA device's port down\\? \\('rdma link' shows its state\\)\$"
	done
	ip link set "$netdev" up
	for _ in $(seq 30); do
		[ "$(port_state)" = ACTIVE ] && break
		sleep 1
	done
	assertEquals "the port, its netdev up again" ACTIVE "$(port_state)"
	connect back ping-sr-2 "$PORT" -c 3 -v
	await back.client
	assertEquals "client, the port up; $(<"$WORK/back.client.out")" 0 "$STATUS"
	await back.server
	assertEquals "server; $(<"$WORK/back.server.out")" 0 "$STATUS"
}

# An address on the link's network where no host answers: address
# resolution asks the link who has it, hears nothing, and gives up
# within seconds, which the kit calls no route.
test_an_address_no_host_answers_has_no_route() {
	require_pair || return 0

	run_program "$KIT/ping-sr-0/client" -a 192.0.2.9 -p "$PORT" -c 1
	assertEquals "ping-sr-0 client; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" \
		"^client: rdma_resolve_addr 192\\.0\\.2\\.9:$PORT: Connection timed out\$"
	assert_output "$WORK/program.out" "^client: no route to 192\\.0\\.2\\.9:$PORT\$"
	run_program "$KIT/ping-sr-2/client" -a 192.0.2.9 -p "$PORT" -c 1
	assertEquals "ping-sr-2 client; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" \
		"^client: 192\\.0\\.2\\.9:$PORT: RDMA_CM_EVENT_ADDR_ERROR where RDMA_CM_EVENT_ADDR_RESOLVED was due \\(status -110\\)\$"
	assert_output "$WORK/program.out" "^client: no route to 192\\.0\\.2\\.9:$PORT\$"
}

# refused REGEX ARGS...: labs/link ARGS fails, saying REGEX.
refused() {
	local regex=$1
	shift
	run_program "$LINK" "$@"
	assertEquals "labs/link $*; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" "$regex"
}

test_labs_link_refuses_what_it_cannot_do() {
	require_pair || return 0

	refused "^link: unknown setting 'lose': loss, delay, jitter" lose 2%
	refused "^link: loss takes a share of the packets from 0% to 100%, not '120%'\$" loss 120%
	refused "^link: delay takes a time in milliseconds, not 'soon'\$" delay soon
	refused "^link: reorder sends some packets ahead of delayed ones: give a delay too\$" reorder 25%
	refused "^link: jitter varies a delay" jitter 2
	refused "^link: loss needs a value" loss
	refused "^link: down takes a number of seconds" down soon
	refused "^link: no command after --\$" loss 2% --
	LAB_PAIR='' refused "^link: the link is the two-host lab's: run this on one of its hosts" loss 2%
}

. shunit2
