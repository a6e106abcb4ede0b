#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The exercises' checkers, each proved twice: on the starter, as a student
# gets it, the checker fails and names the symptom the student is meant
# to see; with the solution applied (labs/solutions/NAME.patch), every
# check passes. Nothing is compiled here: `labs/exercises/prove prepare`
# builds both copies on the host beforehand (make check runs it), into
# .cache/exercises/starter and .cache/exercises/solution. The two
# checkers of an exercise run side by side.
. "$(dirname "$0")/lib.sh"

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
# its solution, side by side.
prove() {
	require_rdma || return 0
	NAME=$1 SYMPTOM=$2
	if [ ! -x "$COPIES/starter/labs/exercises/$NAME/client" ] ||
		[ ! -x "$COPIES/solution/labs/exercises/$NAME/client" ]; then
		fail "no built copies of $NAME in ${COPIES#"$KIT/"}: run labs/exercises/prove prepare on the host first (make check does)"
		return
	fi
	at_once checker_run checker_result starter solution
}

test_ping_sr_2e_checker() {
	prove ping-sr-2e "^    seen: (client|server): our_create_id: TODO 1 is not done yet\$"
}

test_bug_recv_access_checker() {
	prove bug-recv-access "^    seen: server: .*receive failed"
}

test_bug_lost_wakeup_checker() {
	prove bug-lost-wakeup "^    seen: checker: the (client|server) was still running after [0-9]+ s: it hung"
}

test_bug_unacked_events_checker() {
	prove bug-unacked-events "^    seen: checker: the (client|server) printed its report, and [0-9]+ s later had not exited; .* last trace line: (client|server): rdma_destroy_qp\$"
}

test_bug_rdma_address_checker() {
	prove bug-rdma-address "^    seen: client: [0-9.:]+ refused our RDMA write: "
}

test_rnr_retry_checker() {
	prove rnr-retry "^    seen: client: send failed: RNR retry counter exceeded "
}

test_blast_sr_2e_checker() {
	prove blast-sr-2e "^    seen: the agent used [0-9]+ of [0-9]+ CPU ticks"
}

. shunit2
