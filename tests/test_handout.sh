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

# A fake kit in git: one source, one solution patch for it, one page of
# the guide and one deck, built.
make_fake_kit() {
	local fake=$1

	mkdir -p "$fake/labs/solutions" "$fake/labs/guide/build" \
		"$fake/slides/build" "$fake/labs/exercises/one"
	cp "$KIT/labs/handout" "$fake/labs/"
	printf 'starter\n' >"$fake/labs/exercises/one/one.c"
	printf '# guide\n' >"$fake/labs/guide/index.md"
	printf '<p>guide</p>\n' >"$fake/labs/guide/build/index.html"
	printf '# deck\n' >"$fake/slides/01-one.md"
	printf 'pdf\n' >"$fake/slides/build/01-one.pdf"
	cat >"$fake/labs/solutions/one.patch" <<-'PATCH'
	--- a/labs/exercises/one/one.c
	+++ b/labs/exercises/one/one.c
	@@ -1 +1 @@
	-starter
	+solution
	PATCH
	(cd "$fake" && git init -q && git add . &&
		git -c user.name=kit -c user.email=kit@example.org \
			commit -qm fake)
}

test_the_handout_is_refused_while_a_solution_is_applied() {
	local fake=$WORK/fake out

	make_fake_kit "$fake"
	(cd "$fake" && patch -s -p1 <labs/solutions/one.patch)
	out=$("$fake/labs/handout" "$WORK/out" 2>&1)
	assertEquals "handout with a solution applied: $out" 1 $?
	assertContains "$out" \
		"labs/solutions/one.patch is applied in this clone"
	assertFalse "a copy was made" "[ -e '$WORK/out/rdma-kit' ]"
	# Taken back out, the same clone hands out the starter.
	(cd "$fake" && patch -s -R -p1 <labs/solutions/one.patch)
	out=$("$fake/labs/handout" "$WORK/out" 2>&1)
	assertEquals "handout with the starter: $out" 0 $?
	assertEquals "the exercise handed out" "starter" \
		"$(cat "$WORK/out/rdma-kit/labs/exercises/one/one.c")"
}

. shunit2
