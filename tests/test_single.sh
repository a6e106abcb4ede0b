#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The single files: each program of each stage in one C file that a
# newcomer can copy and build with cc alone (make -C STAGE single, which
# make check runs first). Each single client and server run together over
# the real device, verified and valgrind clean; and each works with the
# kit's own programs both ways: a single client with the kit's server,
# the kit's client with a single server. (What each file holds:
# test_single_files.sh.) It needs one device, not two hosts; make check
# runs it on host a of the pair, one of the suites there (see the
# Makefile); tests/run --no-host leaves it out.
# tests/run: pair
. "$(dirname "$0")/lib.sh"

STAGES=${OUR_SINGLE_STAGES:-ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-3 ping-sr-4 blast-sr-2
	ping-rdma-1 ping-rdma-2 blast-rdma-1 atomic-1 pubsub-rdma-1
	ping-sg-1 ping-post-1 ping-wr-1}
# valgrind is slow in the emulated lab: allow it time.
LIMIT=${OUR_VALGRIND_LIMIT:-300}

# pair_run KIND.STAGE: a short verified run of STAGE. KIND single: the
# single server and client, both under memcheck; KIND mixed: the single
# client against the kit's own server; KIND reverse: the kit's client
# against the single server.
pair_run() {
	local stage=${1#*.} server=${1#*.}/single client=${1#*.}/single

	whole_run_args "$stage"
	case $1 in
	single.*) export OUR_UNDER_VALGRIND=1 ;;
	mixed.*) server=$stage ;;
	reverse.*) client=$stage ;;
	esac
	# The single files leave out -x: only the report's first line is
	# checked.
	if [[ $client = */single ]]; then
		local arg args=()
		for arg in "${WHOLE_ARGS[@]}"; do
			[ "$arg" = -x ] || args+=("$arg")
		done
		WHOLE_ARGS=("${args[@]}")
	fi
	start_server "$server" "${WHOLE_SERVER_ARGS[@]}" || return
	run_client "$client" "${WHOLE_ARGS[@]}"
	wait_server
	save_statuses
}

check_pair_run() {
	local stage=${1#*.}

	statuses "$1" || return
	assertEquals "$1 client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "$1 server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_whole_run client "$stage"
	assert_whole_run server "$stage"
	assert_valgrind_clean "$WORK/client.out"
	assert_valgrind_clean "$WORK/server.out"
}

# Every stage's single pair under memcheck, and a single client of two
# stages against the kit's server, side by side in two rounds: the
# send/recv stages, then the RDMA stages (atomic-1's and pubsub-rdma-1's among them). (All at
# once, a score of
# programs under valgrind would crowd the lab.)
pairs_of() {
	local stage sr

	for stage in $STAGES; do
		sr=rdma
		[[ $stage = *-sr-* ]] && sr=sr
		[ "$sr" = "$1" ] && echo "single.$stage"
	done
}

test_single_send_recv_programs_run_verified_and_valgrind_clean() {
	require_rdma || return 0
	# shellcheck disable=SC2046
	at_once pair_run check_pair_run $(pairs_of sr)
}

test_single_rdma_programs_run_verified_and_valgrind_clean() {
	require_rdma || return 0
	# shellcheck disable=SC2046
	at_once pair_run check_pair_run $(pairs_of rdma)
}

# Each single program with the kit's own: a single client with the kit's
# server, the kit's client with a single server, every stage, natively.
test_single_programs_work_with_the_kits_both_ways() {
	require_rdma || return 0
	local stage pairs=()

	for stage in $STAGES; do
		pairs+=("mixed.$stage" "reverse.$stage")
	done
	at_once pair_run check_pair_run "${pairs[@]}"
}

# The single files leave -D out, but a single server still serves the
# kit's timed client: the run has no count, and its agent's normal end is
# the client's hang-up (ping-sr-2/README.md).
test_a_single_server_serves_the_kits_timed_run() {
	require_rdma || return 0

	start_server ping-sr-2/single || return
	run_client ping-sr-2 -D 1
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" \
		"^server: [0-9.:]+ ended the run after [0-9]+ round trips?\$"
}

. shunit2
