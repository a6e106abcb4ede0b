#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The checker of exercise wire-reading, proved (see exercises.sh): it
# fails on the starter, naming the TODOs left; on each way around the
# lesson kept beside the solution, as the attempt's expect lines say;
# and it passes with the solution. Its checker captures a run between
# the two hosts on host a, and a capture must hold one run's packets
# alone: so it is proved on host a of the pair, where suites run one at
# a time, each checker after the other. make check runs it there:
# labs/lab pair run -- tests/run tests/test_wire_reading.sh. Elsewhere
# it is skipped, and counted.
# tests/run: pair
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/exercises.sh"

test_wire_reading_checker() {
	require_pair || return 0
	PROVE_APART=yes prove wire-reading \
		"^    seen: no line '[0-9.]+ messages: \.\.\.' printed\$" \
		"^    seen: read_wire.sh: TODO 1 is not done yet\$"
}

test_wire_reading_refuses_the_ways_around_it() {
	require_pair || return 0
	prove_attempts_apart wire-reading
}

. shunit2
