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
			fail "$deck: monospace wider than its frame: $(grep -m1 -A1 '^Overfull \\hbox' "$log")"
		# A frame whose content runs off its foot.
		grep -q '^Overfull \\vbox' "$log" &&
			fail "$deck: a frame is taller than the page"
	done
	return 0
}

# Code is set at 8 pt or more, readable from the back of a room. Each
# code block writes its size and frame to the log ("slides-code: 8pt:
# frame 5: {title}", preamble.tex), one line for each block the deck's
# .tex holds; a frame under 8 pt is one the build names in
# build/small-code, and they are few. No frame shrinks to fit, which
# would make its code smaller than its size says.
SMALL_CODE_ALLOWED=3

test_code_is_8pt_or_named_by_the_build() {
	local deck blocks lines line size title report=$SLIDES/build/small-code

	if [ ! -f "$report" ]; then
		fail "no slides/build/small-code: run make -C slides"
		return
	fi
	for deck in $(decks); do
		built "$deck" || continue
		blocks=$(grep -c '^\\begin{Highlighting}' "$SLIDES/build/$deck.tex")
		lines=$(grep -c '^slides-code: ' "$SLIDES/build/$deck.log")
		assertEquals "$deck: code blocks, and their sizes in the log" \
			"$blocks" "$lines"
		grep -E '^\\begin\{frame\}\[[^]]*(shrink|squeeze)' \
			"$SLIDES/build/$deck.tex" &&
			fail "$deck: a frame shrinks to fit, its code with it"
		while IFS= read -r line; do
			[[ $line =~ ^slides-code:\ ([0-9.]+)pt:\ frame\ [0-9]+:\ (.*)$ ]] ||
				{ fail "$deck: an unreadable log line: $line"; continue; }
			size=${BASH_REMATCH[1]} title=${BASH_REMATCH[2]}
			title=${title#\{} title=${title%\}}
			awk -v s="$size" 'BEGIN { exit !(s < 8) }' || continue
			grep -qF "slides: $deck: frame \"$title\": code at $size pt" "$report" ||
				fail "$deck: \"$title\" sets code at $size pt, and the build does not say so"
		done < <(grep '^slides-code: ' "$SLIDES/build/$deck.log")
	done
	[ "$(wc -l <"$report")" -le $SMALL_CODE_ALLOWED ] ||
		fail "over $SMALL_CODE_ALLOWED frames set code under 8 pt: $(<"$report")"
	return 0
}

# LaTeX ran until it settled: no log still asks for a rerun (a longtable
# whose columns moved, labels that changed).
test_latex_ran_until_it_settled() {
	local deck

	for deck in $(decks); do
		built "$deck" || continue
		grep -qE 'Rerun to get|Rerun LaTeX|may have changed\. Rerun' \
			"$SLIDES/build/$deck.log" &&
			fail "$deck: LaTeX still asks for a rerun: $(grep -m1 -E 'Rerun' "$SLIDES/build/$deck.log")"
	done
	return 0
}

# build_deck NAME: make builds slides/NAME.md's PDF, in a copy of the
# slides' Makefile and preamble under $WORK (so that the kit's own
# build/ is left alone), the PDF there first as an old build left it.
build_deck() {
	local dir

	mkdir -p "$WORK/slides/build/fig"
	# The sources the deck cuts from, where make looks: ../STAGE/FILE.
	for dir in "$KIT"/*/; do
		dir=${dir%/}
		[ "${dir##*/}" = slides ] || [ -e "$WORK/${dir##*/}" ] ||
			ln -s "$dir" "$WORK/${dir##*/}"
	done
	cp "$SLIDES/Makefile" "$SLIDES/preamble.tex" "$WORK/slides/"
	echo "an old build" >"$WORK/slides/build/$1.pdf"
	touch -d '2000-01-01' "$WORK/slides/build/$1.pdf"
	make -s -C "$WORK/slides" DECKS="$1" EXCERPT="$EXCERPT" \
		"build/$1.pdf" >"$WORK/make.out" 2>&1
}

needs_latex() {
	command -v pandoc >/dev/null && command -v pdflatex >/dev/null && return
	skip_test "needs pandoc and LaTeX: sudo labs/install-deps slides"
	return 1
}

# A deck that does not build leaves no PDF, not even the one an earlier
# build left: a LaTeX error, or an excerpt whose code is gone.
test_a_deck_that_fails_leaves_no_pdf() {
	needs_latex || return 0
	mkdir -p "$WORK/slides"
	printf '## A frame\n\n\\nosuchcommand\n' >"$WORK/slides/bad.md"
	build_deck bad && fail "a deck with a LaTeX error built"
	grep -q 'nosuchcommand' "$WORK/make.out" ||
		fail "the LaTeX error is not shown: $(<"$WORK/make.out")"
	[ -e "$WORK/slides/build/bad.pdf" ] &&
		fail "a deck with a LaTeX error left a PDF"
	printf '## A frame\n\n@excerpt ping-sr-0/ping.c our_gone\n' \
		>"$WORK/slides/gone.md"
	build_deck gone && fail "a deck whose code is gone built"
	grep -q 'no function our_gone' "$WORK/make.out" ||
		fail "the missing excerpt is not named: $(<"$WORK/make.out")"
	[ -e "$WORK/slides/build/gone.pdf" ] &&
		fail "a deck whose code is gone left a PDF"
	return 0
}

# The same copy builds a good deck: the test above fails for the reason
# it gives.
test_a_good_deck_builds_its_pdf() {
	needs_latex || return 0
	mkdir -p "$WORK/slides"
	printf '## A frame\n\n@excerpt ping-sr-3/cq_events.c our_poll_or_arm\n' \
		>"$WORK/slides/good.md"
	build_deck good || fail "a good deck did not build: $(<"$WORK/make.out")"
	[ "$(head -c 4 "$WORK/slides/build/good.pdf")" = "%PDF" ] ||
		fail "a good deck left no new PDF"
	grep -q '^slides-code: 8pt: frame 1: ' "$WORK/slides/build/good.log" ||
		fail "its code is not logged at 8 pt"
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
	mkdir -p "$KIT/.cache"
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
			fail "the message for '$line' does not name $word: $(<"$WORK/error.out")"
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
	mkdir -p "$KIT/.cache"
	printf '/* excerpt open */\nint x;\n' >"$KIT/.cache/excerpt-test.c"
	excerpt_fails '@excerpt .cache/excerpt-test.c #open' \
		'end excerpt open'
	rm -f "$KIT/.cache/excerpt-test.c"
}

# An excerpt is whole statements: one whose braces or parentheses do
# not balance ends inside a statement, and is refused, naming it.
test_excerpt_fails_on_an_excerpt_that_ends_inside_a_statement() {
	mkdir -p "$KIT/.cache"
	printf '%s\n' 'int f(int x)' '{' '	/* excerpt call */' \
		'	x = g(x,' '	/* end excerpt call */' '	      1);' \
		'	/* excerpt block */' '	if (x) {' '		x++;' \
		'	/* end excerpt block */' '	}' '	return x;' '}' \
		>"$KIT/.cache/excerpt-test.c"
	excerpt_fails '@excerpt .cache/excerpt-test.c #call' \
		.cache/excerpt-test.c 'marker call' 'parenthesis open' page.md:2
	excerpt_fails '@excerpt .cache/excerpt-test.c #block' \
		.cache/excerpt-test.c 'marker block' 'brace open'
	rm -f "$KIT/.cache/excerpt-test.c"
}

# Markers may nest: cutting the outer excerpt leaves the inner markers
# out, and the inner one is cut as it is.
test_excerpt_leaves_nested_markers_out() {
	mkdir -p "$KIT/.cache"
	printf '%s\n' '/* excerpt outer */' 'int a;' '/* excerpt inner */' \
		'int b;' '/* end excerpt inner */' '/* end excerpt outer */' \
		>"$KIT/.cache/excerpt-test.c"
	printf '@excerpt .cache/excerpt-test.c #outer\n@excerpt .cache/excerpt-test.c #inner\n' \
		>"$WORK/page.md"
	"$EXCERPT" "$WORK/page.md" >"$WORK/out.md" ||
		fail "labs/excerpt failed on nested markers"
	assertEquals "the outer excerpt, then the inner" \
		"$(printf '```c\nint a;\nint b;\n```\n```c\nint b;\n```')" \
		"$(<"$WORK/out.md")"
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

# The sequence charts (diagrams/NAME.chart, and the captures' charts of
# the deck on the wire) are drawn at the size a deck shows them, their
# labels in the decks' footnote size: no deck gives one a size, which
# would scale its labels; and the deck shows each at the chart's own
# size, as the width of its words on the slide says.
test_charts_are_shown_at_their_own_size() {
	local deck line name figure page scale

	command -v pdftotext >/dev/null ||
		{ skip_test "needs pdftotext: sudo labs/install-deps slides"; return 0; }
	for deck in $(decks); do
		grep -E '\]\(fig/[^)]*\.pdf\)' "$SLIDES/$deck.md" >"$WORK/figures" ||
			continue
		while read -r line; do
			[[ $line =~ \(fig/([^\)]*)\.pdf\) ]] || continue
			name=${BASH_REMATCH[1]}
			[ -f "$SLIDES/diagrams/$name.chart" ] ||
				[[ $name == wire-* ]] || continue
			[[ $line == *'){'* ]] &&
				fail "$deck gives chart $name a size: $line"
			built "$deck" || continue
			figure=$SLIDES/build/fig/$name.pdf
			# The widths of the chart's words, and of the same
			# words on the deck's pages: their ratio on the page
			# that holds the chart is its scale.
			scale=$(chart_scale "$figure" "$SLIDES/build/$deck.pdf")
			assertEquals "$deck: the scale of chart $name" 1.00 "$scale"
		done <"$WORK/figures"
	done
}

# chart_scale FIGURE DECK: the scale at which DECK shows FIGURE: of the
# pages that hold words of the figure, the one holding most, and there
# the median ratio of a word's width to its width in the figure.
chart_scale() {
	local figure=$1 deck=$2

	{ pdftotext -bbox "$figure" - | sed -n 's/.*xMin="\([0-9.]*\)".*xMax="\([0-9.]*\)".*>\(.*\)<\/word>/F \3 \1 \2/p'
	  pdftotext -bbox "$deck" - | awk '/<page/ { page++ }
		/<word/ { print "D", page, $0 }' |
		sed -n 's/^D \([0-9]*\) .*xMin="\([0-9.]*\)".*xMax="\([0-9.]*\)".*>\(.*\)<\/word>/D \1 \4 \2 \3/p'
	} | awk '
	$1 == "F" && length($2) >= 4 { width[$2] = $4 - $3 }
	$1 == "D" && ($3 in width) {
		n[$2]++
		ratio[$2, n[$2]] = ($5 - $4) / width[$3]
	}
	END {
		for (p in n)
			if (n[p] > most) { most = n[p]; page = p }
		if (!most) { print "none"; exit }
		# The median ratio: sorted by insertion.
		for (i = 1; i <= most; i++) r[i] = ratio[page, i]
		for (i = 2; i <= most; i++)
			for (j = i; j > 1 && r[j - 1] > r[j]; j--) {
				t = r[j]; r[j] = r[j - 1]; r[j - 1] = t
			}
		printf "%.2f\n", r[int((most + 1) / 2)]
	}'
}

# chart.tex stops the build when a chart is taller than a frame's room,
# and says to split it.
test_chart_tex_refuses_a_chart_too_tall() {
	{
		echo '\lifelines{a}{b}{c}{d}'
		for i in $(seq 20); do echo "\\call{0}{1}{post $i}"; done
	} >"$WORK/tall.chart"
	(cd "$SLIDES" && pdflatex -interaction=nonstopmode -halt-on-error \
		-output-directory="$WORK" -jobname=tall \
		"\\def\\chart{$WORK/tall.chart}\\input{chart.tex}") \
		>"$WORK/tall.out" 2>&1 &&
		fail "chart.tex drew a chart of 20 rows on one page"
	grep -q 'split it in parts' "$WORK/tall.out" ||
		fail "chart.tex did not say why: $(grep -m1 -A1 '^!' "$WORK/tall.out")"
	head -5 "$WORK/tall.chart" >"$WORK/short.chart"
	(cd "$SLIDES" && pdflatex -interaction=nonstopmode -halt-on-error \
		-output-directory="$WORK" -jobname=short \
		"\\def\\chart{$WORK/short.chart}\\input{chart.tex}") \
		>/dev/null 2>&1 || fail "chart.tex failed on a chart of 4 rows"
	return 0
}

# What a deck concludes from its measurements (DECK.claims) holds for
# the data it was built from: slides/claims passes, and the build ran it
# since the data or the claims last changed.
test_the_decks_claims_hold_for_their_data() {
	local claims deck

	for claims in "$SLIDES"/*.claims; do
		[ -f "$claims" ] || continue
		deck=$(basename "$claims" .claims)
		"$SLIDES/claims" "$claims" 2>"$WORK/error.out" ||
			fail "$deck: $(<"$WORK/error.out")"
		built "$deck" || continue
		[ -f "$SLIDES/build/$deck.claims-checked" ] ||
			{ fail "$deck: the build did not check its claims"; continue; }
		for file in "$claims" "$SLIDES"/data/*.dat; do
			[ "$file" -ot "$SLIDES/build/$deck.claims-checked" ] ||
				fail "$deck's claims were not checked since $file changed: run make -C slides"
		done
	done
	return 0
}

# claims_fail_on DATA WORD...: slides/claims finds deck 10's claims false
# against the data in folder DATA, exit status 1, with a message naming
# each WORD.
claims_fail_on() {
	local data=$1 word status
	shift

	"$SLIDES/claims" "$SLIDES/10-measured.claims" "$data" \
		>"$WORK/out" 2>"$WORK/error.out"
	status=$?
	assertEquals "slides/claims' exit status on false data" 1 "$status"
	for word in "$@"; do
		grep -qF -- "$word" "$WORK/error.out" ||
			fail "slides/claims did not name $word: $(<"$WORK/error.out")"
	done
}

# Data measured again that contradict a claim stop it: a copy of the
# data where bandwidth falls at -b 8, or busy polling is as slow as the
# channel at 64 bytes.
test_claims_fail_when_the_data_contradict_them() {
	mkdir -p "$WORK/data"
	cp "$SLIDES"/data/*.dat "$WORK/data/"
	"$SLIDES/claims" "$SLIDES/10-measured.claims" "$WORK/data" ||
		{ fail "the claims fail on a true copy of the data"; return; }
	awk '$1 == 8 { $2 = $2 / 3 } { print }' "$SLIDES/data/blast.dat" \
		>"$WORK/data/blast.dat"
	claims_fail_on "$WORK/data" "levels off" "blast.dat[8].MB/s"
	cp "$SLIDES/data/blast.dat" "$WORK/data/"
	awk '$2 == "busy-poll" { $4 = 5000 } { print }' \
		"$SLIDES/data/latency.dat" >"$WORK/data/latency.dat"
	claims_fail_on "$WORK/data" "busy polling is the fastest" \
		"latency.dat[busy-poll].median (5000)"
}

# A claim is checked against the deck's own words: words the deck does
# not say fail, and so does a figure the data do not have.
test_claims_fail_on_words_the_deck_does_not_say() {
	cp "$SLIDES/10-measured.md" "$WORK/deck.md"
	printf 'say: busy polling is free\ncheck: 1 < 2\n' >"$WORK/deck.claims"
	"$SLIDES/claims" "$WORK/deck.claims" "$SLIDES/data" 2>"$WORK/error.out" &&
		fail "slides/claims passed a claim the deck does not make"
	grep -q 'does not say: busy polling is free' "$WORK/error.out" ||
		fail "slides/claims did not say why: $(<"$WORK/error.out")"
	printf 'say: Up to 1 KiB\ncheck: size.dat[64].no-such-stage < 1\n' \
		>"$WORK/deck.claims"
	"$SLIDES/claims" "$WORK/deck.claims" "$SLIDES/data" 2>"$WORK/error.out" &&
		fail "slides/claims passed a figure the data do not have"
	grep -qF 'no figure size.dat[64].no-such-stage' "$WORK/error.out" ||
		fail "slides/claims did not say why: $(<"$WORK/error.out")"
	return 0
}

# The deck on the wire, and the captures its charts are drawn from.
WIRE_DECK=17-on-the-wire

# wire_parts: the parts of captures the deck on the wire shows, in its
# order: its figures fig/wire-NAME.FIRST-LAST.pdf, packets FIRST to LAST
# of data/NAME.pcap, as NAME.FIRST-LAST.
wire_parts() {
	sed -nE 's|.*\]\(fig/wire-([^)]*)\.pdf\).*|\1|p' "$SLIDES/$WIRE_DECK.md"
}

# wire_captures: the captures the deck on the wire shows, by name.
wire_captures() {
	wire_parts | sed -E 's/\.[0-9]+-[0-9]+$//' | awk '!seen[$0]++'
}

needs_tshark() {
	command -v tshark >/dev/null && command -v editcap >/dev/null && return
	skip_test "needs tshark: sudo labs/install-deps slides"
	return 1
}

# capture_packets PCAP: what tshark reads in the RoCE packets of PCAP, a
# line each: number|source|PSN|address|rkey|summary, the address and
# rkey those of a RETH or an AtomicETH, if the packet has one.
capture_packets() {
	tshark -r "$1" -Y infiniband -T fields -E separator='|' \
		-E occurrence=f -e frame.number -e ip.src -e infiniband.bth.psn \
		-e infiniband.reth.va -e infiniband.reth.r_key -e _ws.col.Info \
		2>/dev/null
}

# chart_packets CHART: the packets a chart of slides/sequence draws, a
# line each: number|sender (c, the client, or s)|what|PSN|detail.
chart_packets() {
	awk '/^\\packet\{/ {
		split(substr($0, 9, length($0) - 9), field, /[}][{]/)
		print field[1] "|" field[2] "|" field[4] "|" field[5] "|" field[6]
	}' "$1"
}

# same_packets PCAP CHART: fail unless CHART draws the packets tshark
# reads in PCAP, each once and in their order: the number, who sent it
# (the client sent the connection request), the BTH opcode or the CM
# message, the PSN, and a RETH's or AtomicETH's address and rkey.
same_packets() {
	local pcap=$1 chart=$2 client name=${1##*/}
	local number source psn va rkey summary
	local drawn sender what drawn_psn detail

	capture_packets "$pcap" >"$WORK/capture.out"
	chart_packets "$chart" >"$WORK/chart.out"
	assertEquals "packets in $name, and arrows in its chart" \
		"$(wc -l <"$WORK/capture.out")" "$(wc -l <"$WORK/chart.out")"
	client=$(grep -m1 '|CM: ConnectRequest' "$WORK/capture.out" | cut -d'|' -f2)
	grep -q "^\\\\hosts{$client}{" "$chart" ||
		fail "$name: the chart's client is not ${client:-the requester}"
	while IFS='|' read -r number source psn va rkey summary <&3 &&
		IFS='|' read -r drawn sender what drawn_psn detail <&4; do
		[ "$drawn" = "$number" ] ||
			{ fail "$name: packet $number is drawn as packet $drawn"; continue; }
		[ "$sender" = "$([ "$source" = "$client" ] && echo c || echo s)" ] ||
			fail "$name: packet $number, from $source, is drawn from $sender"
		[[ $summary == *"$what"* ]] ||
			fail "$name: packet $number is '$summary', drawn as '$what'"
		[[ $summary == CM:* ]] || [ "$drawn_psn" = "$psn" ] ||
			fail "$name: packet $number has PSN $psn, drawn as ${drawn_psn:-none}"
		[ -n "$va" ] || continue
		if [[ $detail =~ va\ (0x[0-9a-f]+),\ rkey\ (0x[0-9a-f]+) ]]; then
			[ $((BASH_REMATCH[1])) -eq $((va)) ] &&
				[ $((BASH_REMATCH[2])) -eq $((rkey)) ] ||
				fail "$name: packet $number's va $va, rkey $rkey are drawn as '$detail'"
		else
			fail "$name: packet $number's va and rkey are not drawn: '$detail'"
		fi
	done 3<"$WORK/capture.out" 4<"$WORK/chart.out"
}

# The build draws each chart of the deck from its capture: every packet
# tshark reads there, in order, and nothing else; the chart is as new as
# the capture, and the deck as new as the chart.
test_the_wire_charts_are_drawn_from_their_captures() {
	local name pcap chart figure part

	needs_tshark || return 0
	built "$WIRE_DECK" || return
	[ -n "$(wire_captures)" ] ||
		fail "$WIRE_DECK shows no chart drawn from a capture (fig/wire-NAME.pdf)"
	for name in $(wire_captures); do
		pcap=$SLIDES/data/$name.pcap
		chart=$SLIDES/build/wire/$name.tex
		figure=$SLIDES/build/fig/wire-$name.pdf
		if [ ! -s "$pcap" ]; then
			fail "no slides/data/$name.pcap: record it with slides/capture"
			continue
		fi
		[ "$(stat -c %s "$pcap")" -le 16384 ] ||
			fail "slides/data/$name.pcap is over 16 KB: one short run is enough"
		if [ ! -s "$chart" ]; then
			fail "$name.pcap has no chart: run make -C slides"
			continue
		fi
		[ "$pcap" -ot "$chart" ] && [ "$SLIDES/sequence" -ot "$chart" ] ||
			fail "$name's chart is older than its capture: run make -C slides"
		for part in $(wire_parts | grep -F "$name."); do
			figure=$SLIDES/build/fig/wire-$part.pdf
			[ -s "$figure" ] && [ "$chart" -ot "$figure" ] &&
				[ "$SLIDES/sequence.tex" -ot "$figure" ] &&
				[ "$figure" -ot "$SLIDES/build/$WIRE_DECK.pdf" ] ||
				fail "wire-$part.pdf is older than what it is made of: run make -C slides"
		done
		same_packets "$pcap" "$chart"
	done
}

# A chart too tall for a frame is shown in parts: together they show
# every packet of the capture once, in order, from the first to the last.
test_the_wire_charts_parts_show_every_packet_once() {
	local name packets next first last part

	built "$WIRE_DECK" || return
	for name in $(wire_captures); do
		[ -s "$SLIDES/build/wire/$name.tex" ] || continue
		packets=$(chart_packets "$SLIDES/build/wire/$name.tex" | wc -l)
		next=1
		for part in $(wire_parts | grep -F "$name."); do
			[[ $part =~ \.([0-9]+)-([0-9]+)$ ]] ||
				{ fail "$WIRE_DECK shows all of $name in one part: too tall"; continue; }
			first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]}
			assertEquals "$name: the first packet of part $part" \
				"$next" "$first"
			next=$((last + 1))
		done
		assertEquals "$name: packets shown" "$packets" $((next - 1))
	done
}

# sequence.tex draws the packets it is told to, FIRST to LAST, and stops
# the build when a part would be too tall for a frame.
test_sequence_tex_draws_a_part_and_refuses_one_too_tall() {
	local name

	needs_tshark || return 0
	name=$(wire_captures | head -1)
	[ -s "$SLIDES/data/$name.pcap" ] || { fail "no slides/data/$name.pcap"; return; }
	"$SLIDES/sequence" "$SLIDES/data/$name.pcap" >"$WORK/chart.tex"
	(cd "$SLIDES" && pdflatex -interaction=nonstopmode -halt-on-error \
		-output-directory="$WORK" -jobname=part \
		"\\def\\chart{$WORK/chart.tex}\\def\\first{2}\\def\\last{3}\\input{sequence.tex}") \
		>/dev/null 2>&1 || fail "sequence.tex failed to draw packets 2 to 3"
	pdftotext "$WORK/part.pdf" - 2>/dev/null | tr -s ' \n' '  ' >"$WORK/part.txt"
	grep -qw 2 "$WORK/part.txt" && grep -qw 3 "$WORK/part.txt" ||
		fail "packets 2 and 3 are not drawn: $(<"$WORK/part.txt")"
	grep -qw 4 "$WORK/part.txt" && fail "packet 4 is drawn in part 2-3"
	(cd "$SLIDES" && pdflatex -interaction=nonstopmode -halt-on-error \
		-output-directory="$WORK" -jobname=whole \
		"\\def\\chart{$WORK/chart.tex}\\input{sequence.tex}") \
		>"$WORK/whole.out" 2>&1 &&
		fail "sequence.tex drew all of $name on one page, taller than a frame"
	grep -q 'split\|cut it in two' "$WORK/whole.out" ||
		fail "sequence.tex did not say why: $(grep -m2 -A1 '^!' "$WORK/whole.out")"
	return 0
}

# slides/sequence draws what it is given: a capture cut short gives a
# chart as short, the same packets still; a capture with no RoCE packet
# fails, rather than drawing nothing.
test_sequence_draws_the_packets_it_is_given() {
	local name

	needs_tshark || return 0
	name=$(wire_captures | head -1)
	if [ ! -s "$SLIDES/data/$name.pcap" ]; then
		fail "no slides/data/$name.pcap: record it with slides/capture"
		return
	fi
	# The first 5 packets; then all but the 3rd and the 4th.
	editcap -r "$SLIDES/data/$name.pcap" "$WORK/first.pcap" 1-5 2>/dev/null
	editcap "$SLIDES/data/$name.pcap" "$WORK/gap.pcap" 3-4 2>/dev/null
	for cut in first gap; do
		"$SLIDES/sequence" "$WORK/$cut.pcap" >"$WORK/$cut.tex" ||
			{ fail "slides/sequence failed on $cut.pcap"; continue; }
		same_packets "$WORK/$cut.pcap" "$WORK/$cut.tex"
	done
	assertEquals "arrows for the first 5 packets" 5 \
		"$(chart_packets "$WORK/first.tex" | wc -l)"
	assertEquals "arrows for all packets but 2" \
		$(($(capture_packets "$SLIDES/data/$name.pcap" | wc -l) - 2)) \
		"$(chart_packets "$WORK/gap.tex" | wc -l)"
	editcap -r "$SLIDES/data/$name.pcap" "$WORK/none.pcap" 0 2>/dev/null
	"$SLIDES/sequence" "$WORK/none.pcap" >"$WORK/none.tex" 2>"$WORK/error.out" &&
		fail "slides/sequence drew a capture with no packet"
	grep -q 'no RoCE packet' "$WORK/error.out" ||
		fail "slides/sequence did not say why: $(<"$WORK/error.out")"
	return 0
}

# What the deck on the wire quotes of its captures is in its charts: each
# address, key and 8-digit word (0x..., hexadecimal) and each PSN (six
# digits or more). Captures recorded again make it fail until its words
# are read against the new charts.
test_the_wire_deck_quotes_its_captures() {
	local word

	built "$WIRE_DECK" || return
	cat "$SLIDES"/build/wire/*.tex >"$WORK/charts.out" 2>/dev/null
	for word in $(grep -oE '\b(0x[0-9a-f]+|[0-9a-f]{8}|[0-9]{6,})\b' \
		"$SLIDES/$WIRE_DECK.md" | sort -u); do
		grep -qw -- "$word" "$WORK/charts.out" ||
			fail "$WIRE_DECK says $word, which none of its charts shows"
	done
	return 0
}

. shunit2
