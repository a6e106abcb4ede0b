# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# checker.sh - what the exercises' checkers share. Sourced by each
# exercise's `check`, which runs on an RDMA stack (make check puts it
# there): the programs built in the exercise's folder, a server and a
# client against each other, every run bounded in time, as the kit's
# tests/programs.sh runs them. Each check ends in one line, `PASS: what`
# or `FAIL: what (hint: ...)`, a failure followed by what the checker
# saw; the checker exits 1 while any check fails, and then keeps the
# runs' whole outputs and verb logs in the exercise's folder (see
# summary). A checker counts the verbs the programs really call (calls,
# verb_log.c) and proves the student's file is what was built
# (built_from): trace lines and Makefiles can be made to say anything.

EXERCISE_DIR=$(cd "$(dirname "$0")" && pwd)
EXERCISE=${EXERCISE_DIR##*/}
KIT=$(cd "$EXERCISE_DIR/../../.." && pwd)
. "$KIT/tests/programs.sh"
# Every run is bounded: a hang is a symptom to report, not a wait.
LIMIT=${OUR_CHECK_LIMIT:-30}
# Each run takes a fresh port, from the exercise's own range: CHECK_PORT
# is where it starts when the programs' default port is 12321; a student
# who gives themself a range of ports on a shared machine (OUR_PORT, the
# programs' default port when set) moves it with theirs. OUR_CHECK_PORT
# sets it outright (the kit's tests).
PORT=${OUR_CHECK_PORT:-$((${CHECK_PORT:-12400} - 12321 + ${OUR_PORT:-12321}))}
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
# log a run, both sides in it: see calls. The log of run NAME is
# $WORK/NAME.verbs, named as its outputs are (output_of, programs.sh),
# whatever starts the run: run, or a check's own start_server.
export LD_PRELOAD=$KIT/labs/exercises/verb_log.so
eval "programs_$(declare -f output_of)"
output_of() {
	programs_output_of "$@"
	export OUR_VERB_LOG=$WORK/$2.verbs
}
# Where a failed check's outputs are kept, in the exercise's folder; a
# student who set OUR_PORT has a folder of their own.
KEPT=check-outputs${OUR_PORT:+-$OUR_PORT}
# end_runs: stop whatever still runs and remove the outputs (summary has
# kept them, if a check failed).
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
# one of the lines a good run prints, at most 4 of each; and, of a FILE
# whose program hung, the last line it printed before it was stopped
# (before `interrupted by SIGTERM`, after which it tears down): where it
# stopped, trace line or not.
symptom() {
	local file line shown last stopped

	seen "^checker: " "$@"
	for file; do
		[ -r "$file" ] || continue
		shown=0
		last=
		stopped=
		while IFS= read -r line; do
			case $line in
			"checker: "*"hung"*)
				stopped=${stopped:-$last}
				[ -n "$stopped" ] &&
					echo "    seen: its last line before the hang: $stopped"
				continue ;;
			"checker: "* | "") continue ;;
			*": interrupted by SIG"*)
				stopped=${stopped:-$last} ;;
			esac
			last=$line
			[ $shown -lt 4 ] || continue
			case $line in
			*" -> "* | *": listening on "* | *" connected" | \
				*" round trip"*" of "* | *" message"*" of "* | \
				*": latency "* | *": rate: "* | *": cpu: "* | \
				*": busy polling: "* | *": completion channel: "* | \
				*": flow control: "* | *": posting: "* | \
				*": cm thread"* | *": rdma_destroy_"* | \
				*": private data: "* | *": adopting "* | \
				*": connection request from "* | \
				*": advertising "* | *"'s memory: "*)
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

# summary: the count of checks, and the checker's exit status. When a
# check failed, the runs' outputs are kept in the exercise's folder (KEPT):
# each program's whole output, trace lines included, and each run's verb
# log; a full pass removes what an earlier run kept.
summary() {
	local kept=$EXERCISE_DIR/$KEPT

	rm -rf "$kept"
	if [ "$FAILED" -gt 0 ] && mkdir -p "$kept" &&
		cp -p "$WORK"/* "$kept/" 2>/dev/null; then
		echo "outputs kept in ${kept#"$KIT/"}/ (each program's whole" \
			"output and each run's verb log)"
	fi
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
	mixed_run "$1" "$EXERCISE_DIR" "$EXERCISE_DIR" "${@:2}"
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
	local count

	count=$(grep -Ecs "^$2 $3" "$WORK/$1.verbs")
	echo "${count:-0}"
}

# made_before NAME SIDE FIRST THEN: in run NAME's verb log, SIDE called
# a verb matching the extended regex FIRST before each call matching THEN
# (both start with the verb's name), since the one before; and THEN at
# least once. librdmacm logs its own calls too, after the verb that makes
# them: an id made without a channel logs rdma_create_id, then the
# channel librdmacm makes for it; one made on the program's channel, the
# channel first.
made_before() {
	awk -v side="$2" -v first="^$3" -v then="^$4" '
		$1 != side { next }
		{ $1 = ""; sub(/^ /, "") }
		$0 ~ then { seen++; if (!ready) bad++; ready = 0; next }
		$0 ~ first { ready = 1 }
		END { exit !(seen > 0 && bad == 0) }' "$WORK/$1.verbs" 2>/dev/null
}

# built_from FILE...: the programs in the exercise's folder were built
# from the folder's own FILE (a .c the student writes or fixes): make's
# record of each object's sources (.build/*.d, which gcc writes) names
# FILE of this folder as the source of its object, and both programs
# are newer than that object. A Makefile that names the kit's piece in
# place of the student's builds the object from the kit's file. Prints
# what it found when not.
built_from() {
	local file deps source

	for file; do
		deps=$EXERCISE_DIR/.build/${file%.c}.d
		source=
		[ -r "$deps" ] && source=$(awk '{ for (i = 1; i <= NF; i++)
				if ($i ~ /\.c$/) { print $i; exit } }' "$deps")
		case $source in
		"$file" | "$EXERCISE_DIR/$file") ;;
		"")
			echo "    seen: no object of $file in .build/: the" \
				"Makefile does not build it"
			return 1 ;;
		*)
			echo "    seen: .build/${file%.c}.o was built from" \
				"$source, not this folder's $file"
			return 1 ;;
		esac
		if [ "$EXERCISE_DIR/client" -ot "$EXERCISE_DIR/.build/${file%.c}.o" ] ||
			[ "$EXERCISE_DIR/server" -ot "$EXERCISE_DIR/.build/${file%.c}.o" ]; then
			echo "    seen: the programs are older than" \
				".build/${file%.c}.o: build them again (make)"
			return 1
		fi
	done
}

# check_built_from FILE PIECE VARIABLE: the check that the programs are
# built from this folder's FILE (built_from), and hold no trace of the
# kit's PIECE (STAGE/FILE): their debug information names the source of
# each object, so a Makefile whose VARIABLE names the kit's piece, the
# answer already written, is seen either way. Returns 1 when it failed.
check_built_from() {
	local what="the programs are built from your $1" seen built=yes
	local program kit_piece=

	seen=$(built_from "$1") || built=
	for program in client server; do
		grep -qaF "$2" "$EXERCISE_DIR/$program" &&
			built='' && kit_piece=yes
	done
	if [ -n "$built" ]; then
		pass "$what"
		return 0
	fi
	fail "$what" "$3 in the Makefile names ${1%.c}, your file, and the programs are built again with make"
	[ -z "$seen" ] || echo "$seen"
	[ -z "$kit_piece" ] ||
		echo "    seen: the programs hold ${2%%/*}'s ${2#*/}"
	return 1
}

# mixed_run NAME SERVER_DIR CLIENT_DIR CLIENT_ARGS [-- SERVER_ARGS]: run
# does, with the server of SERVER_DIR and the client of CLIENT_DIR: the
# student's programs against the kit's own (a stage's folder), which
# speak the wire's format as the kit defines it.
mixed_run() {
	local name=$1 server_dir=$2 client_dir=$3
	shift 3

	split_args "$@"
	CLIENT_STATUS=none
	output_of client "$name"
	if ! PROGRAMS_DIR=$server_dir start_server "$name" "${SERVER_ARGS[@]}"; then
		wait_server
		echo "checker: the server did not start (status" \
			"$SERVER_STATUS)" >>"$SERVER_OUT"
		return 1
	fi
	PROGRAMS_DIR=$client_dir start_client "$name" "${CLIENT_ARGS[@]}"
	[ -n "${WATCH:-}" ] && watch_client "$name"
	wait_client
	wait_server
	note_timeout client "$CLIENT_STATUS" "$CLIENT_OUT"
	note_timeout server "$SERVER_STATUS" "$SERVER_OUT"
}

# watch_client NAME: while the client of run NAME runs, ask each second
# the check's own WATCH, a function given NAME, whether the run can never
# end; once it says so (status 0, its note added to the client's output),
# stop both sides, rather than let them spin until the limit.
watch_client() {
	while running "$CLIENT_PID"; do
		nap 1
		if "$WATCH" "$1"; then
			kill "$CLIENT_PID" "$SERVER_PID" 2>/dev/null
			return
		fi
	done
}

# ended_well: the last run's client and server both exited 0.
ended_well() {
	[ "$CLIENT_STATUS" = 0 ] && [ "$SERVER_STATUS" = 0 ]
}

