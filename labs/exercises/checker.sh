# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# checker.sh - what the exercises' checkers share. Sourced by each
# exercise's `check`, which runs on an RDMA stack (make check puts it
# there): the programs built in the exercise's folder, a server and a
# client against each other, every run bounded in time. Each check ends
# in one line, `PASS: what` or `FAIL: what (hint: ...)`, a failure
# followed by what the checker saw; the checker exits 1 while any check
# fails.

EXERCISE_DIR=$(cd "$(dirname "$0")" && pwd)
EXERCISE=${EXERCISE_DIR##*/}
KIT=$(cd "$EXERCISE_DIR/../../.." && pwd)
ADDR=${LAB_ADDR:-}
DEVICE=${LAB_DEVICE:-}
# Every run is bounded: a hang is a symptom to report, not a wait.
LIMIT=${OUR_CHECK_LIMIT:-30}
# Each run takes a fresh port, from the exercise's own range.
PORT=${OUR_CHECK_PORT:-${CHECK_PORT:-12400}}
PASSED=0
FAILED=0
SERVER_PID=
CLIENT_PID=
ASIDE_PIDS=

# Server and client on a CPU each, where there are two: two programs
# left to share one CPU make the emulated lab crawl.
if [ "$(nproc)" -ge 2 ]; then
	ON_SERVER_CPU=(taskset -c 0)
	ON_CLIENT_CPU=(taskset -c 1)
else
	ON_SERVER_CPU=()
	ON_CLIENT_CPU=()
fi

MEMCHECK=(valgrind --quiet --error-exitcode=99 --leak-check=full
	--show-leak-kinds=definite,indirect
	--errors-for-leak-kinds=definite,indirect
	--suppressions="$KIT/tests/valgrind.supp")

WORK=$(mktemp -d)
# end_runs: stop whatever still runs and remove the outputs.
end_runs() {
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
	[ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$WORK"
}
trap end_runs EXIT

# nap SECONDS: sleep without starting a program (each one started costs
# a tenth of a second in the emulated lab): read times out on a fifo
# that nobody writes.
NAP_FIFO=$(mktemp -u)
mkfifo "$NAP_FIFO"
exec {NAP_FD}<>"$NAP_FIFO"
rm -f "$NAP_FIFO"
nap() {
	read -r -t "$1" -u "$NAP_FD" _ || true
}

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
				*": flow control: "* | *": cm thread"* | \
				*": rdma_destroy_"* | *": private data: "* | \
				*": connection request from "* | *": adopting "* | \
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

# has_line FILE REGEX: a line of FILE matches the extended REGEX. The
# shell reads the file itself: each grep started costs more than that.
has_line() {
	local line

	[ -r "$1" ] || return 1
	while IFS= read -r line; do
		[[ $line =~ $2 ]] && return 0
	done <"$1"
	return 1
}

# wait_for_line FILE REGEX PID SECONDS: until a line of FILE matches
# REGEX, while PID runs, for up to SECONDS.
wait_for_line() {
	local deadline=$((SECONDS + $4))

	while [ $SECONDS -lt "$deadline" ]; do
		has_line "$1" "$2" && return 0
		kill -0 "$3" 2>/dev/null || break
		nap 0.05
	done
	has_line "$1" "$2"
}

# program_pid PID: the pid of the program that `timeout` (PID) runs.
program_pid() {
	local child='' deadline=$((SECONDS + 10))

	while [ $SECONDS -lt $deadline ]; do
		read -r child _ <"/proc/$1/task/$1/children" 2>/dev/null
		[ -n "$child" ] && { echo "$child"; return 0; }
		nap 0.02
	done
	return 1
}

# cpu_ticks PID: user plus system CPU time of PID so far, in clock ticks.
cpu_ticks() {
	local stat

	read -r stat <"/proc/$1/stat" || return 1
	stat=${stat##*) }
	read -r -a stat <<<"$stat"
	# Fields 14 and 15 of the whole line: 12 and 13 after the name.
	echo $((stat[11] + stat[12]))
}

# ends_within SECONDS PID: PID ends within SECONDS.
ends_within() {
	local deadline=$((SECONDS + $1))

	while [ $SECONDS -lt "$deadline" ]; do
		kill -0 "$2" 2>/dev/null || return 0
		nap 0.1
	done
	! kill -0 "$2" 2>/dev/null
}

# start_server NAME [ARGS...]: the exercise's server in the background on
# a fresh port, output in $WORK/NAME.server; waits until it listens. With
# UNDER=memcheck it runs under valgrind. Sets SERVER_PID (the timeout
# that bounds it) and SERVER_OUT; returns 1 if it never listened.
start_server() {
	local name=$1 under=()
	shift

	[ "${UNDER:-}" = memcheck ] && under=("${MEMCHECK[@]}")
	PORT=$((PORT + 1))
	SERVER_OUT=$WORK/$name.server
	timeout -k 5 "$LIMIT" "${ON_SERVER_CPU[@]}" "${under[@]}" \
		"$EXERCISE_DIR/server" -a "$ADDR" -p "$PORT" "$@" \
		>"$SERVER_OUT" 2>&1 &
	SERVER_PID=$!
	wait_for_line "$SERVER_OUT" "^server: listening on [^ ]*:$PORT\$" \
		"$SERVER_PID" "$LIMIT"
}

# start_client NAME [ARGS...]: the exercise's client in the background
# against the server, output in $WORK/NAME.client. Sets CLIENT_PID and
# CLIENT_OUT.
start_client() {
	local name=$1 under=()
	shift

	[ "${UNDER:-}" = memcheck ] && under=("${MEMCHECK[@]}")
	CLIENT_OUT=$WORK/$name.client
	timeout -k 5 "$LIMIT" "${ON_CLIENT_CPU[@]}" "${under[@]}" \
		"$EXERCISE_DIR/client" -a "$ADDR" -p "$PORT" "$@" \
		>"$CLIENT_OUT" 2>&1 &
	CLIENT_PID=$!
}

# wait_client, wait_server: wait for the program to end; set
# CLIENT_STATUS or SERVER_STATUS (124 or 137: it was still running when
# its time ran out).
wait_client() {
	wait "$CLIENT_PID" 2>/dev/null
	CLIENT_STATUS=$?
	CLIENT_PID=
}

wait_server() {
	wait "$SERVER_PID" 2>/dev/null
	SERVER_STATUS=$?
	SERVER_PID=
}

# run NAME CLIENT_ARGS [-- SERVER_ARGS]: a whole run, a server and a
# client; sets CLIENT_STATUS and SERVER_STATUS, and leaves a note in the
# outputs of a side that did not start or did not end in time.
run() {
	local name=$1 client=() server=()
	shift

	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		client+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	server=("$@")
	CLIENT_STATUS=none
	CLIENT_OUT=$WORK/$name.client
	if ! start_server "$name" "${server[@]}"; then
		wait_server
		echo "checker: the server did not start (status" \
			"$SERVER_STATUS)" >>"$SERVER_OUT"
		return 1
	fi
	start_client "$name" "${client[@]}"
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
	CLIENT_OUT=$WORK/$1.client
	SERVER_OUT=$WORK/$1.server
	read -r CLIENT_STATUS SERVER_STATUS <"$WORK/$1.statuses" ||
		CLIENT_STATUS=none SERVER_STATUS=none
}

# ping_pong COUNT SIZE HINT [ARGS...]: a verified ping-pong of COUNT round
# trips of SIZE bytes, with ARGS (-t, say) given to both sides: both must
# end well and report it. Sets WORKS once one has.
WORKS=
ping_pong() {
	local count=$1 size=$2 hint=$3 what
	shift 3

	what="a verified ping-pong: $count round trips of $size bytes"
	run "pp-$size" -v -c "$count" -s "$size" "$@" -- "$@"
	if ended_well &&
		has_line "$CLIENT_OUT" "^client: $count round trips of $size bytes" &&
		has_line "$SERVER_OUT" "^server: $count round trips of $size bytes"; then
		pass "$what"
		WORKS=yes
	else
		fail "$what" "$hint" "$CLIENT_OUT" "$SERVER_OUT"
	fi
}

# ended_well: the last run's client and server both exited 0.
ended_well() {
	[ "$CLIENT_STATUS" = 0 ] && [ "$SERVER_STATUS" = 0 ]
}

