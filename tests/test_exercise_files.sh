#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The exercises as files: each has what a student needs and a solution
# that applies; each way around a lesson kept beside the solutions
# (labs/solutions/NAME.gaming/ATTEMPT.patch) belongs to an exercise,
# applies, and says what its checker must answer; and a bug hunt does not
# name the kit's file it was made from, or diff would give the answer;
# and a checker that hangs leaves what the lab was doing. These need no
# device, so make check runs them on the host. The checkers themselves
# are proved in the lab: test_exercises.sh. And the waits the checkers
# share take a program that has ended as ended.
# tests/run: host
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/exercises.sh"

EXERCISES=$KIT/labs/exercises
SOLUTIONS=$KIT/labs/solutions

# exercise_names: every exercise, a folder of labs/exercises with a
# checker or a README.
exercise_names() {
	local dir

	for dir in "$EXERCISES"/*/; do
		dir=${dir%/}
		[ -e "$dir/check" ] || [ -e "$dir/README.md" ] || continue
		echo "${dir##*/}"
	done
}

# applies PATCH: PATCH applies to the kit as it is (a dry run).
applies() {
	patch --dry-run -s -f -p1 -d "$KIT" <"$1" >"$WORK/patch.out" 2>&1
}

test_each_exercise_has_its_files_and_a_solution_that_applies() {
	local name

	for name in $(exercise_names); do
		assertTrue "$name has a README.md" "[ -f '$EXERCISES/$name/README.md' ]"
		assertTrue "$name has a Makefile" "[ -f '$EXERCISES/$name/Makefile' ]"
		assertTrue "$name has an executable check" "[ -x '$EXERCISES/$name/check' ]"
		if [ ! -f "$SOLUTIONS/$name.patch" ]; then
			fail "$name has no solution: labs/solutions/$name.patch"
		elif ! applies "$SOLUTIONS/$name.patch"; then
			fail "labs/solutions/$name.patch does not apply: $(<"$WORK/patch.out")"
		fi
	done
}

test_each_gaming_attempt_belongs_to_an_exercise_and_says_what_fails() {
	local dir name patch expects

	for dir in "$SOLUTIONS"/*.gaming; do
		[ -d "$dir" ] || continue
		name=${dir##*/}
		name=${name%.gaming}
		assertTrue "labs/solutions/$name.gaming: no exercise $name" \
			"[ -x '$EXERCISES/$name/check' ]"
		for patch in "$dir"/*; do
			case $patch in
			*.patch) ;;
			*) fail "labs/solutions/$name.gaming/${patch##*/}: not an ATTEMPT.patch"
				continue ;;
			esac
			# The lines before the diff: expect lines, nothing else.
			expects=$(sed -n -e '/^\(--- \|diff \)/q' -e p "$patch")
			if ! grep -q '^expect: .' <<<"$expects"; then
				fail "labs/solutions/$name.gaming/${patch##*/}: no expect line"
			fi
			if grep -v '^expect: .' <<<"$expects" | grep -q .; then
				fail "labs/solutions/$name.gaming/${patch##*/}: before the diff, a line that is not 'expect: REGEX'"
			fi
			if ! applies "$patch"; then
				fail "labs/solutions/$name.gaming/${patch##*/} does not apply to the starter: $(<"$WORK/patch.out")"
			fi
		done
	done
}

# The beginning of an attempt that labs/solutions/README.md shows is the
# attempt's own.
test_the_attempt_shown_is_as_kept() {
	local shown patch=$SOLUTIONS/ping-sr-2e.gaming/fake-trace.patch

	shown=$(awk '/^```text$/ { inside = 1; next } /^```$/ { inside = 0 }
		inside && /^expect: / { block = 1 } block && inside' \
		"$SOLUTIONS/README.md")
	assertEquals "the attempt shown in labs/solutions/README.md" \
		"$(head -n "$(wc -l <<<"$shown")" "$patch")" "$shown"
}

# originals FILE: the kit's files a bug hunt's FILE may have been made
# from: a file of the same name in common/ or in a stage's folder.
originals() {
	local file

	for file in "$KIT"/*/"$1"; do
		[ -f "$file" ] || continue
		file=${file#"$KIT/"}
		case $file in
		labs/* | tests/* | slides/*) ;;
		*) echo "$file" ;;
		esac
	done
}

# joined FILE: FILE's words on one line, without a comment's leaders, so
# that a name split at the end of a line is found.
joined() {
	sed -E 's/^[[:space:]]*(#|\*|\/\*|\/\/)?[[:space:]]*//' "$1" | tr '\n' ' '
}

# names FILE REGEX: FILE's joined words ($WORK/joined) do not match the
# extended REGEX; a failure quotes what does.
names() {
	local found

	found=$(grep -Eo ".{0,30}($2).{0,20}" "$WORK/joined" | head -n 1)
	[ -z "$found" ] ||
		fail "${1#"$KIT/"} names the file it was made from: ...$found..."
	return 0
}

test_no_bug_hunt_names_its_original() {
	local dir name file original stem folder text hunts=0

	for dir in "$EXERCISES"/bug-*/; do
		dir=${dir%/}
		name=${dir##*/}
		hunts=$((hunts + 1))
		for text in "$dir"/*; do
			[ -f "$text" ] || continue
			joined "$text" >"$WORK/joined"
			for file in "$dir"/*.c; do
				[ -f "$file" ] || continue
				for original in $(originals "${file##*/}"); do
					stem=${original%.c}
					folder=${original%%/*}
					# ping-sr-3/cq_events.c, ping-sr-3/cq_events
					# (a Makefile's piece), ping-sr-3's cq_events.c.
					names "$text" \
						"$stem(\.c)?\b|$folder's ${stem##*/}(\.c)?\b"
				done
			done
			names "$text" "\b(a|this|the) copy of\b"
		done
	done
	assertTrue "the bug hunts looked at" "[ $hunts -gt 0 ]"
}

# A bug hunt's file, once its solution is in, is the kit's file but for
# the lines that name the hunt and the kit's excerpt markers: a student
# who fixes the bug has the kit's code, and a diff between the two shows
# no second change to puzzle over.
test_each_bug_hunt_is_the_kit_but_for_its_bug() {
	local dir name file original extra hunts=0

	for dir in "$EXERCISES"/bug-*/; do
		dir=${dir%/}
		name=${dir##*/}
		for file in "$dir"/*.c; do
			original=$(originals "${file##*/}")
			assertEquals "$name: one original of ${file##*/}" 1 \
				"$(echo "$original" | wc -w)"
			patch -s -f -o "$WORK/fixed.c" "$file" \
				<"$SOLUTIONS/$name.patch" >/dev/null 2>&1 ||
				fail "$name: its solution does not apply"
			sed '/^\s*\/\* \(end \)\?excerpt/d' "$KIT/$original" \
				>"$WORK/original.c"
			sed -i '/^\s*\/\* \(end \)\?excerpt/d' "$WORK/fixed.c"
			# What is left once the hunt's lines in the header go.
			extra=$(diff "$WORK/original.c" "$WORK/fixed.c" |
				grep '^[<>]' |
				grep -Ev '^>  \*( .*(bug hunt|mistake|README\.md).*)?$')
			assertEquals "$name: the kit's $original, once fixed, but for" \
				"" "$extra"
			hunts=$((hunts + 1))
		done
	done
	assertTrue "the bug hunts looked at" "[ $hunts -gt 0 ]"
}

# Each checker takes its ports from CHECK_PORT up, 50 for its runs and 50
# more 500 above for the runs beside them (checker.sh): no two exercises'
# ranges meet, so that a student may check two at once.
test_each_checker_has_ports_of_its_own() {
	local check ports status

	ports=$(for check in "$KIT"/labs/exercises/*/check; do
		sed -nE 's/^CHECK_PORT=([0-9]+)$/\1/p' "$check"
	done | sort -n)
	assertEquals "a CHECK_PORT in every checker" \
		"$(ls "$KIT"/labs/exercises/*/check | wc -l)" "$(echo "$ports" | wc -l)"
	echo "$ports" | awk 'NR > 1 && $1 - last < 50 { print "CHECK_PORT " last " and " $1 " are closer than 50"; bad = 1 }
		{ last = $1 } END { exit bad }' >"$WORK/ports"
	status=$?
	assertEquals "$(<"$WORK/ports")" 0 "$status"
}

# A checker that hangs is stopped at its limit, and leaves what the lab
# was doing just before: here a checker that waits on a program of its
# own, stopped after 4 s, shows that program's line and where it sleeps.
# One that ends at once leaves its status alone; either way run_checker
# returns 0, for the callers that go on with &&.
test_a_checker_that_hangs_leaves_the_state_of_the_lab() {
	local status

	printf '#!/bin/sh\nsleep 1234\n' >"$WORK/check"
	chmod +x "$WORK/check"
	CHECKER_LIMIT=4 run_checker "$WORK/check" ||
		fail "run_checker returned non-zero: callers go on with &&"
	status=$(cat "$WORK/check.status")
	assertEquals "the checker's status at its limit" 124 "$status"
	assert_output "$WORK/check.hang" "^--- the lab at .*, the checker near its limit:\$"
	assert_output "$WORK/check.hang" "^ *[0-9]+ +[0-9]+ +S.* sleep 1234\$"
	assert_output "$WORK/check.hang" "^--- the kernel's last lines:\$"
	checker_said >"$WORK/said"
	assert_output "$WORK/said" "sleep 1234\$"
	# A checker that fails at once leaves its status, and no state.
	printf '#!/bin/sh\nexit 1\n' >"$WORK/check"
	CHECKER_LIMIT=4 run_checker "$WORK/check" ||
		fail "run_checker returned non-zero after a quick checker"
	assertEquals "the quick checker's status" 1 "$(cat "$WORK/check.status")"
	assertFalse "no state kept for a quick checker" "[ -e '$WORK/check.hang' ]"
}

# The waits that checkers and tests share (tests/programs.sh) take a
# program that has ended as ended, though its parent has not reaped it:
# kill -0 finds such a zombie for as long as its parent leaves it.
test_a_program_that_ended_is_not_running_before_it_is_reaped() {
	local parent zombie='' state='' deadline=$((SECONDS + 10))

	# perl starts a child that ends at once, and never waits for it. (A
	# shell might reap it before it execs a sleep.)
	perl -e 'my $pid = fork // die "fork: $!"; exit 0 unless $pid;
		open my $f, ">", $ARGV[0] or die; print $f "$pid\n"; close $f;
		sleep 30' "$WORK/child" &
	parent=$!
	while [ "$state" != Z ] && [ $SECONDS -lt $deadline ]; do
		nap 0.05
		[ -s "$WORK/child" ] && read -r zombie <"$WORK/child"
		[ -n "$zombie" ] && state=$(awk '{ print $3 }' "/proc/$zombie/stat")
	done
	assertEquals "the child should be a zombie" Z "$state"
	assertTrue "kill -0 still finds it" "kill -0 $zombie"
	assertFalse "running should take it as ended" "running $zombie"
	assertTrue "and its parent as running" "running $parent"
	kill "$parent"
	wait "$parent" 2>/dev/null || :
}

. shunit2
