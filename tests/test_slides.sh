#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The slides tell the truth: every deck is built from its current sources,
# with no LaTeX error, no code running off its frame and the number of
# pages slides/pages records; every excerpt on them is cut from the real
# code, and labs/excerpt stops a build whose code is gone. The decks are
# built on the host (make -C slides, which make check runs first): LaTeX
# is too slow for the lab, so this suite reads what the build left. No
# device is needed, so make check runs it on the host.
# tests/run: host
. "$(dirname "$0")/lib.sh"

SLIDES=$KIT/slides
EXCERPT=$KIT/labs/excerpt

# The decks, as slides/pages names them, in order.
decks() {
	awk '{ print $1 }' "$SLIDES/pages"
}

# built DECK: fail unless the deck's PDF and log are there.
built() {
	[ -f "$SLIDES/build/$1.pdf" ] && [ -f "$SLIDES/build/$1.log" ] && return
	fail "$1 is not built: run make -C slides on the host"
	return 1
}

test_pages_names_every_deck_and_only_decks() {
	local deck

	assertTrue "slides/pages lists no deck" "[ -s '$SLIDES/pages' ]"
	for deck in $(decks); do
		[ -f "$SLIDES/$deck.md" ] ||
			fail "slides/pages names $deck, which has no $deck.md"
	done
	for deck in "$SLIDES"/[0-9]*.md; do
		deck=$(basename "$deck" .md)
		grep -q "^$deck [0-9][0-9]*$" "$SLIDES/pages" ||
			fail "slides/pages gives no page count for $deck"
	done
}

test_each_deck_is_newer_than_its_sources() {
	local deck source

	for deck in $(decks); do
		built "$deck" || continue
		for source in "slides/$deck.md" slides/preamble.tex \
			labs/excerpt $(cd "$KIT" && "$EXCERPT" -l "slides/$deck.md"); do
			[ "$KIT/$source" -ot "$SLIDES/build/$deck.pdf" ] ||
				fail "$deck.pdf is older than $source: run make -C slides"
		done
	done
}

test_no_latex_error() {
	local deck

	for deck in $(decks); do
		built "$deck" || continue
		# -file-line-error: an error is FILE:LINE: message; else "! ".
		if grep -qE '^(! |[^ :]+\.tex:[0-9]+: )' "$SLIDES/build/$deck.log"; then
			fail "$deck: LaTeX error: $(grep -m1 -A2 -E \
				'^(! |[^ :]+\.tex:[0-9]+: )' "$SLIDES/build/$deck.log")"
		fi
	done
}

test_no_code_runs_off_its_frame() {
	local deck log

	for deck in $(decks); do
		built "$deck" || continue
		log=$SLIDES/build/$deck.log
		# Each code line is a box as wide as the frame (preamble.tex):
		# a longer one is an overfull \hbox set in the monospace font.
		grep -A1 '^Overfull \\hbox' "$log" | grep -q lmtt &&
			fail "$deck: monospace wider than its frame:" \
				"$(grep -m1 -A1 '^Overfull \\hbox' "$log")"
		# A frame whose content runs off its foot.
		grep -q '^Overfull \\vbox' "$log" &&
			fail "$deck: a frame is taller than the page"
	done
	return 0
}

test_page_counts_are_those_recorded() {
	local deck expected pages

	if ! command -v pdfinfo >/dev/null; then
		skip_test "needs pdfinfo: sudo labs/install-deps slides"
		return 0
	fi
	for deck in $(decks); do
		built "$deck" || continue
		expected=$(sed -n "s/^$deck //p" "$SLIDES/pages")
		pages=$(pdfinfo "$SLIDES/build/$deck.pdf" | sed -n 's/^Pages: *//p')
		assertEquals "$deck's pages" "$expected" "$pages"
	done
}

test_every_excerpt_of_the_decks_resolves() {
	local deck

	for deck in $(decks); do
		(cd "$KIT" && "$EXCERPT" "slides/$deck.md") >"$WORK/deck.md" \
			2>"$WORK/error.out" ||
			fail "$deck: $(<"$WORK/error.out")"
		grep -q '^@excerpt' "$WORK/deck.md" &&
			fail "$deck: an @excerpt line was left as it was"
	done
	return 0
}

# A function comes out whole, from its return type to its closing brace,
# each line as it is in the source, tabs and all, in a C code block; the
# text round it is left as it was.
test_excerpt_cuts_a_function_exactly() {
	local file=ping-sr-3/cq_events.c

	printf 'before\n@excerpt %s our_poll_or_arm\nafter\n' "$file" \
		>"$WORK/page.md"
	"$EXCERPT" "$WORK/page.md" >"$WORK/out.md" ||
		fail "labs/excerpt failed on a good page"
	{
		echo before
		echo '```c'
		sed -n '/^int our_poll_or_arm(/,/^}/p' "$KIT/$file"
		echo '```'
		echo after
	} >"$WORK/expected.md"
	assertEquals "our_poll_or_arm, cut" "$(<"$WORK/expected.md")" \
		"$(<"$WORK/out.md")"
	grep -q "$(printf '^\t')" "$WORK/out.md" ||
		fail "the tabs of the source were not kept"
}

# A function whose return type is on the line before its name.
test_excerpt_takes_the_return_type_on_the_line_before() {
	printf 'static int\nadd_one(int x)\n{\n\treturn x + 1;\n}\n' \
		>"$KIT/.cache/excerpt-test.c"
	echo '@excerpt .cache/excerpt-test.c add_one' >"$WORK/page.md"
	"$EXCERPT" "$WORK/page.md" >"$WORK/out.md"
	assertEquals "add_one, cut" \
		"$(printf '```c\nstatic int\nadd_one(int x)\n{\n\treturn x + 1;\n}\n```')" \
		"$(<"$WORK/out.md")"
	rm -f "$KIT/.cache/excerpt-test.c"
}

# A marker pair gives the lines between the markers, without them.
test_excerpt_cuts_between_markers_exactly() {
	local file=ping-sr-0/client.c

	echo "@excerpt $file #undo" >"$WORK/page.md"
	"$EXCERPT" "$WORK/page.md" >"$WORK/out.md" ||
		fail "labs/excerpt failed on a good marker"
	assertEquals "the lines of marker undo" \
		"$(echo '```c'
		   sed -n '/\/\* excerpt undo \*\//,/\/\* end excerpt undo \*\//p' \
			"$KIT/$file" | sed '1d;$d'
		   echo '```')" \
		"$(<"$WORK/out.md")"
	grep -q 'excerpt undo' "$WORK/out.md" &&
		fail "a marker line came out with the code"
	return 0
}

# excerpt_fails LINE WORD...: labs/excerpt exits 1 on a page holding
# LINE, with a message naming each WORD, and no code block.
excerpt_fails() {
	local line=$1 word status
	shift

	printf 'text\n%s\n' "$line" >"$WORK/page.md"
	"$EXCERPT" "$WORK/page.md" >"$WORK/out.md" 2>"$WORK/error.out"
	status=$?
	assertEquals "exit status for '$line'" 1 "$status"
	for word in "$@"; do
		grep -qF -- "$word" "$WORK/error.out" ||
			fail "the message for '$line' does not name $word:" \
				"$(<"$WORK/error.out")"
	done
	grep -q '^```c' "$WORK/out.md" &&
		fail "a code block came out for '$line'"
	return 0
}

test_excerpt_fails_on_a_missing_function() {
	excerpt_fails '@excerpt ping-sr-0/ping.c our_no_such_function' \
		ping-sr-0/ping.c our_no_such_function page.md:2
}

test_excerpt_fails_on_a_missing_marker() {
	excerpt_fails '@excerpt ping-sr-0/client.c #no-such-marker' \
		ping-sr-0/client.c no-such-marker
}

test_excerpt_fails_on_a_marker_without_its_end() {
	printf '/* excerpt open */\nint x;\n' >"$KIT/.cache/excerpt-test.c"
	excerpt_fails '@excerpt .cache/excerpt-test.c #open' \
		'end excerpt open'
	rm -f "$KIT/.cache/excerpt-test.c"
}

test_excerpt_fails_on_a_missing_file() {
	excerpt_fails '@excerpt ping-sr-0/no-such-file.c main' \
		ping-sr-0/no-such-file.c
}

test_excerpt_does_not_take_a_prototype_for_a_function() {
	excerpt_fails '@excerpt common/posting.h our_post_recv' \
		common/posting.h our_post_recv
}

# A fenced block can show the syntax itself.
test_excerpt_leaves_fenced_blocks_alone() {
	printf '```text\n@excerpt no/such.c nothing\n```\n' >"$WORK/page.md"
	"$EXCERPT" "$WORK/page.md" >"$WORK/out.md" ||
		fail "labs/excerpt expanded a line inside a fenced block"
	assertEquals "the page, unchanged" "$(<"$WORK/page.md")" \
		"$(<"$WORK/out.md")"
}

test_measured_data_is_there() {
	local file

	for file in latency cpu size idle blast; do
		file=$SLIDES/data/$file.dat
		[ -s "$file" ] || { fail "no ${file#"$KIT"/}: run labs/lab run -- slides/measure"; continue; }
		# Comment lines, then rows whose every field but the labels
		# is a number.
		grep -v '^#' "$file" | grep -qE '^[^ ]+( [-0-9.e+]+)+$|^[^ ]+ [a-z-]+( [-0-9.e+]+)+$' ||
			fail "${file#"$KIT"/} holds no figures"
		grep -v '^#' "$file" | grep -qE ' ( |$)|^$' &&
			fail "${file#"$KIT"/} has an empty field"
	done
	return 0
}

. shunit2
