#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The students' copy, `make handout`: the lab guide as HTML with its code
# cut in, the decks' PDFs, the exercises and the kit's sources; never
# the answer key (labs/guide/answers.md, its page) nor the exercises'
# solutions (labs/solutions/), in the folder or in the archive. It is
# built here into the test's own folder (the decks and the guide are
# built once, as make check does first). No device is needed: make
# check runs this on the host.
# tests/run: host
. "$(dirname "$0")/lib.sh"

oneTimeSetUp() {
	HANDOUT=$(mktemp -d)
	COPY=$HANDOUT/rdma-kit
	# What building the decks needs (pandoc, TeX Live...): while one is
	# missing, labs/install-deps says so and fails.
	if ! "$KIT/labs/install-deps" slides >"$HANDOUT.out" 2>&1; then
		NO_TOOLS=$(<"$HANDOUT.out")
		return 0
	fi
	(cd "$KIT" && timeout 900 make -s handout HANDOUT="$HANDOUT") \
		>"$HANDOUT.out" 2>&1
	BUILT=$?
}

oneTimeTearDown() {
	rm -rf "$HANDOUT" "$HANDOUT.out"
}

# require_handout: skip unless the handout could be built here.
require_handout() {
	if [ -n "${NO_TOOLS:-}" ]; then
		skip_test "needs the packages that build the decks: $NO_TOOLS"
		return 1
	fi
	assertEquals "make handout; $(<"$HANDOUT.out")" 0 "$BUILT" || return 1
}

test_the_handout_holds_no_answer_key_and_no_solution() {
	require_handout || return 0
	local patch found

	assertTrue "the archive" "[ -s '$COPY.tar.gz' ]"
	assertEquals "files named answers.*" "" \
		"$(cd "$COPY" && find . -name 'answers.*')"
	assertFalse "labs/solutions/ is there" "[ -e '$COPY/labs/solutions' ]"
	# Nor the solutions' text, under any name.
	for patch in "$KIT"/labs/solutions/*.patch; do
		found=$(find "$COPY" -type f -size "$(stat -c %s "$patch")c" \
			-exec cmp -s "$patch" {} \; -print)
		assertEquals "a copy of ${patch#"$KIT/"}" "" "$found"
	done
	tar -tzf "$COPY.tar.gz" >"$WORK/archive"
	assertFalse "the archive holds the answer key or a solution: $(grep -E '/answers\.|/labs/solutions' "$WORK/archive")" \
		"grep -qE '/answers\\.|/labs/solutions' '$WORK/archive'"
	# The archive is the folder.
	assertEquals "files in the archive" \
		"$(cd "$HANDOUT" && find rdma-kit -type f | sort)" \
		"$(grep -v '/$' "$WORK/archive" | sort)"
}

test_the_handouts_guide_has_its_code_cut_in() {
	require_handout || return 0
	local page html

	for page in "$KIT"/labs/guide/*.md; do
		page=${page##*/}
		html=$COPY/labs/guide/build/${page%.md}.html
		[ "$page" = answers.md ] && continue
		assertTrue "the page of $page" "[ -s '$html' ]"
	done
	assertEquals "pages with a line @excerpt left" "" \
		"$(grep -lE '@excerpt [^ <]+\.[ch]' "$COPY"/labs/guide/build/*.html)"
	# Session 1 shows ping-sr-0's client's main(), cut from the source.
	grep -q 'our_resolve_server' "$COPY/labs/guide/build/session-1.html" ||
		fail "session-1.html does not show the client's main()"
}

test_the_handout_holds_the_decks_the_exercises_and_the_sources() {
	require_handout || return 0
	local deck exercise

	for deck in "$KIT"/slides/[0-9]*.md; do
		deck=${deck##*/}
		assertTrue "the deck ${deck%.md}.pdf" \
			"[ -s '$COPY/slides/build/${deck%.md}.pdf' ]"
	done
	for exercise in "$KIT"/labs/exercises/*/check; do
		exercise=${exercise%/check}
		exercise=${exercise#"$KIT/"}
		assertTrue "$exercise's checker" "[ -x '$COPY/$exercise/check' ]"
		assertTrue "$exercise's README" "[ -s '$COPY/$exercise/README.md' ]"
	done
	assertTrue "the kit's sources" \
		"[ -s '$COPY/common/connection.c' ] && [ -s '$COPY/ping-sr-0/client.c' ] && [ -s '$COPY/Makefile' ]"
	assertTrue "the lab" "[ -x '$COPY/labs/lab' ]"
}

. shunit2
