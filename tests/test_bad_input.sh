#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad input: each case gets a message naming the problem and a non-zero
# exit within seconds, never a hang or a crash. It needs one device, not
# two hosts: make check runs it on host a of the pair, to even out the
# two labs (see the Makefile); tests/run --no-host leaves it out.
# tests/run: pair
. "$(dirname "$0")/lib.sh"

# The stages whose programs take the ping-pong command line.
STAGES=${OUR_STAGES:-ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-3 ping-sr-4 blast-sr-2
	ping-rdma-1 ping-rdma-2 blast-rdma-1 atomic-1 pubsub-rdma-1
	ping-sg-1 ping-post-1 ping-wr-1}
# The option parser is one piece of code for every program; what differs
# is the program it describes: a ping client without -D, one with it, and
# blast's, with -b; a server that takes -c and -s, and servers whose
# client sets them. Bad usage is tried on one stage of each.
USAGE_STAGES=${OUR_USAGE_STAGES:-ping-sr-0 ping-sr-2 blast-sr-2}

# refused STATUS REGEX PROGRAM ARGS...: PROGRAM ARGS exits with STATUS
# within 10 seconds and says REGEX.
refused() {
	local expected=$1 message=$2
	shift 2

	run_program "$@"
	# Checked without spawning more programs: the suite runs many.
	[ "$STATUS" = "$expected" ] ||
		fail "exit status of $*: $STATUS, not $expected; $(<"$WORK/program.out")"
	[ "$ELAPSED" -le 10 ] || fail "$* took ${ELAPSED}s"
	assert_output "$WORK/program.out" "$message"
}

# usage_refused REGEX ARGS...: every client and server refuses ARGS as
# bad usage (exit 2), saying REGEX, then showing the usage. Where ARGS
# give a count or size, only the servers that take one are tried.
usage_refused() {
	local message=$1 stage program
	shift

	for stage in $USAGE_STAGES; do
		for program in client server; do
			[ "$program.$stage" != server.ping-sr-0 ] &&
				[[ " $* " =~ \ (-c|-s|--size)\  ]] && continue
			refused 2 "^$program: $message" \
				"$KIT/$stage/$program" -a 192.0.2.1 "$@"
			assert_output "$WORK/program.out" \
				"^usage: $stage $program \[options\]"
		done
	done
}

# -h names the stage. From ping-sr-1 on, a server offers no -c, -s, -b
# or -v: its client sets them. atomic-1's client counts additions, and
# its -v checks the counter, not bytes; pubsub-rdma-1's subscriber
# counts publications, and its -b is the length of a chain of reads.
test_help_exits_0() {
	local stage program

	for stage in $STAGES; do
		for program in client server; do
			run_program "$KIT/$stage/$program" --help
			assertEquals "$stage/$program --help" 0 "$STATUS"
			assert_output "$WORK/program.out" \
				"^usage: $stage $program \[options\]"
			if [ "$program.$stage" = client.atomic-1 ]; then
				assert_output "$WORK/program.out" \
					"^  -c N +additions, 1 to 10000000 \\(default 100\\)"
				assert_output "$WORK/program.out" \
					"^  -v +check that the counter never goes back\$"
				continue
			fi
			if [ "$program.$stage" = client.pubsub-rdma-1 ]; then
				assert_output "$WORK/program.out" \
					"^  -c N +publications, 1 to 10000000 \\(default 100\\)"
				assert_output "$WORK/program.out" \
					"^  -b N +reads chained in one post, 1 to 64 \\(default 4\\)"
				continue
			fi
			if [ "$program.$stage" = server.ping-sr-0 ] ||
				[ $program = client ]; then
				assert_output "$WORK/program.out" \
					"^  -c N +transfers, 1 to 10000000 \\(default 100\\)"
				continue
			fi
			assertFalse "$stage server's help offers -c or -v" \
				"has_line '$WORK/program.out' '^  -(c|s|b|v) '"
		done
	done
}

test_a_server_refuses_what_its_client_sets() {
	local stage option

	for stage in ping-sr-1 ping-sr-4 blast-sr-2 ping-rdma-1 ping-rdma-2 \
		blast-rdma-1 atomic-1 pubsub-rdma-1 ping-sg-1 ping-post-1 \
		ping-wr-1; do
		for option in -c -s -v; do
			refused 2 "^server: unknown option '$option'\$" \
				"$KIT/$stage/server" "$option" 10
		done
	done
	for stage in blast-sr-2 blast-rdma-1 pubsub-rdma-1; do
		refused 2 "^server: unknown option '-b'\$" \
			"$KIT/$stage/server" -b 2
	done
}

# atomic-1 and pubsub-rdma-1 fix the size of what they move (an atomic's
# 8 bytes, a publication's 64), so their clients take no -s; only their
# servers, which serve many clients at once, take -n, from 1 to 64.
test_fixed_sizes_and_servers_for_many() {
	local stage count

	refused 2 "^client: unknown option '-s'\$" \
		"$KIT/atomic-1/client" -a 192.0.2.1 -s 64
	refused 2 "^client: unknown option '-s'\$" \
		"$KIT/pubsub-rdma-1/client" -a 192.0.2.1 -s 64
	for stage in atomic-1 pubsub-rdma-1; do
		for count in 0 65 x -1; do
			refused 2 "^server: -n must be 1 to 64, not '$count'\$" \
				"$KIT/$stage/server" -n "$count"
		done
		refused 2 "^client: unknown option '-n'\$" \
			"$KIT/$stage/client" -a 192.0.2.1 -n 2
	done
	refused 2 "^server: unknown option '-n'\$" \
		"$KIT/ping-rdma-1/server" -n 2
}

test_unknown_option() {
	usage_refused "unknown option '-q'" -q
	usage_refused "unknown option '--frobnicate'" --frobnicate
}

test_missing_argument() {
	usage_refused "missing argument for '-c'" -c
	usage_refused "missing argument for '-s'" -s
}

test_count_not_a_number() {
	usage_refused "-c must be 1 to 10000000, not 'ten'" -c ten
	usage_refused "-c must be 1 to 10000000, not '12abc'" -c 12abc
}

test_count_out_of_range() {
	usage_refused "-c must be 1 to 10000000, not '0'" -c 0
	usage_refused "-c must be 1 to 10000000, not '-5'" -c -5
	usage_refused "-c must be 1 to 10000000, not '10000001'" -c 10000001
	usage_refused "-c must be 1 to 10000000, not '99999999999999999999999'" \
		-c 99999999999999999999999
}

test_size_out_of_range() {
	usage_refused "-s must be 1 to 16777216, not '0'" -s 0
	usage_refused "-s must be 1 to 16777216, not '-1'" -s -1
	usage_refused "-s must be 1 to 16777216, not '16777217'" \
		-s 16777217
	usage_refused "-s must be 1 to 16777216, not '1k'" -s 1k
}

# -D: a whole number of seconds, and only for clients of the stages
# whose agent sees the run end (ping-sr-2 on).
test_bad_duration() {
	local stage

	for stage in ping-sr-2 ping-sr-3 ping-sr-4 blast-sr-2; do
		refused 2 "^client: -D must be 1 to 86400, not '0'" \
			"$KIT/$stage/client" -a 192.0.2.1 -D 0
		refused 2 "^client: -D must be 1 to 86400, not '1.5'" \
			"$KIT/$stage/client" -a 192.0.2.1 -D 1.5
		refused 2 "^server: unknown option '-D'\$" \
			"$KIT/$stage/server" -D 5
		run_program "$KIT/$stage/client" -h
		assert_output "$WORK/program.out" "^  -D SECONDS "
	done
	for stage in ping-sr-0 ping-sr-1; do
		refused 2 "^client: unknown option '-D'\$" \
			"$KIT/$stage/client" -a 192.0.2.1 -D 5
		run_program "$KIT/$stage/client" -h
		assertFalse "$stage client's help offers -D" \
			"grep -q -- '^  -D ' '$WORK/program.out'"
	done
}

test_bad_port() {
	usage_refused "-p must be 1 to 65535, not '70000'" -p 70000
	usage_refused "-p must be 1 to 65535, not 'http'" -p http
}

# OUR_PORT, when set, is the port of a program not given -p: students
# who share a machine each set their own. One that is not a port is
# refused, as -p's would be, by every program that takes -p.
test_bad_port_in_the_environment() {
	local stage program value

	for value in http 0 65536 12321x; do
		for stage in $USAGE_STAGES; do
			for program in client server; do
				refused 2 "^$program: OUR_PORT must be 1 to 65535, not '$value'\$" \
					env OUR_PORT="$value" \
					"$KIT/$stage/$program" -a 192.0.2.1
			done
		done
	done
	# Even beside a -p that would do: the setting is wrong either way.
	refused 2 "^client: OUR_PORT must be 1 to 65535, not 'http'\$" \
		env OUR_PORT=http "$KIT/ping-sr-0/client" -a 192.0.2.1 -p 12321
	run_program "$KIT/ping-sr-0/client" -h
	assert_output "$WORK/program.out" '^  -p PORT      port [(]default 12321[)]$'
	assert_output "$WORK/program.out" '^[$]OUR_PORT, when set, is the default of -p[.]$'
}

test_port_from_the_environment() {
	require_rdma || return 0
	local far=$((PORT + 500))

	# The server and the client meet on OUR_PORT, neither given -p.
	OUR_PORT=$PORT timeout -k 5 "$LIMIT" "$KIT/ping-sr-1/server" \
		-a "$ADDR" >"$WORK/server.out" 2>&1 &
	SERVER_PID=$!
	wait_for_line "$WORK/server.out" "^server: listening on [^ ]*:$PORT\$" \
		"$SERVER_PID" "$LIMIT" ||
		fail "the server did not listen on OUR_PORT $PORT: $(<"$WORK/server.out")"
	run_program env OUR_PORT="$PORT" "$KIT/ping-sr-1/client" -a "$ADDR" -c 3 -v
	assertEquals "client on OUR_PORT; $(<"$WORK/program.out")" 0 "$STATUS"
	wait_server
	assertEquals "server on OUR_PORT; $(<"$WORK/server.out")" 0 "$SERVER_STATUS"
	# -p wins over OUR_PORT.
	refused 1 "^client: no server listens at $ADDR:$far\$" \
		env OUR_PORT="$PORT" "$KIT/ping-sr-1/client" -a "$ADDR" -p "$far"
}

test_client_needs_an_address() {
	local stage

	for stage in $STAGES; do
		refused 2 "^client: the server's address is required" \
			"$KIT/$stage/client"
	done
}

# The stages with an event channel open the RDMA CM device before they
# look up the name: without a device they stop there.
test_unresolvable_server_name() {
	require_rdma || return 0
	local stage

	for stage in $STAGES; do
		refused 1 "^client: cannot resolve 'no-such-host.invalid'" \
			"$KIT/$stage/client" -a no-such-host.invalid
		refused 1 "^server: cannot resolve 'no-such-host.invalid'" \
			"$KIT/$stage/server" -a no-such-host.invalid
	done
}

test_address_without_rdma_device() {
	require_rdma || return 0
	local stage

	# No rxe sits on lo, so 127.0.0.1 reaches no RDMA device.
	for stage in $STAGES; do
		refused 1 "^client: .*127\\.0\\.0\\.1" \
			"$KIT/$stage/client" -a 127.0.0.1 -p "$PORT"
	done
}

test_server_address_without_rdma_device() {
	require_rdma || return 0
	local stage

	# 192.0.2.99 is on no interface of this machine: nothing to bind to.
	for stage in $STAGES; do
		refused 1 "^server: rdma_bind_addr 192\\.0\\.2\\.99:$PORT: " \
			"$KIT/$stage/server" -a 192.0.2.99 -p "$PORT"
	done
}

test_no_server_listening() {
	require_rdma || return 0
	local stage

	for stage in $STAGES; do
		refused 1 "^client: no server listens at $ADDR:$PORT\$" \
			"$KIT/$stage/client" -a "$ADDR" -p "$PORT"
	done
}

. shunit2
