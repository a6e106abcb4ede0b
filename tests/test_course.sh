#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The two-day plan of the course (labs/guide/days.md) adds up and agrees
# with what exists: every session of the guide with its time, every deck,
# every exercise, what instructor.md hands out and what the README says
# (tests/course-plan). These read files; no device is needed.
# tests/run: host
. "$(dirname "$0")/lib.sh"

# plan_copy: a copy in $WORK/kit of what course-plan reads, to spoil.
plan_copy() {
	local check

	mkdir -p "$WORK/kit/labs/guide" "$WORK/kit/slides" "$WORK/kit/tests"
	cp "$KIT"/labs/guide/*.md "$WORK/kit/labs/guide/"
	cp "$KIT/slides/Makefile" "$WORK/kit/slides/"
	cp "$KIT/README.md" "$WORK/kit/"
	cp "$KIT/slides/09-exercises.md" "$WORK/kit/slides/"
	mkdir -p "$WORK/kit/labs/exercises"
	cp "$KIT/labs/exercises/README.md" "$WORK/kit/labs/exercises/"
	for check in "$KIT"/labs/exercises/*/check; do
		check=${check#"$KIT/"}
		mkdir -p "$WORK/kit/${check%/check}"
		cp -p "$KIT/$check" "$WORK/kit/$check"
	done
}

# plan_faults: course-plan's faults in the copy, into $WORK/faults.
plan_faults() {
	"$KIT/tests/course-plan" "$WORK/kit" >"$WORK/faults" 2>&1
}

test_the_two_days_add_up_and_name_what_exists() {
	local status

	"$KIT/tests/course-plan" >"$WORK/faults" 2>&1
	status=$?
	assertEquals "course-plan's faults: $(<"$WORK/faults")" 0 "$status"
}

test_a_slot_whose_minutes_do_not_add_up_is_found() {
	plan_copy
	sed -i 's/| 10 + 35 + 0 = 45 |/| 10 + 35 + 0 = 50 |/' \
		"$WORK/kit/labs/guide/days.md"
	plan_faults
	assertFalse "a wrong sum passed" $?
	assert_output "$WORK/faults" "^course-plan: day one, 10:40: 10 \+ 35 \+ 0 = 50 does not add up\$"
	assert_output "$WORK/faults" "^course-plan: day one: the slot at 11:25 follows one that ends at 11:30\$"
}

test_a_deck_or_an_exercise_left_out_is_found() {
	plan_copy
	sed -i 's/^| 10:00 | \[7\](session-7.md) | 13 |/| 10:00 | [7](session-7.md) | — |/; s/| bug-lost-wakeup, bug-unacked-events |/| — |/; s/| cm-thread |/| — |/' \
		"$WORK/kit/labs/guide/days.md"
	plan_faults
	assertFalse "a plan without deck 13, cm-thread and the afternoon's bug hunts passed" $?
	assert_output "$WORK/faults" "^course-plan: deck 13-blast-rdma-1 is shown 0 times\$"
	assert_output "$WORK/faults" "^course-plan: exercise cm-thread is in the plan 0 times\$"
	assert_output "$WORK/faults" "^course-plan: exercise bug-lost-wakeup is in the plan 0 times\$"
	assert_output "$WORK/faults" "^course-plan: day one, 15:05: minutes for an exercise, and none named\$"
}

test_a_session_given_another_time_than_its_page_is_found() {
	plan_copy
	sed -i 's/| 0 + 40 + 0 = 40 |/| 0 + 30 + 10 = 40 |/' \
		"$WORK/kit/labs/guide/days.md"
	plan_faults
	assertFalse "session 11 in 30 minutes passed" $?
	assert_output "$WORK/faults" "^course-plan: session 11 takes 40 min in index.md; the plan gives it '30'\$"
}

test_instructor_page_and_readme_that_disagree_are_found() {
	plan_copy
	sed -i 's/| rnr-retry |$/| none |/; s/^\(| \[7\](session-7.md): .*\) 40 min |/\1 45 min |/' \
		"$WORK/kit/labs/guide/instructor.md"
	sed -i 's/two days/a day/g; s/pubsub-board//g' "$WORK/kit/README.md"
	plan_faults
	assertFalse "disagreeing pages passed" $?
	assert_output "$WORK/faults" "^course-plan: session 11: instructor.md hands out '', the plan 'rnr-retry'\$"
	assert_output "$WORK/faults" "^course-plan: session 7 takes 40 min in index.md, 45 min in instructor.md\$"
	assert_output "$WORK/faults" "^course-plan: README.md does not say the course takes two days\$"
	assert_output "$WORK/faults" "^course-plan: README.md does not name exercise pubsub-board\$"
}

test_a_day_far_from_six_hours_is_found() {
	plan_copy
	sed -i 's/^| 16:00 | \[12\](session-12.md) | 17 | wire-reading | 10 + 50 + 0 = 60 |/| 16:00 | [12](session-12.md) | 17 | wire-reading | 100 + 50 + 0 = 150 |/; s/^| 17:00 | end/| 18:30 | end/' \
		"$WORK/kit/labs/guide/days.md"
	plan_faults
	assertFalse "a day of 8 h 0 min passed" $?
	assert_output "$WORK/faults" "^course-plan: day two: 8 h 0 min of teaching, not about six hours"
}

test_deck_9_and_the_exercises_readme_count_what_exists() {
	plan_copy
	sed -i 's/^## Bug hunt: bug-recv-access$/## Bug hunt: one more/; s/ are \*bug hunts\*/ are *bug hunts* and more/' \
		"$WORK/kit/slides/09-exercises.md"
	mkdir -p "$WORK/kit/labs/exercises/bug-extra"
	cp "$KIT/labs/exercises/bug-recv-access/check" "$WORK/kit/labs/exercises/bug-extra/"
	plan_faults
	assertFalse "a deck 9 without a frame for each exercise passed" $?
	assert_output "$WORK/faults" "^course-plan: deck 9 has no frame for exercise bug-recv-access\$"
	assert_output "$WORK/faults" "^course-plan: deck 9 says '.*'; there are [0-9]+ write-the-piece exercises and 5 bug hunts\$"
	assert_output "$WORK/faults" "^course-plan: labs/exercises/README.md says '.*'; there are [0-9]+ write-the-piece exercises and 5 bug hunts\$"
}

. shunit2
