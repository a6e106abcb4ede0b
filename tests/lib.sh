# SPDX-License-Identifier: MIT
# lib.sh - what the kit's shunit2 suites share: the settings of their
# runs, the shunit2 hooks, and the runs and asserts the suites are made
# of, every run bounded in time. How a server and a client are run and
# waited for is programs.sh's, which the exercises' checkers share.
# Sourced by each suite.

KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$KIT/tests/programs.sh"
# Every program run is bounded: none may hang a test.
LIMIT=${OUR_TEST_LIMIT:-60}
# Each test takes fresh ports so no run meets the last one's leftovers.
PORT=${OUR_TEST_PORT:-20000}
# The tests name every port they use; a student's OUR_PORT (the
# programs' default port) must not change what a README's block shows.
unset OUR_PORT
# A run is named by its stage, the kit's folder of its programs; its
# outputs are $WORK/server.out and $WORK/client.out (see programs.sh).
PROGRAMS_DIR=
OUTPUTS_BY_NAME=
FRESH_PORTS=

# One line per test for the runner: pass, fail or skip, and its name.
record_result() {
	[ -n "${OUR_RESULTS:-}" ] && echo "$1 $2" >>"$OUR_RESULTS"
	return 0
}

# shunit2 counts with expr, each in a subshell: two for every assert.
# In the emulated lab a whole run started 1,800 of them, each costing
# 90 ms. The shell counts instead: expr's two forms that shunit2 uses (a
# sum or difference of integers; the leading digits of a string, for
# assertTrue), with expr's output and status, anything else going to
# expr; and, once shunit2 is loaded (setUp), its count of asserts, with
# no subshell at all, if its counting is the one known here.
expr() {
	local result

	if [ $# -eq 3 ] && [ "$3" = '\([0-9]*\)' ] && [ "$2" = : ]; then
		[[ $1 =~ ^[0-9]* ]]
		result=${BASH_REMATCH[0]}
		echo "$result"
		[[ ! $result =~ ^0*$ ]]
		return
	fi
	if [ $# -eq 3 ] && [[ $1 =~ ^-?(0|[1-9][0-9]*)$ && $3 =~ ^-?(0|[1-9][0-9]*)$ ]] &&
		[[ $2 = [+-] ]]; then
		result=$(($1 + $3))
		[ "$2" = - ] && result=$(($1 - $3))
		echo "$result"
		[ "$result" -ne 0 ]
		return
	fi
	command expr "$@"
}

count_asserts_in_the_shell() {
	[ -z "${ASSERTS_COUNTED:-}" ] || return 0
	ASSERTS_COUNTED=yes
	[[ $(declare -f _shunit_assertPass) = *'expr ${__shunit_assertsPassed} + 1'* ]] ||
		return 0
	_shunit_assertPass() {
		__shunit_assertsPassed=$((__shunit_assertsPassed + 1))
		__shunit_assertsTotal=$((__shunit_assertsTotal + 1))
	}
	_shunit_incFailedCount() {
		__shunit_assertsFailed=$((__shunit_assertsFailed + 1))
		__shunit_assertsTotal=$((__shunit_assertsTotal + 1))
	}
	_shunit_assertSkip() {
		__shunit_assertsSkipped=$((__shunit_assertsSkipped + 1))
		__shunit_assertsTotal=$((__shunit_assertsTotal + 1))
	}
}

CLK_TCK=$(getconf CLK_TCK)
# busy_ticks: sets BUSY, the clock ticks all CPUs have spent busy since
# boot; a test's share of them says what it costs on a machine with fewer
# cores.
busy_ticks() {
	local cpu user nice system idle iowait irq softirq

	read -r cpu user nice system idle iowait irq softirq _ </proc/stat
	BUSY=$((user + nice + system + irq + softirq))
}

# shunit2 hooks. A suite that needs its own must call these.
setUp() {
	count_asserts_in_the_shell
	TEST_START=$SECONDS
	busy_ticks
	TEST_BUSY=$BUSY
	# Each test's folder is in shunit2's, which shunit2 removes at the
	# end.
	TESTS_SET_UP=$((${TESTS_SET_UP:-0} + 1))
	WORK=$SHUNIT_TMPDIR/test-$TESTS_SET_UP
	mkdir "$WORK"
	PORT=$((PORT + 1))
	SKIPPED=
	SERVER_PID=
	CLIENT_PID=
	SERVER_REAL=
	CLIENT_REAL=
}

tearDown() {
	# shunit2 calls tearDown once more when a suite ends early.
	[ -n "${_shunit_test_:-}" ] || return 0
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
	[ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2>/dev/null
	wait 2>/dev/null
	busy_ticks
	echo "  ($((SECONDS - TEST_START)) s, CPUs busy" \
		"$(((BUSY - TEST_BUSY) / CLK_TCK)) s)"
	if [ -n "$SKIPPED" ]; then
		record_result skip "$_shunit_test_"
	elif [ "${__shunit_testSuccess}" = "${SHUNIT_TRUE}" ]; then
		record_result pass "$_shunit_test_"
	else
		record_result fail "$_shunit_test_"
		echo "--- output of $_shunit_test_ ---"
		# (A test that failed before writing any output has none.)
		tail -n 30 "$WORK"/*.out 2>/dev/null || true
	fi
}

# Skip the current test, saying why; the runner counts it as skipped.
skip_test() {
	echo "SKIP: $1"
	SKIPPED=1
	startSkipping
}

# Skip unless there is an RDMA device and its address.
require_rdma() {
	if [ -z "$ADDR" ] || [ -z "$DEVICE" ]; then
		skip_test "needs an RDMA device: run it in the lab (make check)"
		return 1
	fi
}

# server_not_listening STAGE: start_server's hook (see programs.sh): the
# server of STAGE never listened; the test fails, with what it printed.
server_not_listening() {
	fail "the $1 server did not start listening: $(<"$SERVER_OUT")"
}

# run_client STAGE [ARGS...]: run a client against the server on $PORT
# and wait for it to end, output in $WORK/client.out; sets CLIENT_STATUS.
run_client() {
	start_client "$@"
	wait_client
}

# wait_connected [SECONDS]: wait until the server started by start_server
# says that its client has connected, that is, until the run has begun.
# The agent says so once the client has confirmed the connection: both
# queue pairs are then ready to send.
wait_connected() {
	wait_for_line "$WORK/server.out" "^server: [^ ]+ connected\$" \
		"$SERVER_PID" "${1:-$LIMIT}" && return 0
	fail "no connection on port $PORT: $(cat "$WORK"/*.out)"
	return 1
}

# clients N ARGS...: N clients of the suite's $STAGE at once (a server
# for many: atomic-1, pubsub-rdma-1), each with ARGS; client i
# writes $WORK/client.i.out, and its status into $WORK/client.i.status.
clients() {
	local n=$1 i
	shift

	program_command client "$STAGE"
	for ((i = 1; i <= n; i++)); do
		("${COMMAND[@]}" -a "$ADDR" -p "$PORT" "$@" \
			>"$WORK/client.$i.out" 2>&1
		 echo $? >"$WORK/client.$i.status") &
	done
}

# wait_clients N: wait for the server and the N clients; each client must
# have ended with 0.
wait_clients() {
	local i

	wait_server
	wait
	for ((i = 1; i <= $1; i++)); do
		assertEquals "client $i; $(<"$WORK/client.$i.out")" 0 \
			"$(cat "$WORK/client.$i.status" 2>/dev/null)"
	done
}

# clients_connected N: wait until the server has said that N clients
# connected, LIMIT seconds at most; fails and returns 1 if they have not.
clients_connected() {
	local deadline=$((SECONDS + LIMIT))

	while [ "$(count "$WORK/server.out" "^server: [0-9.:]+ connected\$")" -lt "$1" ]; do
		if [ $SECONDS -ge $deadline ]; then
			fail "fewer than $1 clients connected: $(<"$WORK/server.out")"
			return 1
		fi
		nap 0.1
	done
}

# ctrl_c_ends_every_agent UNIT: the suite's $STAGE, a server for many,
# under memcheck with two timed clients; once both are connected, Ctrl-C
# on the server. Its listener stops waiting for the third, each agent
# ends its run and reports, and the server exits 130, valgrind clean;
# each client exits 1, saying that the server ended its run after some
# UNITs. (The suite checks the server's last line.)
ctrl_c_ends_every_agent() {
	local i

	OUR_UNDER_VALGRIND=1 start_server "$STAGE" -n 3 || return 1
	clients 2 -D 3600
	clients_connected 2 || return 1
	kill -INT "$(program_pid "$SERVER_PID")"
	wait_server
	wait
	assertEquals "server; $(<"$WORK/server.out")" 130 "$SERVER_STATUS"
	assert_valgrind_clean "$WORK/server.out"
	assertEquals "agents interrupted" 2 \
		"$(count "$WORK/server.out" '^server: interrupted by Ctrl-C \(SIGINT\) after ')"
	for i in 1 2; do
		assertEquals "client $i; $(<"$WORK/client.$i.out")" 1 \
			"$(<"$WORK/client.$i.status")"
		assert_output "$WORK/client.$i.out" \
			"^client: [0-9.:]+ ended the run after [0-9]+ $1\$"
	done
}

# ctrl_c_ends_a_client: the suite's $STAGE, one client under memcheck
# in a timed run (-v -T); once its run is under way, Ctrl-C on it. It
# exits 130, valgrind clean, its server 0; sets MADE to the transfers the
# client reported, for the suite to find in its agent's report.
ctrl_c_ends_a_client() {
	start_server "$STAGE" || return 1
	OUR_UNDER_VALGRIND=1 start_client "$STAGE" -v -T -D 3600
	wait_under_way client "$STAGE" || return 1
	kill -INT "$(program_pid "$CLIENT_PID")"
	wait_client
	wait_server
	assertEquals "client; $(tail -n 5 "$WORK/client.out")" 130 "$CLIENT_STATUS"
	assertEquals "server; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_valgrind_clean "$WORK/client.out"
	MADE=$(reported_count client)
}

# whole_run_args STAGE: sets WHOLE_ARGS, the client's options of a short
# verified run under a valgrind tool: 20 round trips of 1000 bytes, a
# blast (blast-sr-2, blast-rdma-1) of 300 messages, 300 additions of 8
# bytes (atomic-1) or 300 publications of 64 (pubsub-rdma-1); and
# WHOLE_SERVER_ARGS, the server's: ping-sr-0's server is told the run's
# shape, later ones learn it from their client.
# assert_whole_run SIDE STAGE: SIDE reported it.
whole_run_args() {
	WHOLE_SERVER_ARGS=()
	[ "$1" = ping-sr-0 ] && WHOLE_SERVER_ARGS=(-c 20 -s 1000)
	WHOLE_ARGS=(-v -x -c 20 -s 1000)
	[[ $1 = blast-* ]] && WHOLE_ARGS=(-v -x -b 4 -c 300 -s 1000)
	[[ $1 = atomic-* ]] && WHOLE_ARGS=(-v -x -c 300)
	[[ $1 = pubsub-* ]] && WHOLE_ARGS=(-v -x -b 8 -c 300)
	return 0
}

assert_whole_run() {
	whole_run_report "$@"
	assert_output "$WORK/$1.out" "$REPORT"
}

# whole_run_report SIDE STAGE: sets REPORT, the start of SIDE's report of
# a whole run of STAGE, as an extended regex.
whole_run_report() {
	local count=20 unit="round trips" size=1000

	[[ $2 = blast-* ]] && count=300 unit=messages
	[[ $2 = atomic-* ]] && count=300 unit=additions size=8
	[[ $2 = pubsub-* ]] && count=300 unit=publications size=64
	REPORT="^$1: $count $unit of $size bytes"
}

# ctrl_c_ends_a_timed_run STAGE: a timed run of STAGE, each side under the
# tool OUR_UNDER_VALGRIND names (if any); once they are connected, Ctrl-C
# ends the client. Sets CLIENT_STATUS and SERVER_STATUS.
ctrl_c_ends_a_timed_run() {
	# -T: the client's first work completion says its run is under way.
	start_timed_run "$1" -v -T || return 1
	wait_under_way client "$1"
	nap 1
	kill -INT "$CLIENT_REAL"
	wait_client
	wait_server
}

# assert_ctrl_c_ended_clean STAGE: after ctrl_c_ends_a_timed_run under a
# valgrind tool, the client said it was interrupted and exited 130, the
# agent said its client ended the run and exited 0, and the tool had
# nothing to report on either.
assert_ctrl_c_ended_clean() {
	assertEquals "$1 client; $(<"$WORK/client.out")" \
		130 "$CLIENT_STATUS"
	assertEquals "$1 server; $(<"$WORK/server.out")" \
		0 "$SERVER_STATUS"
	assert_output "$WORK/client.out" "interrupted by Ctrl-C"
	assert_output "$WORK/server.out" "ended the run after [0-9]+ "
	assert_valgrind_clean "$WORK/client.out"
	assert_valgrind_clean "$WORK/server.out"
}

# wait_under_way SIDE STAGE: until SIDE (client or server) of a run of
# STAGE, traced with -T, says its first work completion: its run is under
# way, and from then on it catches Ctrl-C and SIGTERM (until then they end
# it, as they would any program), however slow the lab or valgrind makes
# it. The test fails if SIDE never gets there.
wait_under_way() {
	local pid=$CLIENT_PID

	[ "$1" = server ] && pid=$SERVER_PID
	wait_for_line "$WORK/$1.out" "^$1: work completion: " "$pid" \
		"$LIMIT" && return 0
	fail "$2: the $1's run did not start: $(<"$WORK/$1.out")"
	return 1
}

# start_timed_run STAGE [ARGS...] [-- SERVER_ARGS...]: a server of STAGE
# with SERVER_ARGS and a client with ARGS in the middle of a run that
# lasts until the test ends it (-D, far longer than any test); sets
# SERVER_REAL and CLIENT_REAL, the programs' own pids. Returns once the
# two are connected.
start_timed_run() {
	local stage=$1
	shift

	split_args "$@"
	start_server "$stage" "${SERVER_ARGS[@]}" || return 1
	start_client "$stage" -D 3600 "${CLIENT_ARGS[@]}"
	SERVER_REAL=$(program_pid "$SERVER_PID")
	CLIENT_REAL=$(program_pid "$CLIENT_PID")
	wait_connected || return 1
}

# reported_count SIDE: the transfers SIDE's report line counts.
reported_count() {
	sed -En "s/^$1: ([0-9]+) (round trip|message|addition|publication)s? of .*/\1/p" \
		"$WORK/$1.out"
}

# at_once RUN CHECK NAME...: RUN NAME for every NAME side by side, each
# in a subshell with a folder ($WORK/NAME) and ports of its own; then
# CHECK NAME for each in turn, in this shell, where shunit2's asserts
# count. RUN leaves in its folder what CHECK needs (outputs, and statuses
# with save_statuses). In the emulated lab valgrind spends seconds of one
# CPU starting each program: side by side, its runs take both CPUs. No
# more runs at a time than the machine has CPUs (OUR_AT_ONCE to say
# otherwise): a score of runs started at once on a busy machine leaves
# each program so little CPU that the connection manager's own timeouts,
# not the program, decide how a run ends.
at_once() {
	local run=$1 check=$2 name top=$WORK turn=0
	local most=${OUR_AT_ONCE:-$CPUS}
	shift 2

	for name; do
		# Once `most` have started, one must end before the next starts.
		[ "$turn" -ge "$most" ] && wait -n
		mkdir -p "$top/$name"
		(WORK=$top/$name
		 [ $((turn % 2)) -eq 1 ] && swap_cpus
		 "$run" "$name") >"$top/$name/run.log" 2>&1 &
		PORT=$((PORT + 10))
		turn=$((turn + 1))
	done
	wait
	for name; do
		WORK=$top/$name
		"$check" "$name"
	done
	WORK=$top
}

# swap_cpus: servers on the second CPU, clients on the first. Runs side by
# side take turns, so that their servers (or clients) do not all queue
# for one CPU while the other idles.
swap_cpus() {
	local server=("${ON_SERVER_CPU[@]}")

	ON_SERVER_CPU=("${ON_CLIENT_CPU[@]}")
	ON_CLIENT_CPU=("${server[@]}")
}

# save_statuses: keep CLIENT_STATUS and SERVER_STATUS in $WORK for a
# CHECK of at_once; statuses NAME then gives them back to it.
save_statuses() {
	echo "${CLIENT_STATUS:-none} ${SERVER_STATUS:-none}" >"$WORK/statuses"
}
statuses() {
	read -r CLIENT_STATUS SERVER_STATUS <"$WORK/statuses" 2>/dev/null ||
		fail "$1: the run did not end: $(cat "$WORK"/*.out "$WORK/run.log")"
}

# in_background NAME PATH [ARGS...]: run any program bounded in time in
# the background, output in $WORK/NAME.out and exit status, once it has
# ended, in $WORK/NAME.status. Wait for all with `wait`.
in_background() {
	local name=$1
	shift

	(timeout -k 5 "$LIMIT" "$@" >"$WORK/$name.out" 2>&1
		echo $? >"$WORK/$name.status") &
}

# run_program PATH [ARGS...]: run any program bounded in time, output in
# $WORK/program.out; sets STATUS and ELAPSED (whole seconds).
run_program() {
	local start=$SECONDS

	timeout -k 5 "$LIMIT" "$@" >"$WORK/program.out" 2>&1
	STATUS=$?
	ELAPSED=$((SECONDS - start))
}

# ping_pong STAGE ARGS...: a server and a client of STAGE with ARGS;
# asserts that both succeed. From ping-sr-1 on, the server is given only
# the -x of ARGS: the client sets the rest of its run.
ping_pong() {
	local stage=$1 told=()
	shift

	if [ "$stage" = ping-sr-0 ]; then
		told=("$@")
	elif [[ " $* " == *" -x "* ]]; then
		told=(-x)
	fi
	start_server "$stage" "${told[@]}" || return 1
	run_client "$stage" "$@"
	wait_server
	assertEquals "client exit status; $(<"$WORK/client.out")" \
		0 "$CLIENT_STATUS"
	assertEquals "server exit status; $(<"$WORK/server.out")" \
		0 "$SERVER_STATUS"
}

# flushed_run KIND: the suite's server, and a client of one transfer
# whose work requests of KIND (3: RDMA writes, 4: RDMA reads) the
# slow-sends fault flushes; the client must fail.
flushed_run() {
	start_server "$STAGE" || return
	OUR_SEND_KIND=$1 OUR_SEND_FLUSH=1 LD_PRELOAD=$KIT/tests/slow-sends.so \
		run_client "$STAGE" -c 1
	wait_server
	assertNotEquals "client; $(<"$WORK/client.out")" 0 "$CLIENT_STATUS"
}

# plural N WORD: "N WORD", with an s unless N is 1, as the reports say.
plural() {
	if [ "$1" = 1 ]; then echo "$1 $2"; else echo "$1 ${2}s"; fi
}

# verified STAGE COUNT SIZE: a verified ping-pong of STAGE (see
# ping_pong); both sides report COUNT round trips of SIZE bytes. The next
# run takes the next port.
verified() {
	ping_pong "$1" -v -c "$2" -s "$3"
	assert_output "$WORK/client.out" \
		"^client: $(plural "$2" "round trip") of $(plural "$3" byte) in [0-9.]+ s\$"
	assert_output "$WORK/server.out" \
		"^server: $(plural "$2" "round trip") of $(plural "$3" byte) in [0-9.]+ s\$"
	PORT=$((PORT + 1))
}

# count FILE REGEX: how many lines of FILE match the extended REGEX (0
# when there is no FILE). Like has_line, the shell reads a short file
# itself: the waits below count many times a second.
count() {
	local lines line n=0

	[ -r "$1" ] || { echo 0; return 1; }
	mapfile -t -n 1000 lines <"$1"
	[ ${#lines[@]} -lt 1000 ] || { grep -Ec -- "$2" "$1"; return; }
	for line in "${lines[@]}"; do
		[[ $line =~ $2 ]] && n=$((n + 1))
	done
	echo "$n"
	[ "$n" -gt 0 ]
}

# state PID: the state of process PID (R, S, T...), read by the shell.
state() {
	local stat

	read -r stat <"/proc/$1/stat" || return 1
	stat=${stat##*) }
	echo "${stat%% *}"
}

# stopped PID: wait until PID is stopped (SIGSTOP has taken effect).
stopped() {
	while [ "$(state "$1")" != T ]; do
		nap 0.05
	done
}

# one_sided_while_the_agent_is_stopped STAGE KIND SLOT: the point of RDMA,
# the target's CPU takes no part. In a verified timed run of STAGE, both
# sides are stopped (SIGSTOP), the client first: the agent has a moment
# to send the notice that the client awaits. Then the client alone goes
# on: its next RDMA KIND (write or read) from or into its SLOT, posted
# after the agent stopped, must complete. If the agent was slower than
# that moment, both go on a while, and the test tries again. Every pong,
# before and after, is verified.
one_sided_while_the_agent_is_stopped() {
	local stage=$1 kind=$2 slot=$3 posts done= try deadline
	local posted="^client: ibv_post_send RDMA $kind "
	local completed="^client: work completion: RDMA $kind slot $slot, success"

	start_timed_run "$stage" -v -T || return
	wait_for_line "$WORK/client.out" "$completed" "$CLIENT_PID" \
		"$LIMIT" || fail "no RDMA $kind completed"
	for try in 1 2 3 4 5; do
		kill -STOP "$CLIENT_REAL"
		stopped "$CLIENT_REAL"
		nap 0.5
		kill -STOP "$SERVER_REAL"
		stopped "$SERVER_REAL"
		posts=$(count "$WORK/client.out" "$posted")
		kill -CONT "$CLIENT_REAL"
		deadline=$((SECONDS + 5))
		while [ $SECONDS -lt $deadline ]; do
			if [ "$(count "$WORK/client.out" "$posted")" -gt "$posts" ] &&
				[ "$(count "$WORK/client.out" "$completed")" -gt "$posts" ]; then
				done=$try
				break
			fi
			nap 0.1
		done
		# Still stopped: the transfer completed without the agent.
		assertEquals "the agent's state" T \
			"$(state "$SERVER_REAL")"
		kill -CONT "$SERVER_REAL"
		[ -n "$done" ] && break
		nap 0.5
	done
	echo "  an RDMA $kind completed while the agent was stopped, try ${done:-none}"
	assertNotNull "no RDMA $kind completed while the agent was stopped" "$done"
	kill -INT "$CLIENT_REAL"
	wait_client
	wait_server
	assertEquals "client; $(tail -n 5 "$WORK/client.out")" 130 "$CLIENT_STATUS"
	assertEquals "server; $(tail -n 5 "$WORK/server.out")" 0 "$SERVER_STATUS"
	assert_output "$WORK/server.out" "ended the run after [0-9]+ round trips"
}

# memcheck_both_sides STAGE: both sides of STAGE under memcheck in a timed
# run that Ctrl-C ends: each must end as it should, with nothing
# reported. (A whole verified run of the same code under memcheck is
# test_single.sh's run of the stage's single pair.)
memcheck_both_sides() {
	OUR_UNDER_VALGRIND=1 ctrl_c_ends_a_timed_run "$1"
	assert_ctrl_c_ended_clean "$1"
}

# assert_valgrind_clean FILE: valgrind (memcheck, helgrind) printed
# nothing into FILE: no error, no leak.
assert_valgrind_clean() {
	if has_line "$1" '^==[0-9]+== '; then
		fail "valgrind reported in ${1##*/}: $(grep '^==[0-9]*== ' "$1" | head -n 40)"
	fi
	return 0
}

# assert_output FILE REGEX: FILE has a line matching the extended REGEX.
assert_output() {
	has_line "$1" "$2" ||
		fail "expected /$2/ in ${1##*/}: $(<"$1")"
	return 0
}

# assert_no_output FILE REGEX: no line of FILE matches the REGEX.
assert_no_output() {
	has_line "$1" "$2" &&
		fail "unexpected /$2/ in ${1##*/}: $(<"$1")"
	return 0
}

# The two hosts of labs/lab pair. OTHER: the host the servers run on.
OTHER=b
[ "${LAB_HOST:-}" != b ] || OTHER=a

# require_pair: skip unless this is host a of the pair (the other host
# runs the servers and labs/wire captures on host a).
require_pair() {
	if [ -z "${LAB_PAIR:-}" ] || [ "${LAB_HOST:-}" != a ]; then
		skip_test "needs host a of the two-host lab: labs/lab pair run -- tests/run $0"
		return 1
	fi
}

# over_there: from now on start_server starts the server on the other
# host, and both sides use its address; here: back to this host.
over_there() {
	ON_SERVER_HOST=("$KIT/labs/lab" on "$OTHER" --)
	ADDR=$LAB_PEER
}

here() {
	ON_SERVER_HOST=()
	ADDR=$LAB_ADDR
}
