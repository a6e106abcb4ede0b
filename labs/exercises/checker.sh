# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# checker.sh - what the exercises' checkers share. Sourced by each
# exercise's `check`, which runs on an RDMA stack (make check puts it
# there): the programs built in the exercise's folder, a server and a
# client against each other, every run bounded in time, as the kit's
# tests/programs.sh runs them. Each check ends in one line, `PASS: what`
# or `FAIL: what (hint: ...)`, a failure followed by what the checker
# saw; the checker exits 1 while any check fails.

EXERCISE_DIR=$(cd "$(dirname "$0")" && pwd)
EXERCISE=${EXERCISE_DIR##*/}
KIT=$(cd "$EXERCISE_DIR/../../.." && pwd)
. "$KIT/tests/programs.sh"
# Every run is bounded: a hang is a symptom to report, not a wait.
LIMIT=${OUR_CHECK_LIMIT:-30}
# Each run takes a fresh port, from the exercise's own range.
PORT=${OUR_CHECK_PORT:-${CHECK_PORT:-12400}}
FRESH_PORTS=yes
# Every run starts the programs built in the exercise's folder, whatever
# its name; the outputs of each run are kept, named after it (see
# programs.sh). No valgrind tool, unless a check asks for one.
PROGRAMS_DIR=$EXERCISE_DIR
OUTPUTS_BY_NAME=yes
OUR_UNDER_VALGRIND=
PASSED=0
FAILED=0
SERVER_PID=
CLIENT_PID=
ASIDE_PIDS=

WORK=$(mktemp -d)
# Every program run records the verbs it really calls (verb_log.c), one
# log a run, both sides in it: see calls.
export LD_PRELOAD=$KIT/labs/exercises/verb_log.so
# end_runs: stop whatever still runs and remove the outputs.
end_runs() {
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
	[ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$WORK"
}
trap end_runs EXIT

# pass WHAT: a check that holds.
pass() {
	echo "PASS: $1"
	PASSED=$((PASSED + 1))
}

# fail WHAT HINT [FILE...]: a check that does not hold, with a hint, and
# the symptom seen in the programs' outputs FILE (see symptom).
fail() {
	local what=$1 hint=$2
	shift 2

	echo "FAIL: $what (hint: $hint)"
	[ $# -gt 0 ] && symptom "$@"
	FAILED=$((FAILED + 1))
}

# symptom FILE...: what went wrong: first the notes the checker left in
# the programs' outputs FILE (`checker: ...`), then what the programs said:
# the lines of each FILE that are neither a trace (`verb -> result`) nor
# one of the lines a good run prints, at most 4 of each.
symptom() {
	local file line shown

	seen "^checker: " "$@"
	for file; do
		[ -r "$file" ] || continue
		shown=0
		while IFS= read -r line && [ $shown -lt 4 ]; do
			case $line in
			*" -> "* | *": listening on "* | *" connected" | \
				*" round trips of "* | *" messages of "* | \
				*": latency "* | *": rate: "* | *": cpu: "* | \
				*": busy polling: "* | *": completion channel: "* | \
				*": flow control: "* | *": posting: "* | \
				*": cm thread"* | *": rdma_destroy_"* | \
				*": private data: "* | *": adopting "* | \
				*": connection request from "* | \
				*": advertising "* | *"'s memory: "* | \
				"checker: "* | "")
				continue ;;
			esac
			echo "    seen: $line"
			shown=$((shown + 1))
		done <"$file"
	done
}

# seen REGEX FILE...: the lines of each FILE that match the extended
# REGEX, at most 4 of each, as symptom shows them.
seen() {
	local regex=$1 file line shown
	shift

	for file; do
		[ -r "$file" ] || continue
		shown=0
		while IFS= read -r line && [ $shown -lt 4 ]; do
			[[ $line =~ $regex ]] || continue
			echo "    seen: $line"
			shown=$((shown + 1))
		done <"$file"
	done
}

# summary: the count of checks, and the checker's exit status.
summary() {
	echo "$EXERCISE: $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}

# need_lab: stop unless there is an RDMA device and the programs are
# built.
need_lab() {
	if [ -z "$ADDR" ]; then
		echo "$EXERCISE: no RDMA device here; run the checker with" \
			"'make -C labs/exercises/$EXERCISE check', which runs" \
			"it in the lab"
		exit 2
	fi
	if [ ! -x "$EXERCISE_DIR/client" ] || [ ! -x "$EXERCISE_DIR/server" ]; then
		echo "$EXERCISE: the programs are not built; run" \
			"'make -C labs/exercises/$EXERCISE check'"
		exit 2
	fi
}

# run NAME CLIENT_ARGS [-- SERVER_ARGS]: a whole run, a server and a
# client; sets CLIENT_STATUS and SERVER_STATUS, and leaves a note in the
# outputs of a side that did not start or did not end in time.
run() {
	local name=$1
	shift

	split_args "$@"
	export OUR_VERB_LOG=$WORK/$name.verbs
	CLIENT_STATUS=none
	output_of client "$name"
	if ! start_server "$name" "${SERVER_ARGS[@]}"; then
		wait_server
		echo "checker: the server did not start (status" \
			"$SERVER_STATUS)" >>"$SERVER_OUT"
		return 1
	fi
	start_client "$name" "${CLIENT_ARGS[@]}"
	wait_client
	wait_server
	note_timeout client "$CLIENT_STATUS" "$CLIENT_OUT"
	note_timeout server "$SERVER_STATUS" "$SERVER_OUT"
}

# note_timeout SIDE STATUS FILE: say in FILE that SIDE was killed when its
# time ran out, if it was.
note_timeout() {
	case $2 in
	124 | 137)
		echo "checker: the $1 was still running after $LIMIT s:" \
			"it hung, and was killed" >>"$3"
		;;
	esac
}

# run_aside NAME CLIENT_ARGS [-- SERVER_ARGS]: the same run in the
# background, on ports of its own, while other checks go on; collect it
# with collect_aside NAME, which sets CLIENT_STATUS, SERVER_STATUS,
# CLIENT_OUT and SERVER_OUT as run does. valgrind spends many seconds of
# CPU starting a program in the emulated lab: meanwhile the other CPU
# can run other checks.
run_aside() {
	local name=$1

	(PORT=$((PORT + 500))
	 SERVER_PID=''
	 CLIENT_PID=''
	 run "$@"
	 echo "$CLIENT_STATUS $SERVER_STATUS" >"$WORK/$name.statuses") &
	ASIDE_PIDS+=" $!"
}

collect_aside() {
	local pid

	for pid in $ASIDE_PIDS; do
		wait "$pid"
	done
	ASIDE_PIDS=
	output_of client "$1"
	output_of server "$1"
	read -r CLIENT_STATUS SERVER_STATUS <"$WORK/$1.statuses" ||
		CLIENT_STATUS=none SERVER_STATUS=none
}

# run_many NAME SERVER_ARGS CLIENT_ARGS...: a server and several clients
# at once, the clients started one after the other without waiting, each
# CLIENT_ARGS the words of one client's arguments (SERVER_ARGS those of
# the server's). Client K (from 1) writes to $WORK/NAME-K.client.out and
# logs its verbs as run NAME-K (see calls); the server, as run NAME. Sets
# SERVER_STATUS and SERVER_OUT, and MANY_STATUS[K] and MANY_OUT[K] for
# each client; leaves a note, as run does, in the outputs of a program
# that did not start or did not end in time.
run_many() {
	local name=$1 server_args=$2 args k pids=()
	shift 2

	MANY_STATUS=()
	MANY_OUT=()
	export OUR_VERB_LOG=$WORK/$name.verbs
	# shellcheck disable=SC2086 # the words of the arguments
	if ! start_server "$name" $server_args; then
		wait_server
		echo "checker: the server did not start (status" \
			"$SERVER_STATUS)" >>"$SERVER_OUT"
		return 1
	fi
	k=0
	for args; do
		k=$((k + 1))
		# shellcheck disable=SC2086
		OUR_VERB_LOG=$WORK/$name-$k.verbs start_client "$name-$k" $args
		pids[k]=$CLIENT_PID
		MANY_OUT[k]=$CLIENT_OUT
	done
	CLIENT_PID=
	for k in "${!pids[@]}"; do
		wait "${pids[k]}" 2>/dev/null
		MANY_STATUS[k]=$?
		note_timeout client "${MANY_STATUS[k]}" "${MANY_OUT[k]}"
	done
	wait_server
	note_timeout server "$SERVER_STATUS" "$SERVER_OUT"
}

# plural N WORD: "N WORD", with an s unless N is 1, as the reports say.
plural() {
	if [ "$1" = 1 ]; then echo "$1 $2"; else echo "$1 ${2}s"; fi
}

# ping_pong COUNT SIZE HINT [ARGS...]: a verified ping-pong of COUNT round
# trips of SIZE bytes, with ARGS (-t, say) given to both sides: both must
# end well and report it. Sets WORKS once one has.
WORKS=
ping_pong() {
	local count=$1 size=$2 hint=$3 report what
	shift 3

	report="$(plural "$count" "round trip") of $(plural "$size" byte)"
	what="a verified ping-pong: $report"
	run "pp-$size" -v -c "$count" -s "$size" "$@" -- "$@"
	if ended_well &&
		has_line "$CLIENT_OUT" "^client: $report in " &&
		has_line "$SERVER_OUT" "^server: $report in "; then
		pass "$what"
		WORKS=yes
	else
		fail "$what" "$hint" "$CLIENT_OUT" "$SERVER_OUT"
	fi
}

# calls NAME SIDE REGEX: how many calls of run NAME's SIDE (client or
# server) the verb log holds whose line matches the extended REGEX,
# which starts with the verb's name (`ibv_post_send opcode=2`, say).
calls() {
	grep -Ecs "^$2 $3" "$WORK/$1.verbs"
}

# ended_well: the last run's client and server both exited 0.
ended_well() {
	[ "$CLIENT_STATUS" = 0 ] && [ "$SERVER_STATUS" = 0 ]
}

