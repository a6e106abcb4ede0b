# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# exercises.sh - how an exercise's checker is proved, sourced after
# lib.sh by test_exercises.sh and test_rnr_retry.sh: on its starter, as a
# student gets it, the checker fails and names the symptom the student is
# meant to see; with the solution applied (labs/solutions/NAME.patch),
# every check passes. Nothing is compiled here: `labs/exercises/prove
# prepare` builds both copies on the host beforehand (make check runs
# it), into .cache/exercises/starter and .cache/exercises/solution.

COPIES=${OUR_EXERCISE_COPIES:-$KIT/.cache/exercises}

# checker_run KIND: NAME's checker in the KIND copy, on ports of its own;
# its output in $WORK/check.out, its exit status in $WORK/check.status.
checker_run() {
	OUR_CHECK_PORT=$PORT timeout -k 5 300 \
		"$COPIES/$1/labs/exercises/$NAME/check" >"$WORK/check.out" 2>&1
	echo $? >"$WORK/check.status"
}

# checker_result KIND: what checker_run KIND left, checked: the starter's
# checker fails, with a FAIL line for each check that fails and the
# symptom SYMPTOM among what it saw; the solution's passes every check.
checker_result() {
	local status

	status=$(cat "$WORK/check.status" 2>/dev/null)
	echo "  $NAME, $1: $(tail -n 1 "$WORK/check.out")"
	if [ "$1" = starter ]; then
		assertEquals "the checker on the starter of $NAME; $(<"$WORK/check.out")" \
			1 "$status"
		assert_output "$WORK/check.out" "^FAIL: .* \(hint: .*\)\$"
		assert_output "$WORK/check.out" "$SYMPTOM"
		assert_output "$WORK/check.out" "^$NAME: [0-9]+ passed, [1-9][0-9]* failed\$"
	else
		assertEquals "the checker with the solution of $NAME; $(<"$WORK/check.out")" \
			0 "$status"
		assert_no_output "$WORK/check.out" "^FAIL: "
		assert_output "$WORK/check.out" "^$NAME: [1-9][0-9]* passed, 0 failed\$"
	fi
}

# prove NAME SYMPTOM: the checker of exercise NAME on its starter and on
# its solution, side by side; with PROVE_APART set, one after the other.
prove() {
	require_rdma || return 0
	NAME=$1 SYMPTOM=$2
	if [ ! -x "$COPIES/starter/labs/exercises/$NAME/client" ] ||
		[ ! -x "$COPIES/solution/labs/exercises/$NAME/client" ]; then
		fail "no built copies of $NAME in ${COPIES#"$KIT/"}: run labs/exercises/prove prepare on the host first (make check does)"
		return
	fi
	if [ -n "${PROVE_APART:-}" ]; then
		checker_run starter && checker_result starter
		checker_run solution && checker_result solution
	else
		at_once checker_run checker_result starter solution
	fi
}
