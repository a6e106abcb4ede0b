# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2034 # its settings are its callers'
# programs.sh - how the kit's tests and the exercises' checkers run the
# programs: a server and a client against each other on the RDMA address,
# each on a CPU of its own, under valgrind when asked, every run bounded
# in time; and how to wait on what they print without starting a program
# for each look. Nothing here passes or fails a check: each function
# returns a status, and its caller decides. Sourced by tests/lib.sh and by
# labs/exercises/checker.sh, which set KIT (the kit's top folder) before,
# and these before a run:
#
#   WORK             the folder the programs' outputs go to
#   LIMIT            how long a program may run, in seconds
#   PORT             the server's port
#   PROGRAMS_DIR     the folder of the server and the client every run
#                    starts (the checker: the exercise's); when empty, a
#                    run's NAME is the kit's folder of its programs, a
#                    stage (the tests)
#   OUTPUTS_BY_NAME  yes: the outputs of run NAME are $WORK/NAME.server.out
#                    and $WORK/NAME.client.out, every run's kept (the
#                    checker); empty: $WORK/server.out and
#                    $WORK/client.out, the last run's (the tests)
#   FRESH_PORTS      yes: each server takes the port after PORT, which
#                    moves on (the checker); empty: the caller moves PORT
#                    on (the tests: one port a test)
#   OUR_UNDER_VALGRIND  the valgrind tool the programs run under: 1 or
#                    memcheck, helgrind; empty: none
#   ON_SERVER_HOST   what starts the server on another host (the two
#                    hosts of labs/lab pair: labs/lab on b --), with ADDR
#                    that host's address; empty: the server runs here

# The address of the netdev that carries the RDMA device, and the device
# (the lab sets both).
ADDR=${LAB_ADDR:-}
DEVICE=${LAB_DEVICE:-}

# The CPUs this machine has. Where there are two or more, the server runs
# on the first and the client on the second: two busy-polling programs
# left to share one CPU make an emulated lab crawl.
CPUS=$(nproc)
if [ "$CPUS" -ge 2 ]; then
	ON_SERVER_CPU=(taskset -c 0)
	ON_CLIENT_CPU=(taskset -c 1)
else
	ON_SERVER_CPU=()
	ON_CLIENT_CPU=()
fi

# The valgrind tools: memcheck exits 99 on an error or on memory
# definitely or indirectly lost; helgrind on a data race or a misused
# lock. memcheck skips the inlined calls of the debug information
# (--read-inline-info=no): in the emulated lab that is half a second of
# each start, and an error's stack then names the function an inlined
# call sits in, which is enough to find it. helgrind keeps them: a
# suppression of valgrind.supp names an inlined function of glibc.
# shellcheck disable=SC2054 # the commas are valgrind's
VALGRIND=(valgrind --quiet --error-exitcode=99 --leak-check=full
	--read-inline-info=no
	--show-leak-kinds=definite,indirect
	--errors-for-leak-kinds=definite,indirect
	--suppressions="$KIT/tests/valgrind.supp")
HELGRIND=(valgrind --tool=helgrind --error-exitcode=99 -q
	--suppressions="$KIT/tests/valgrind.supp")

# nap SECONDS: sleep without starting a program: in the emulated lab each
# program started costs a tenth of a second or more, and the waits below
# look up many times. read times out on a fifo that nobody writes.
OUR_NAP_FIFO=$(mktemp -u)
mkfifo "$OUR_NAP_FIFO"
exec {OUR_NAP}<>"$OUR_NAP_FIFO"
rm -f "$OUR_NAP_FIFO"
nap() {
	read -r -t "$1" -u "$OUR_NAP" _ || true
}

# has_line FILE REGEX: FILE has a line matching the extended REGEX.
# Short files are read by the shell itself: in the emulated lab each grep
# started costs more than the check.
has_line() {
	local lines line

	[ -r "$1" ] || return 1
	mapfile -t -n 1000 lines <"$1" || return 1
	[ ${#lines[@]} -lt 1000 ] || { grep -Eq -- "$2" "$1"; return; }
	for line in "${lines[@]}"; do
		[[ $line =~ $2 ]] && return 0
	done
	return 1
}

# wait_for_line FILE REGEX PID SECONDS: until a line of FILE matches the
# extended REGEX, while PID runs, for up to SECONDS. The servers say when
# they listen and when a client has connected, at once (see our_say);
# the shell reads the file itself, so a look costs no program started.
wait_for_line() {
	local deadline=$((SECONDS + $4))

	while [ $SECONDS -lt $deadline ]; do
		has_line "$1" "$2" && return 0
		running "$3" || break
		nap 0.05
	done
	has_line "$1" "$2"
}

# running PID: PID has not ended. kill -0 is not enough: it still finds
# a program that has ended but that the shell has not yet reaped (a
# zombie), and a shell that only naps and looks, starting nothing, may
# not reap it. Seen in the lab beside a CPU hog: test_readmes waited 30 s
# for servers that had ended. The shell reads /proc itself.
running() {
	local stat

	{ read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
	stat=${stat##*) }
	[ "${stat%% *}" != Z ]
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
# The shell reads /proc itself.
cpu_ticks() {
	local stat

	read -r stat <"/proc/$1/stat" || return 1
	stat=${stat##*) }
	read -r -a stat <<<"$stat"
	# Fields 14 and 15 of the whole line: 12 and 13 after the name.
	echo $((stat[11] + stat[12]))
}

# ends_within SECONDS PID: true when PID has ended within SECONDS
# (tenths are checked).
ends_within() {
	local tenths=$(($1 * 10))

	while [ $tenths -gt 0 ]; do
		running "$2" || return 0
		nap 0.1
		tenths=$((tenths - 1))
	done
	! running "$2"
}

# output_of SIDE NAME: sets SERVER_OUT or CLIENT_OUT, as SIDE is server
# or client: the file SIDE of run NAME writes its output to (see
# OUTPUTS_BY_NAME).
output_of() {
	local out=$WORK/$1.out

	[ -n "${OUTPUTS_BY_NAME:-}" ] && out=$WORK/$2.$1.out
	printf -v "${1^^}_OUT" '%s' "$out"
}

# program_command SIDE NAME: sets COMMAND, the command that starts SIDE
# (server or client) of run NAME (see PROGRAMS_DIR): bounded by LIMIT, on
# SIDE's CPU, under the tool OUR_UNDER_VALGRIND names.
program_command() {
	local cpu=("${ON_CLIENT_CPU[@]}") tool=()

	[ "$1" = server ] && cpu=("${ON_SERVER_CPU[@]}")
	case ${OUR_UNDER_VALGRIND:-} in
	1 | memcheck) tool=("${VALGRIND[@]}") ;;
	helgrind) tool=("${HELGRIND[@]}") ;;
	esac
	COMMAND=(timeout -k 5 "$LIMIT" "${cpu[@]}" "${tool[@]}"
		"${PROGRAMS_DIR:-$KIT/$2}/$1")
	[ "$1" = client ] || [ -z "${ON_SERVER_HOST[*]:-}" ] ||
		COMMAND=("${COMMAND[@]:0:4}" "${ON_SERVER_HOST[@]}"
			"${COMMAND[@]:4}")
}

# split_args [CLIENT_ARGS...] [-- SERVER_ARGS...]: sets CLIENT_ARGS and
# SERVER_ARGS, the arguments before `--` and those after it: the
# convention of the callers that start both sides.
split_args() {
	CLIENT_ARGS=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		CLIENT_ARGS+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	SERVER_ARGS=("$@")
}

# start_server NAME [ARGS...]: the server of run NAME in the background,
# with ARGS, on $PORT (a fresh port with FRESH_PORTS); waits until it
# listens. Sets SERVER_PID (the `timeout` that bounds it) and SERVER_OUT;
# returns 1, after server_not_listening NAME, if it never listened.
start_server() {
	local name=$1
	shift

	[ -n "${FRESH_PORTS:-}" ] && PORT=$((PORT + 1))
	output_of server "$name"
	program_command server "$name"
	# Emptied here, not only by the redirection, which the child makes
	# once it runs: a wait that follows must not read the last run's lines.
	: >"$SERVER_OUT"
	"${COMMAND[@]}" -a "$ADDR" -p "$PORT" "$@" >"$SERVER_OUT" 2>&1 &
	SERVER_PID=$!
	wait_for_line "$SERVER_OUT" "^server: listening on [^ ]*:$PORT\$" \
		"$SERVER_PID" "$LIMIT" && return 0
	server_not_listening "$name"
	return 1
}

# server_not_listening NAME: what start_server does when the server of
# run NAME never listened, before it returns 1: nothing here; a caller
# that reports it there defines its own (tests/lib.sh fails the test).
server_not_listening() {
	return 0
}

# start_client NAME [ARGS...]: the client of run NAME in the background,
# with ARGS, against the server on $PORT. Sets CLIENT_PID (the `timeout`
# that bounds it) and CLIENT_OUT.
start_client() {
	local name=$1
	shift

	output_of client "$name"
	program_command client "$name"
	: >"$CLIENT_OUT" # as the server's
	"${COMMAND[@]}" -a "$ADDR" -p "$PORT" "$@" >"$CLIENT_OUT" 2>&1 &
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
