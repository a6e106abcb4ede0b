#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# atomic-1: clients add to one counter in the server by remote
# fetch-and-add and compare-and-swap. Eight clients at once, verified,
# leave it at the sum of their counts; a lone client's compare-and-swaps
# never miss; the server for many runs helgrind clean with four clients;
# a client that dies leaves the others running; Ctrl-C ends the listener
# quietly after a refused request; a device without atomics is refused on
# either side, with the reason.
. "$(dirname "$0")/lib.sh"

STAGE=atomic-1
LIMIT=${OUR_VALGRIND_LIMIT:-300}
NUMBER='[0-9]+\.[0-9]+'

test_eight_clients_at_once_leave_the_sum_of_their_counts() {
	require_rdma || return 0
	local i

	start_server "$STAGE" -n 8 || return
	clients 8 -v -c 300
	wait_clients 8
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	for ((i = 1; i <= 8; i++)); do
		assert_output "$WORK/client.$i.out" \
			"^client: 300 additions of 8 bytes in $NUMBER s\$"
	done
	assertEquals "agents that saw their client add 300" 8 \
		"$(count "$WORK/server.out" '^server: [0-9.:]+ added 300$')"
	assert_output "$WORK/server.out" \
		"^server: the counter is 2400 after 8 clients\$"
}

# Alone, a client's compare-and-swap always finds the value its last
# addition left: -x counts no miss (a miss would print the count of
# them, on the line "atomics: ...").
test_a_lone_client_never_misses_a_compare_and_swap() {
	require_rdma || return 0

	start_server "$STAGE" -x || return
	run_client "$STAGE" -v -x -c 500
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_no_output "$WORK/client.out" "found another client's value"
	assert_output "$WORK/client.out" "^client: latency us: min "
	assert_output "$WORK/server.out" \
		"^server: the counter is 500 after 1 client\$"
}

# Threads that share a counter and a signal note, each with its own
# connection and CM event thread: helgrind finds no race.
test_the_server_for_many_is_helgrind_clean() {
	require_rdma || return 0

	OUR_UNDER_VALGRIND=helgrind start_server "$STAGE" -n 4 || return
	clients 4 -v -c 50
	wait_clients 4
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_valgrind_clean "$WORK/server.out"
	assert_output "$WORK/server.out" \
		"^server: the counter is 200 after 4 clients\$"
}

# One client killed in mid-run: its agent ends with the news, the others
# run to their count, and the server ends with status 1 (a run was cut
# short) once they have.
test_a_client_dying_leaves_the_others_running() {
	require_rdma || return 0
	local victim

	start_server "$STAGE" -n 3 || return
	clients 2 -v -c 2000
	# -t: the third says when it has the counter's key; then it dies,
	# far from its count.
	program_command client "$STAGE"
	"${COMMAND[@]}" -a "$ADDR" -p "$PORT" -t -c 1000000 \
		>"$WORK/client.out" 2>&1 &
	CLIENT_PID=$!
	victim=$(program_pid "$CLIENT_PID")
	wait_for_line "$WORK/client.out" "'s memory: 8 bytes at " \
		"$CLIENT_PID" "$LIMIT" || fail "the third client did not start"
	kill -KILL "$victim"
	wait_client
	wait_clients 2
	assertEquals "server; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assertEquals "agents that saw their client add 2000" 2 \
		"$(count "$WORK/server.out" '^server: [0-9.:]+ added 2000$')"
	assert_output "$WORK/server.out" \
		"^server: [0-9.:]+ ended the run after 0 of 1000000 additions\$"
	assert_output "$WORK/server.out" \
		"^server: the counter is [0-9]+ after 3 clients\$"
}

# Ctrl-C on the server (under memcheck): the listener stops waiting for
# clients, each agent ends its run and reports, and the server exits 130,
# valgrind clean; each client says that the server ended its run.
test_ctrl_c_on_the_server_ends_every_agent() {
	require_rdma || return 0

	ctrl_c_ends_every_agent additions || return
	assert_output "$WORK/server.out" \
		"^server: the counter is [0-9]+ after 2 clients\$"
}

# Ctrl-C on the listener for many once it has refused a request: it
# waits for the next client as it waited for the first, looking for
# Ctrl-C as it does, and ends with no error: status 130, and no failed
# call reported (a blocking wait would have said "Interrupted system
# call", or never seen the Ctrl-C at all).
test_ctrl_c_after_a_refused_request_ends_the_listener() {
	require_rdma || return 0
	local status

	start_server "$STAGE" -n 2 || return
	timeout 60 "$KIT/tests/pdata-client-blocking" "$ADDR" "$PORT" oversize \
		>"$WORK/refused.out" 2>&1
	status=$?
	assertEquals "the refused client; $(<"$WORK/refused.out")" 3 "$status"
	wait_for_line "$WORK/server.out" \
		"^server: refusing [0-9.:]+: the size is out of range\$" \
		"$SERVER_PID" "$LIMIT" || fail "the server did not say it refused"
	kill -INT "$(program_pid "$SERVER_PID")"
	wait_server
	assertEquals "server; $(<"$WORK/server.out")" 130 "$SERVER_STATUS"
	assertEquals "the server's lines; $(<"$WORK/server.out")" 0 \
		"$(count "$WORK/server.out" '^server: (rdma_|poll|[a-z_]+: )')"
}

# Ctrl-C on a client (under memcheck): it ends after the atomic in
# progress and tells its agent how many it made, which the agent reports.
test_ctrl_c_on_a_client_tells_its_agent_the_count() {
	require_rdma || return 0

	ctrl_c_ends_a_client || return
	assert_output "$WORK/server.out" "^server: [0-9.:]+ added $MADE\$"
	assert_output "$WORK/server.out" \
		"^server: the counter is $MADE after 1 client\$"
}

# A device whose atomic_cap is IBV_ATOMIC_NONE (a fault loaded into one
# side says so): that side refuses to run, with the reason, and before it
# has registered any memory (-t traces each ibv_reg_mr): memory open to
# atomics on such a device would fail with a bare ibv_reg_mr error.
test_a_device_without_atomics_is_refused() {
	require_rdma || return 0
	local refused="does no atomics \\(its atomic_cap is IBV_ATOMIC_NONE\\)"

	OUR_DEVICE_FAULT=no-atomics LD_PRELOAD=$KIT/tests/device-fault.so \
		run_program "$KIT/$STAGE/client" -a "$ADDR" -p "$PORT" -c 10 -t
	assertEquals "client; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" "^client: device [^ ]+ $refused"
	assert_no_output "$WORK/program.out" "ibv_reg_mr"
	PORT=$((PORT + 1))

	OUR_DEVICE_FAULT=no-atomics LD_PRELOAD=$KIT/tests/device-fault.so \
		start_server "$STAGE" -t || return
	run_client "$STAGE" -c 10
	wait_server
	assertEquals "client; $(<"$WORK/client.out")" 1 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 1 "$SERVER_STATUS"
	assert_output "$WORK/server.out" "^server: device [^ ]+ $refused"
	assert_no_output "$WORK/server.out" "ibv_reg_mr"
}

. shunit2
