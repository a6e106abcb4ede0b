#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On the wire: what each stage's lesson says it puts on the network is
# what a capture of the link between the two hosts shows: each stage's
# README command (`labs/wire STAGE ...`, in its "On the wire" section)
# is run here, in the two-host lab, and what it prints checked: every
# run the CM's handshake and disconnect; ping-sr-0 sends and
# acknowledgements alone,
# ping-sr-1's private data in the connection request, ping-rdma-1 a
# write then a send, ping-rdma-2 a read and its response, atomic-1 a
# fetch-and-add and a compare-and-swap with their atomic ACKs; the
# one-sided ones at the address and with the rkey the peer advertised.
# make check runs it in the pair: labs/lab pair run -- tests/run
# tests/test_wire.sh. Elsewhere each test is skipped, and counted.
# tests/run: pair
. "$(dirname "$0")/lib.sh"

# wire STAGE: the labs/wire command of STAGE's README (a capture of one
# run across the link, then its dissection), which must succeed;
# $WORK/packets then holds the packets, a line each: number, time, from,
# to, what, and the rest (QP, PSN, details).
wire() {
	local command

	command=$(sed -n "s|^labs/wire $1 |&|p" "$KIT/$1/README.md" | head -n 1)
	if [ -z "$command" ]; then
		fail "$1/README.md shows no labs/wire command"
		return 1
	fi
	read -r -a command <<<"${command#labs/wire }"
	WIRE_DIR=$WORK/wire run_program "$KIT/labs/wire" "${command[@]}"
	set -- "${command[@]}"
	assertEquals "labs/wire $*; $(<"$WORK/program.out")" 0 "$STATUS" ||
		return 1
	grep -E '^ *[0-9]+ +[0-9.]+ 192\.0\.2\.' "$WORK/program.out" \
		>"$WORK/packets"
	[ -s "$WORK/packets" ] || fail "labs/wire $*: no packet: $(<"$WORK/program.out")"
}

# kinds: what each packet is (its `what` column), one a line, in order.
kinds() {
	cut -c 38-65 "$WORK/packets" | sed 's/ *$//'
}

# The CM's handshake opens every capture and its disconnect ends it.
assert_cm_handshake() {
	kinds >"$WORK/kinds"
	assertEquals "the handshake; $(<"$WORK/packets")" \
		"CM ConnectRequest
CM ConnectReply
CM ReadyToUse" "$(head -n 3 "$WORK/kinds")"
	has_line "$WORK/kinds" '^CM DisconnectRequest$' ||
		fail "no DisconnectRequest: $(<"$WORK/packets")"
	has_line "$WORK/kinds" '^CM DisconnectReply$' ||
		fail "no DisconnectReply: $(<"$WORK/packets")"
}

# advertised SIDE: "VA RKEY" as numbers, what SIDE (client, or host b:
# server) said with -t that it advertised; or why not.
advertised() {
	sed -nE "s/^($1): advertising [0-9]+ bytes at (0x[0-9a-f]+), rkey (0x[0-9a-f]+)\$/\\2 \\3/p" \
		"$WORK/program.out" | head -n 1 |
		while read -r va rkey; do echo "$((va)) $((rkey))"; done |
		grep . || echo "no advertisement by $1"
}

# used OPCODE FROM: "VA RKEY" as numbers of the first OPCODE packet sent
# by host FROM; or why not.
used() {
	awk -v what="$1" -v from="$2" '$3 == from && index($0, what) {
		for (i = 1; i < NF; i++) {
			if ($i == "va")
				va = $(i + 1)
			if ($i == "rkey")
				rkey = $(i + 1)
		}
		print va, rkey
		exit
	}' "$WORK/packets" |
		while read -r va rkey; do echo "$((va)) $((rkey))"; done |
		grep . || echo "no $1 from $2"
}

test_ping_sr_0_puts_sends_and_acknowledgements_on_the_wire() {
	require_pair || return 0

	# 3000 bytes: three packets of the 1024-byte path MTU a send.
	wire ping-sr-0 || return
	assert_cm_handshake
	kinds | grep -v '^CM ' | sort -u >"$WORK/kinds"
	assertEquals "what ping-sr-0 sends; $(<"$WORK/packets")" \
		"Acknowledge
Send First
Send Last
Send Middle" "$(<"$WORK/kinds")"
}

test_ping_sr_1_private_data_rides_in_the_connection_request() {
	require_pair || return 0

	wire ping-sr-1 || return
	assert_cm_handshake
	# OUR_PRIVATE_MAGIC, "OURK", then the version, the header's size.
	has_line "$WORK/packets" 'CM ConnectRequest +private data 4f55524b' ||
		fail "no private data in the request: $(<"$WORK/packets")"
}

# one_sided STAGE REQUEST NEXT: STAGE's README capture holds a REQUEST
# packet followed by NEXT (an acknowledgement of the peer's may come
# between: it is left out), and each side's REQUEST goes to the address
# and rkey the other side advertised.
one_sided() {
	wire "$1" || return
	assert_cm_handshake
	kinds | grep -v -e '^CM ' -e '^Acknowledge$' >"$WORK/kinds"
	grep -A1 "^$2\$" "$WORK/kinds" >"$WORK/after"
	assertEquals "$2, then $3; $(<"$WORK/packets")" "$2
$3" "$(head -n 2 "$WORK/after")"
	assertEquals "the client's $2 goes where the server said" \
		"$(advertised 'host b: server')" "$(used "$2" 192.0.2.1)"
	assertEquals "the server's $2 goes where the client said" \
		"$(advertised client)" "$(used "$2" 192.0.2.2)"
}

# A write, then the send of the notice that tells of it.
test_ping_rdma_1_writes_then_sends_where_the_peer_said() {
	require_pair || return 0

	one_sided ping-rdma-1 'RDMA Write Only' 'Send Only'
}

test_ping_rdma_2_reads_where_the_peer_said() {
	require_pair || return 0

	one_sided ping-rdma-2 'RDMA Read Request' 'RDMA Read Response Only'
}

test_atomic_1_puts_fetch_add_and_compare_swap_on_the_wire() {
	require_pair || return 0

	wire atomic-1 || return
	assert_cm_handshake
	kinds | grep -v '^CM ' >"$WORK/kinds"
	grep -A1 -E '^(Fetch Add|Compare Swap)$' "$WORK/kinds" |
		grep -v '^--$' >"$WORK/after"
	assertEquals "each atomic and its atomic ACK; $(<"$WORK/packets")" \
		"Fetch Add
Atomic Acknowledge
Compare Swap
Atomic Acknowledge" "$(<"$WORK/after")"
	assertEquals "the fetch-and-add reaches the counter the server advertised" \
		"$(advertised 'host b: server')" "$(used 'Fetch Add' 192.0.2.1)"
	has_line "$WORK/packets" 'Fetch Add .* add 1$' ||
		fail "the fetch-and-add does not add 1: $(<"$WORK/packets")"
	has_line "$WORK/packets" 'Compare Swap .* compare 1 swap 2$' ||
		fail "the compare-and-swap does not swap 1 for 2: $(<"$WORK/packets")"
}

# The other stages' README captures: a whole exchange each, with the
# kinds of packets their lessons are about.
test_every_other_readme_capture_is_a_whole_exchange() {
	require_pair || return 0

	for stage in ping-sr-2 ping-sr-3 ping-sr-4 ping-sg-1 ping-post-1 \
		ping-wr-1 blast-sr-2 blast-rdma-1 pubsub-rdma-1; do
		wire "$stage" || continue
		assert_cm_handshake
		has_line "$WORK/kinds" '^Send Only$' &&
			has_line "$WORK/kinds" '^Acknowledge$' ||
			fail "$stage: no send and ACK: $(<"$WORK/packets")"
		case $stage in
		blast-rdma-1)
			has_line "$WORK/kinds" '^RDMA Write Only$' ||
				fail "blast-rdma-1: no write: $(<"$WORK/packets")" ;;
		pubsub-rdma-1)
			has_line "$WORK/kinds" '^RDMA Read Request$' ||
				fail "pubsub-rdma-1: no read: $(<"$WORK/packets")" ;;
		*)
			! has_line "$WORK/kinds" '^(RDMA|Fetch|Compare)' ||
				fail "$stage: more than sends: $(<"$WORK/packets")" ;;
		esac
	done
}

test_wire_refuses_what_it_cannot_capture() {
	require_pair || return 0

	run_program "$KIT/labs/wire" ping-sr-9
	assertEquals "no such stage; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" "^wire: no stage 'ping-sr-9' in the kit\$"
	run_program "$KIT/labs/wire" devices
	assertEquals "devices; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" "^wire: devices has no server and client to run"
	# A stage whose server cannot start (a port out of range): said,
	# and no capture shown.
	WIRE_DIR=$WORK/wire run_program "$KIT/labs/wire" ping-sr-2 -c 1 -- -p 0
	assertEquals "a server that does not start; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" "^wire: ping-sr-2's server did not start: "
}

. shunit2
