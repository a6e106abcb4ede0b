#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The checker of exercise rnr-retry, proved (see exercises.sh): it fails
# on the starter and passes with the solution. It counts the RNR NAKs of
# the whole device, and test_blast_sr_2.sh asserts that the one-guest
# lab's device counts none: so it is proved on host a of the pair, where
# suites run one at a time, the starter's checker and then the
# solution's. make check runs it there: labs/lab pair run -- tests/run
# tests/test_rnr_retry.sh. Elsewhere it is skipped, and counted.
# tests/run: pair
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/exercises.sh"

test_rnr_retry_checker() {
	require_pair || return 0
	PROVE_APART=yes prove rnr-retry \
		"^    seen: client: send failed: RNR retry counter exceeded "
}

. shunit2
