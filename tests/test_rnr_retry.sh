#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The checker of exercise rnr-retry, proved (see exercises.sh): it fails
# on the starter and on each way around the lesson kept beside the
# solution, and passes with the solution. It counts the RNR NAKs of
# the whole device, and the one-guest lab runs two suites at once, whose
# runs may meet RNR NAKs of their own: so it is proved on host a of the
# pair, where suites run one at a time, each checker after the other.
# make check runs it there: labs/lab pair run -- tests/run
# tests/test_rnr_retry.sh. Elsewhere it is skipped, and counted.
# tests/run: pair
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/exercises.sh"

test_rnr_retry_checker() {
	require_pair || return 0
	PROVE_APART=yes prove rnr-retry \
		"^    seen: client: send failed: RNR retry counter exceeded "
}

test_rnr_retry_refuses_the_ways_around_it() {
	require_pair || return 0
	prove_attempts_apart rnr-retry
}

. shunit2
