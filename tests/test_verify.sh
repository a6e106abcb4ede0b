#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unit tests of what every run relies on. -v can fail: the check behind
# it refuses data with one bit changed, or another message's data. And a
# failed verb is reported with the right reason.
. "$(dirname "$0")/lib.sh"

test_verification_refuses_corrupted_data() {
	run_program "$KIT/tests/verify-data"
	assertEquals "status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertFalse "a case went wrong: $(<"$WORK/program.out")" \
		"grep -q WRONG '$WORK/program.out'"
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

. shunit2
