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

# The deck on the wire, and the captures its charts are drawn from.
WIRE_DECK=17-on-the-wire

# wire_captures: the captures the deck on the wire shows, by name: its
# figures fig/wire-NAME.pdf, which the build draws from data/NAME.pcap.
wire_captures() {
	sed -nE 's|.*\]\(fig/wire-([^)]*)\.pdf\).*|\1|p' "$SLIDES/$WIRE_DECK.md"
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
	local name pcap chart figure

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
		if [ ! -s "$chart" ] || [ ! -s "$figure" ]; then
			fail "$name.pcap has no chart: run make -C slides"
			continue
		fi
		[ "$pcap" -ot "$chart" ] && [ "$SLIDES/sequence" -ot "$chart" ] &&
			[ "$chart" -ot "$figure" ] &&
			[ "$SLIDES/sequence.tex" -ot "$figure" ] &&
			[ "$figure" -ot "$SLIDES/build/$WIRE_DECK.pdf" ] ||
			fail "$name's chart is older than what it is made of: run make -C slides"
		same_packets "$pcap" "$chart"
	done
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
