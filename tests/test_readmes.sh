#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The READMEs tell the truth: every command they show is cut out of them
# and run as written, in the lab. (Every make diff, test, file and sample
# they name is checked against the kit by test_docs.sh.)
#
# The convention the READMEs follow, and this suite holds them to:
#
# - Every fenced block (```) has an info string: `sh` or `text`.
# - A `sh` block holds commands a student types in the lab's shell
#   (`make lab`), one a line. The suite runs each block, one test per
#   block, line by line, each line in a shell of its own from the kit's
#   top folder (a `cd` does not carry over):
#   - a comment is what follows the first " #" of a line; a line that is
#     only a comment, or blank, is skipped;
#   - lines that are only the lab's own wrapper (`make lab`,
#     `labs/lab shell`, `exit`) are skipped, and the log says so;
#   - a command ending in `&` starts in the background; when it runs a
#     program named `server`, the next line waits until it listens (on
#     its -p port, 12321 by default), as a student would before typing
#     the client; `%N` in a later line is the N-th command started with
#     `&` (a background command is one simple command);
#   - every other command runs bounded in time (OUR_README_LIMIT seconds)
#     and must exit 0, or N when its comment begins "exits N" (as in
#     `./ping-sr-2/server -a 192.0.2.1 &   # exits 1 once its client dies`),
#     or N or M when it begins "exits N or M" (a race the text explains);
#   - at the end of the block every background command must have ended
#     by itself (a server serves its client, then exits) within
#     OUR_README_END_WAIT seconds, with status 0 or one its comment
#     states; one left running is a failure, and is killed;
#   - a block that fails shows the block, each command and its output;
#   - `make check`, `make demo`, `make deps` and `make install` run on the
#     host, not in the lab: in a `sh` block they are a failure.
#   - a block with the same commands as a block before it is run once,
#     there (a guide page that repeats what a stage's README shows);
# - A `text` block is not run: sample output, usage, commands for the
#   host outside the lab (`make demo`, `sudo ...`) or for other machines.
#   Except one kind: a block of commands at `hostA$` and `hostB$` prompts
#   (two hosts with RDMA hardware) is run across the two hosts of the
#   two-host lab (`labs/lab pair run -- tests/run tests/test_readmes.sh`,
#   which runs only these blocks), host A's lines on host a, in the
#   background (host A serves), host B's on host b, through `labs/lab on
#   b`, in the foreground, under the rules above, every IPv4 address
#   replaced by host a's. The one-guest lab leaves these blocks to the
#   pair, and the `sh` blocks that run `labs/lab pair run`, `labs/link`
#   or `labs/wire` (which there run their command directly); on a
#   machine with its own RDMA device both hosts are that machine. A
#   stage README's `labs/wire` block is run by test_wire.sh, in the
#   pair, which checks what it prints.
# And test_docs.sh holds them to the rest of it:
# - Every `make diff FROM=X TO=Y` a README mentions runs and prints a diff
#   (each pair once).
# - Every suite (`tests/test_*.sh`) a README cites exists, and every test
#   function (`test_*`) it cites is defined in a suite cited in the same
#   paragraph.
# - Every file of the kit a README names in backquotes, and every link,
#   exists (a build output, which git ignores, may be named before it is
#   built).
# - Every counters line a README shows (-x) is one the code can print.
# - Every stage's README has a "Read in this order" list, and every
#   function it names comes with the file that holds it, in the form
#   "`our_await_transfers` (common/posting.c)", or several of one file,
#   "`our_sge` and `our_qp_attr` (common/posting.c)": a file the stage
#   compiles, which defines the function.
#
# The READMEs use the lab's address, 192.0.2.1; on a host with its own
# RDMA device the suite puts that host's address in its place.
. "$(dirname "$0")/lib.sh"

# The address the READMEs' commands use: the lab's.
README_ADDR=192.0.2.1
# How long any one command of a README may take: the lab is slow, and
# slower still when other guests load the host.
README_LIMIT=${OUR_README_LIMIT:-300}
# How long a background command may go on after the block's last line.
README_END_WAIT=${OUR_README_END_WAIT:-30}
# Where a server listens unless given -p.
DEFAULT_PORT=12321

. "$(dirname "$0")/readmes.sh"

# ------------------------------------------------------------ the blocks

# Every fenced block of every README, cut out into $BLOCKS: NNN.where
# says where it is and what it is (README, line, info string, number in
# its README, "hosts" for a block of hostA$ and hostB$ commands, "pair"
# for one that runs `labs/lab pair run`, `labs/link` or `labs/wire`,
# except a stage README's `labs/wire` block, "wire" (test_wire.sh runs
# those, and checks what they print), "-" otherwise) and NNN.text holds its lines, the fence's indentation gone.
BLOCKS=$(mktemp -d)
(cd "$KIT" && awk -v out="$BLOCKS" '
	FNR == 1 { count = 0 }
	/^[ \t]*```/ {
		if (inside) {
			inside = 0
			close(text)
			kind = prompts > 0 && prompts == lines ? "hosts" : \
				wire ? "wire" : pair ? "pair" : "-"
			print FILENAME, start, info, count, kind >(base ".where")
			close(base ".where")
			next
		}
		inside = 1
		start = FNR
		fence = $0
		sub(/```.*/, "", fence)
		indent = length(fence)
		info = $0
		sub(/^[ \t]*```[ \t]*/, "", info)
		sub(/[ \t].*/, "", info)
		if (info == "")
			info = "-"
		count++
		base = sprintf("%s/%03d", out, ++blocks)
		text = base ".text"
		printf "" >text
		lines = prompts = pair = wire = 0
		next
	}
	inside {
		line = substr($0, indent + 1)
		print line >text
		if (line ~ /[^ \t]/) {
			lines++
			if (line ~ /^host[AB]\$ /)
				prompts++
			if (line ~ /^labs\/(lab pair run|link) /)
				pair = 1
			# The capture of a stage README: test_wire.sh runs it. Any
			# other runs here, in the pair.
			if (line ~ /^labs\/wire / && FILENAME ~ /^[^\/]+\/README\.md$/ &&
			    FILENAME !~ /^labs\//)
				wire = 1
			else if (line ~ /^labs\/wire /)
				pair = 1
		}
	}
' "${READMES[@]}")

# What the block being run has started in the background, and its log:
# the block, each command and what it printed.
LOG=
BLOCK_FAILED=
BG_PIDS=()
BG_COMMANDS=()
BG_EXPECTED=()

log_line() {
	printf '%s\n' "$*" >>"$LOG"
}

# block_fail MESSAGE: the block fails; its log is shown at its end.
block_fail() {
	fail "$1"
	log_line "!!! $1"
	BLOCK_FAILED=1
}

# listening N PORT: background command N, a server, says that it listens
# on PORT.
listening() {
	has_line "$WORK/background-$1.log" "^server: listening on [^ ]*:$2\$"
}

# start_background COMMAND EXPECTED: start COMMAND as %N, N counted from
# 1 in the block; when it runs a server, wait until it listens.
start_background() {
	local command=$1 n=$((${#BG_PIDS[@]} + 1)) pid port deadline

	log_line "\$ $command &    [%$n]"
	(cd "$KIT" && exec bash -c "exec $command") \
		>"$WORK/background-$n.log" 2>&1 </dev/null &
	pid=$!
	BG_PIDS+=("$pid")
	BG_COMMANDS+=("$command")
	BG_EXPECTED+=("$2")
	[[ " $command " =~ [\ /]server\  ]] || return 0
	port=$DEFAULT_PORT
	[[ $command =~ (-p\ *|--port[=\ ])([0-9]+) ]] &&
		port=${BASH_REMATCH[2]}
	deadline=$((SECONDS + README_LIMIT))
	until listening "$n" "$port"; do
		if ! running "$pid"; then
			block_fail "'$command' ended before it listened on port $port"
			return 1
		fi
		if [ $SECONDS -ge $deadline ]; then
			block_fail "'$command' did not listen on port $port within $README_LIMIT s"
			return 1
		fi
		nap 0.05
	done
}

# expects STATUS EXPECTED: STATUS is one of EXPECTED, the statuses a
# line's comment allows ("1", or "137 1" for "exits 137 or 1").
expects() {
	[[ " $2 " == *" $1 "* ]]
}

# run_foreground COMMAND EXPECTED: run COMMAND bounded in time; it must
# exit with a status of EXPECTED.
run_foreground() {
	local command=$1 expected=$2 status

	log_line "\$ $command"
	(cd "$KIT" && timeout -k 5 "$README_LIMIT" bash -c "$command") \
		>>"$LOG" 2>&1 </dev/null
	status=$?
	if [ "$status" -eq 124 ] && ! expects 124 "$expected"; then
		block_fail "'$command' did not end within $README_LIMIT s"
	elif ! expects "$status" "$expected"; then
		block_fail "'$command' exited with status $status, not ${expected/ / or }"
	fi
}

# where_stuck PID: where a program that should have ended waits: each of
# its threads' state, what the kernel waits on and, where this may read
# it, the kernel's stack; and the CM's ids at that moment. For the log of
# a failure, so that a wait that runs too long says where it waits.
where_stuck() {
	local task

	echo "--- where pid $1 waits:"
	for task in /proc/"$1"/task/*; do
		[ -d "$task" ] || continue
		echo "  thread ${task##*/}: state $(awk '{ print $3 }' "$task/stat" 2>/dev/null)," \
			"waits on $(cat "$task/wchan" 2>/dev/null)"
		sed 's/^/    /' "$task/stack" 2>/dev/null
	done
	rdma res show cm_id 2>&1 | sed 's/^/  /'
	# Whether this shell could hear its children end.
	grep -E '^Sig(Blk|Pnd):' /proc/$$/status | sed 's/^/  shell /'
}

# finish_background: every background command must have ended by
# itself, with the status expected of it; one still running is killed.
# Their output goes into the log.
finish_background() {
	local n pid command status

	for n in "${!BG_PIDS[@]}"; do
		pid=${BG_PIDS[$n]}
		command=${BG_COMMANDS[$n]}
		if ! ends_within "$README_END_WAIT" "$pid"; then
			where_stuck "$pid" >>"$LOG"
			kill -9 "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			block_fail "'$command' (%$((n + 1))) was still running $README_END_WAIT s after the block's last line, where it should have ended by itself; killed"
		else
			wait "$pid"
			status=$?
			expects "$status" "${BG_EXPECTED[$n]}" ||
				block_fail "'$command' (%$((n + 1))) exited with status $status, not ${BG_EXPECTED[$n]/ / or }"
		fi
		log_line "--- output of %$((n + 1)): $command"
		cat "$WORK/background-$((n + 1)).log" >>"$LOG"
	done
	BG_PIDS=()
	BG_COMMANDS=()
	BG_EXPECTED=()
}

# run_line LINE: one line of a block, by the rules at the top.
run_line() {
	local line=$1 command=$1 comment='' expected=0 n

	if [[ $line == *" #"* ]]; then
		command=${line%%" #"*}
		comment=${line#*" #"}
	fi
	[[ $comment =~ ^\ *exits\ ([0-9]+)(\ or\ ([0-9]+))? ]] &&
		expected="${BASH_REMATCH[1]}${BASH_REMATCH[3]:+ ${BASH_REMATCH[3]}}"
	[[ $command =~ ^[[:space:]]*(.*[^[:space:]])[[:space:]]*$ ]] ||
		return 0
	command=${BASH_REMATCH[1]}
	[ "${command:0:1}" != "#" ] || return 0
	case $command in
	"make lab" | "labs/lab shell" | exit)
		log_line "(skipped: '$command' is the lab's own wrapper, and this runs in the lab already)"
		return 0
		;;
	make*\ check* | make*\ demo* | make*\ deps* | make*\ install*)
		block_fail "'$command' runs on the host, not in the lab: it belongs in a text block"
		return 0
		;;
	esac
	[ "$ADDR" = "$README_ADDR" ] ||
		command=${command//"$README_ADDR"/"$ADDR"}
	# %N: the N-th command started in the background.
	for n in "${!BG_PIDS[@]}"; do
		while [[ $command =~ ^(.*[^0-9A-Za-z_]|)%$((n + 1))([^0-9].*|)$ ]]; do
			command=${BASH_REMATCH[1]}${BG_PIDS[$n]}${BASH_REMATCH[2]}
		done
	done
	if [[ $command =~ ^(.*[^[:space:]])[[:space:]]*\&$ ]]; then
		start_background "${BASH_REMATCH[1]}" "$expected"
	else
		run_foreground "$command" "$expected"
	fi
}

# block_lines BLOCK KIND: the lines to run. A two-host block's become
# lab lines: the prompts gone, host A's in the background, host B's on
# host b when this is host a of a pair, every IPv4 address ours.
block_lines() {
	local on_b=

	[ "${LAB_HOST:-}" != a ] || on_b='labs/lab on b -- '
	if [ "$2" = hosts ]; then
		sed -E -e "s/[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+/$ADDR/g" \
			-e 's/^hostA\$ (.*)$/\1 \&/' -e "s|^hostB\\$ |$on_b|" \
			"$1.text"
	else
		cat "$1.text"
	fi
}

# run_block BLOCK: run a block cut out of a README, by the rules at the
# top; on failure show the block, each command and its output.
run_block() {
	require_rdma || return 0
	local block=$1 readme line info number kind stderr start=$SECONDS

	read -r readme line info number kind <"$block.where"
	LOG=$WORK/block.log
	BLOCK_FAILED=
	# What the shell says of the block's commands (e.g. that one was
	# killed) goes into the log too.
	exec {stderr}>&2 2>>"$LOG"
	log_line "=== $readme, block $number (line $line, \`\`\`$info):"
	sed 's/^/  | /' "$block.text" >>"$LOG"
	if [ "$kind" = hosts ] && [ "${LAB_HOST:-}" = a ]; then
		log_line "(commands for two hosts with RDMA hardware: host A's on this host a, in the background, host B's on host b, every address $ADDR)"
	elif [ "$kind" = hosts ]; then
		log_line "(commands for two hosts with RDMA hardware: run here, both hosts being this machine, every address $ADDR, host A's lines in the background)"
	fi
	[ "$ADDR" = "$README_ADDR" ] ||
		log_line "(not the lab: $README_ADDR is replaced by $ADDR)"
	while IFS= read -r line; do
		run_line "$line" || break
	done < <(block_lines "$block" "$kind")
	finish_background
	exec 2>&"$stderr" {stderr}>&-
	if [ -n "$BLOCK_FAILED" ]; then
		cat "$LOG"
	else
		echo "  $readme, block $number: $((SECONDS - start)) s"
	fi
}

# One test per block to run: test_<folder>_readme_block_<number>, the
# top README's folder being called "top" and a guide page by its path. A
# block whose commands are those of a block before it (a guide page that
# has the student run what a stage's README shows) is run once, there.
# block_commands WHERE: the commands of that block, trimmed.
block_commands() {
	sed 's/^[ \t]*//; s/[ \t]*$//; /^$/d' "${1%.where}.text"
}

BLOCK_TESTS=()
declare -A RUN_AS=()
# The stage READMEs' captures first: a guide page that shows the same
# one (the guide's pages come first) leaves it to test_wire.sh too.
for where in "$BLOCKS"/*.where; do
	read -r readme line info number kind <"$where"
	[ "$kind" = wire ] || continue
	echo "$readme, block $number: labs/wire, run by test_wire.sh"
	RUN_AS[$(block_commands "$where")]="$readme's labs/wire block, in test_wire.sh"
done
for where in "$BLOCKS"/*.where; do
	read -r readme line info number kind <"$where"
	[ "$info" = sh ] || [ "$kind" = hosts ] || continue
	[ "$kind" != wire ] || continue
	commands=$(block_commands "$where")
	# Host a of a pair runs the two-host blocks, and those that run
	# `labs/lab pair`, alone; the one-guest lab leaves them to it.
	if [ "${LAB_HOST:-}" = a ]; then
		[ "$kind" = hosts ] || [ "$kind" = pair ] || continue
	elif [ -n "${LAB_GUEST:-}" ] && [[ $kind = hosts || $kind = pair ]]; then
		continue
	fi
	name=${readme%/README.md}
	[ "$name" = README.md ] && name=top
	name=${name%.md}
	name=${name//[^A-Za-z0-9_]/_}
	name=test_${name//-/_}_readme_block_$number
	if [ -n "${RUN_AS[$commands]:-}" ]; then
		echo "$readme, block $number: the commands of ${RUN_AS[$commands]}, run there"
		continue
	fi
	RUN_AS[$commands]=$name
	eval "$name() { run_block '${where%.where}'; }"
	BLOCK_TESTS+=("$name")
done

oneTimeTearDown() {
	rm -rf "$BLOCKS"
}

# ------------------------------------------------------------ the checks

test_every_block_says_whether_it_runs() {
	cat "$BLOCKS"/*.where | awk '$3 != "sh" && $3 != "text" {
		printf "%s line %d: a fenced block with info string \"%s\":" \
			" say sh (the suite runs it in the lab) or text (it" \
			" does not)\n", $1, $2, $3
	}' >"$WORK/why"
	fail_each <"$WORK/why"
}

# The check first, then the blocks, in the order of the READMEs.
suite() {
	local name first=test_every_block_says_whether_it_runs

	[ "${LAB_HOST:-}" != a ] || first=
	for name in $first "${BLOCK_TESTS[@]}"; do
		suite_addTest "$name"
	done
}

. shunit2
