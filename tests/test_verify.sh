#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unit tests of what every run relies on. -v can fail: the check behind
# it refuses data with one bit changed, or another message's data. And a
# failed verb is reported with the right reason. And a second signal
# ends the program at once, whatever a server's agents did between.
. "$(dirname "$0")/lib.sh"

# unit_run PROGRAM: a unit test's program, which prints each case, right
# or WRONG: it must exit 0, with no case WRONG.
unit_run() {
	run_program "$KIT/tests/$1"
	assertEquals "status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertFalse "a case went wrong: $(<"$WORK/program.out")" \
		"grep -q WRONG '$WORK/program.out'"
}

test_verification_refuses_corrupted_data() {
	unit_run verify-data
	# Each refusal names the byte that differs.
	assert_output "$WORK/program.out" \
		"^verify-data: message 42 is corrupt at byte 2055: 0x1c, expected 0x1d\$"
	assert_output "$WORK/program.out" \
		"^verify-data: one bit flipped in byte 4095: refused \\(right\\)\$"
}

test_a_failed_verb_is_reported_with_its_reason() {
	run_program "$KIT/tests/report-errors"
	assertEquals "status; $(<"$WORK/program.out")" 0 "$STATUS"
	# An error number, positive or negative as providers differ.
	assert_output "$WORK/program.out" \
		"^report-errors: ibv_post_send positive: Cannot allocate memory\$"
	assert_output "$WORK/program.out" \
		"^report-errors: ibv_post_send negative: Cannot allocate memory\$"
	assert_output "$WORK/program.out" \
		"^report-errors: rdma_create_id: No such device\$"
}

test_a_second_signal_ends_the_program_even_after_an_agent_started() {
	unit_run catch-signals
	assert_output "$WORK/program.out" \
		"^catch-signals: a second Ctrl-C ends the program, after an agent started: right\$"
	assert_output "$WORK/program.out" \
		"^catch-signals: a Ctrl-C after SIGTERM ends the program: right\$"
}

. shunit2
