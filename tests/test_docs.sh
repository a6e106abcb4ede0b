#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the READMEs and the lab guide name is there: every `make diff`
# they mention prints a diff, every suite and test they cite exists,
# every file of the kit they name and every link exists, every README
# they say to read "up to" a heading has it, every counters
# line they show (-x) is one the code can print, and every function a
# stage's "Read in this order" list names is defined in the file it
# gives. (Their commands are run by test_readmes.sh, in the lab.) These
# read files and run make; no device is needed, so make check runs them
# on the host.
# tests/run: host
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/readmes.sh"

test_make_diff_in_the_readmes_prints_a_diff() {
	local readme from to status

	while read -r readme from to; do
		(cd "$KIT" && timeout 60 make -s diff FROM="$from" TO="$to") \
			>"$WORK/diff.out" 2>&1
		status=$?
		assertEquals "$readme: make diff FROM=$from TO=$to: exit status; $(<"$WORK/diff.out")" \
			0 "$status"
		grep -q '^@@ ' "$WORK/diff.out" ||
			fail "$readme: make diff FROM=$from TO=$to printed no diff: $(<"$WORK/diff.out")"
	done < <(readmes_awk '{
		text = $0
		while (match(text, /make diff FROM=[A-Za-z0-9_.-]+ TO=[A-Za-z0-9_.-]+/)) {
			mention = substr(text, RSTART, RLENGTH)
			text = substr(text, RSTART + RLENGTH)
			split(mention, word, /[ =]/)
			if (!seen[word[4], word[6]]++)
				print FILENAME, word[4], word[6]
		}
	}')
}

test_cited_suites_and_tests_exist() {
	# Every test function of every suite, as "SUITE FUNCTION".
	(cd "$KIT" && grep -oE '^test_[a-z0-9_]+\(\)' tests/test_*.sh) |
		sed 's/:/ /; s/()$//' >"$WORK/defined"
	readmes_awk 'BEGIN {
		RS = "\n"
		while ((getline line < defined_file) > 0) {
			split(line, part, " ")
			defined[part[1], part[2]] = 1
		}
		RS = ""
	}
	{
		delete suites
		named = ""
		text = $0
		while (match(text, /tests\/test_[a-z0-9_]+\.sh/)) {
			suite = substr(text, RSTART, RLENGTH)
			text = substr(text, RSTART + RLENGTH)
			suites[suite] = 1
			named = named " " suite
			if ((getline line < suite) < 0)
				printf "%s cites %s, which does not exist\n", \
					FILENAME, suite
			close(suite)
		}
		text = $0
		while (match(text, /`test_[a-z0-9_]+`/)) {
			function_name = substr(text, RSTART + 1, RLENGTH - 2)
			text = substr(text, RSTART + RLENGTH)
			found = 0
			for (suite in suites)
				if ((suite, function_name) in defined)
					found = 1
			if (!found)
				printf "%s cites %s, not a test of a suite named" \
					" in its paragraph (%s)\n", FILENAME, \
					function_name, named == "" ? "none" : substr(named, 2)
		}
	}' -v defined_file="$WORK/defined" >"$WORK/why"
	fail_each <"$WORK/why"
}

# A page that says to read a README "up to" a heading: that README has
# the heading, so the student knows where to stop.
test_read_up_to_names_a_heading_of_the_readme() {
	readmes_awk '{
		text = $0
		while (match(text, /\]\([^) ]+\.md\),? up to "[^"]+"/)) {
			found = substr(text, RSTART, RLENGTH)
			text = substr(text, RSTART + RLENGTH)
			dir = FILENAME
			sub(/[^\/]*$/, "", dir)
			link = found
			sub(/^\]\(/, "", link)
			sub(/\).*/, "", link)
			heading = found
			sub(/^[^"]*"/, "", heading)
			sub(/"$/, "", heading)
			has = 0
			while ((getline line < (dir link)) > 0)
				if (line ~ /^#+ / && substr(line, index(line, " ") + 1) == heading)
					has = 1
			close(dir link)
			if (!has)
				printf "%s: read %s up to \"%s\", a heading it does not have\n", \
					FILENAME, link, heading
		}
	}' >"$WORK/why"
	fail_each <"$WORK/why"
}

# build_output PATH: PATH, from the kit's top, is what a build makes (git
# ignores it: labs/guide/build/, a stage's single/), which a README may
# name before it is built.
build_output() {
	git -C "$KIT" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
		git -C "$KIT" check-ignore -q -- "$1"
}

test_named_files_and_links_exist() {
	local readme kind name dir

	while read -r readme kind name; do
		dir=${readme%"${readme##*/}"}
		case $kind in
		path) [ -e "$KIT/$name" ] || build_output "$name" ||
			fail "$readme names $name, which does not exist" ;;
		source) [ -e "$KIT/$dir$name" ] || compgen -G "$KIT/*/$name" >/dev/null ||
			fail "$readme names $name, in no folder of the kit" ;;
		link) [ -e "$KIT/$dir$name" ] ||
			fail "$readme links to $name, which does not exist" ;;
		esac
	done < <(readmes_awk '
	# each: print "FILENAME kind match" for each match of pattern in $0,
	# less head characters at its start and one at its end.
	function each(kind, pattern, head,    text, found) {
		text = $0
		while (match(text, pattern)) {
			found = substr(text, RSTART + head, RLENGTH - head - 1)
			text = substr(text, RSTART + RLENGTH)
			sub(/#.*/, "", found)
			if (found != "" && found !~ /^(https?|mailto):/ &&
			    !seen[FILENAME, kind, found]++)
				print FILENAME, kind, found
		}
	}
	{
		# Files of the kit in backquotes: ping-sr-0/client.c, ./devices/devices,
		# ping-rdma-1/ping_write.c, atomic-1/shared.h.
		each("path", "`(\\./)?(common|tests|labs|devices|[a-z]+(-[a-z]+)*-[0-9]+)/[A-Za-z0-9_./-]*`", 1)
		# Sources by bare name: of the stage, or a piece of any stage.
		each("source", "`[A-Za-z0-9_]+\\.[ch]`", 1)
		# Links to files of the kit, from the folder of the README.
		each("link", "\\]\\([^) ]+\\)", 2)
	}')
}

# The counters the programs print with -x, as README samples show them.
# What ping-sr-3/cq_events.c, ping-sr-4/completions_poll.c and the busy
# polling pieces count makes these hold whatever the run: every empty
# first poll is followed by a second poll, and at most one sleep (a
# poll() call); a sleep takes at most one event; a poll that found
# nothing is one of the polls. Each count is read by its name, wherever
# it stands on the line. An exercise's README is left out: it shows what
# its starter, wrong on purpose, prints.
test_counters_lines_shown_are_possible() {
	(cd "$KIT" && awk '
		function check(ok, why) {
			if (!ok)
				printf "%s line %d: %s: %s\n", FILENAME, FNR, why, $0
		}
		# count[what]: the counts of the line, by what they count.
		function read_counts(text,    n, item, i, what) {
			delete count
			sub(/;.*/, "", text)
			n = split(text, item, /, /)
			for (i = 1; i <= n; i++) {
				if (match(item[i], /^[0-9]+ /)) {
					what = substr(item[i], RLENGTH + 1)
					count[what] = substr(item[i], 1, RLENGTH - 1) + 0
				}
			}
		}
		FILENAME ~ /^labs\/exercises\// { next }
		/completion channel: [0-9]+ ibv_poll_cq calls, / {
			text = $0
			sub(/.*completion channel: /, "", text)
			read_counts(text)
			polls = count["ibv_poll_cq calls"]
			empty = count["first polls found nothing"]
			events = count["events received"]
			check(2 * empty <= polls,
				"each empty first poll is followed by a second one")
			check(events <= empty,
				"at most one event per empty first poll")
			if ("poll() calls" in count) {
				calls = count["poll() calls"]
				check(calls <= empty,
					"at most one poll() call per empty first poll")
				check(events <= calls,
					"at most one event per poll() call")
			}
		}
		/(busy|batch) polling: [0-9]+ ibv_poll_cq calls, / {
			text = $0
			sub(/.*(busy|batch) polling: /, "", text)
			read_counts(text)
			check(count["found nothing"] <= count["ibv_poll_cq calls"],
				"no more empty polls than polls")
		}
	' "${READMES[@]}") >"$WORK/why"
	fail_each <"$WORK/why"
}

# definitions FILE...: print "FILE NAME" for each function that FILE
# defines: a line in column 0 that names it before "(", its parameters,
# then a line "{" (kernel style). A call is indented, and a prototype
# ends with ";": neither is a definition.
definitions() {
	awk '
		FNR == 1 { candidate = "" }
		/^[A-Za-z_]/ && match($0, /[A-Za-z_][A-Za-z0-9_]*\(/) {
			candidate = substr($0, RSTART, RLENGTH - 1)
			lines = 0
		}
		candidate != "" {
			if (/^\{/) {
				print FILENAME, candidate
				candidate = ""
			} else if (/;[ \t]*$/ || ++lines > 10) {
				candidate = ""
			}
		}
	' "$@"
}

# The functions a stage's "Read in this order" list names, each with the
# file that holds it: "`our_await_transfers` (common/posting.c)", or
# several of one file: "`our_sge`, `our_qp_attr` (common/posting.c)".
# Every pair is true: the file is one that the README's stage compiles,
# and it defines the function (a definition, not a call or a
# prototype). Every function of the kit that the list names (our_*,
# main) comes with its file, and every stage's README has such a list.
test_reading_orders_name_functions_where_they_are_defined() {
	local readme name file dir
	declare -A compiled=()

	(cd "$KIT" && for dir in */; do
		dir=${dir%/}
		case $dir in common | labs | slides | tests) continue ;; esac
		[ -f "$dir/Makefile" ] && [ -f "$dir/README.md" ] || continue
		grep -q '^## Read in this order' "$dir/README.md" ||
			echo "$dir/README.md has no \"Read in this order\" list"
	done) >"$WORK/why"
	fail_each <"$WORK/why"
	readmes_awk '
	/^## / { reading = $0 ~ /^## Read in this order/ }
	/^#/ { next }
	!reading { next }
	{
		text = $0
		group = "(`[A-Za-z_][A-Za-z0-9_]*(\\(\\))?`(, | and |, and ))*" \
			"`[A-Za-z_][A-Za-z0-9_]*(\\(\\))?` \\([a-z0-9_./-]+\\.[ch]\\)"
		while (match(text, group)) {
			pairs = substr(text, RSTART, RLENGTH)
			text = substr(text, 1, RSTART - 1) " " \
				substr(text, RSTART + RLENGTH)
			file = pairs
			sub(/.* \(/, "", file)
			sub(/\)$/, "", file)
			sub(/ \([^ ]*\)$/, "", pairs)
			n = split(pairs, names, /(, and |, | and )/)
			for (i = 1; i <= n; i++) {
				name = names[i]
				gsub(/[`()]/, "", name)
				print FILENAME, name, file
			}
		}
		# What is left names no file: a function of the kit there is
		# one the reader cannot find.
		while (match(text, /`(our_[A-Za-z0-9_]*|main)(\(\))?`/)) {
			print FILENAME, "-", substr(text, RSTART + 1, RLENGTH - 2)
			text = substr(text, RSTART + RLENGTH)
		}
	}' >"$WORK/pairs"
	# Every function the named files define, read once.
	local files=()
	mapfile -t files < <(cd "$KIT" && awk '$2 != "-" { print $3 }' \
		"$WORK/pairs" | sort -u | while read -r file; do
			[ -f "$file" ] && echo "$file"
		done)
	(cd "$KIT" && definitions "${files[@]}" </dev/null) >"$WORK/defined"
	declare -A defined=()
	while read -r file name; do
		defined["$name $file"]=1
	done <"$WORK/defined"
	while read -r readme name file; do
		if [ "$name" = - ]; then
			fail "$readme names $file in its reading order without the file that holds it"
			continue
		fi
		if [ ! -f "$KIT/$file" ]; then
			fail "$readme: $name ($file): no such file"
			continue
		fi
		dir=${readme%/README.md}
		if [ "$dir" != "$readme" ] && [ -f "$KIT/$dir/Makefile" ]; then
			[ -n "${compiled[$dir]:-}" ] || compiled[$dir]=" $(make -s \
				-C "$KIT/$dir" files 2>/dev/null | tr '\n' ' ') "
			[[ ${compiled[$dir]} == *" $KIT/$file "* ]] ||
				fail "$readme: $name ($file): $dir does not compile $file"
		fi
		[ -n "${defined["$name $file"]:-}" ] ||
			fail "$readme: $name ($file): $file does not define $name"
	done <"$WORK/pairs"
}

# What a stage's "On the wire" section shows is what labs/wire prints:
# every packet line in its format, with an opcode or CM message the
# dissector names; and each stage shows the packets its lesson is about
# (ping-sr-0 sends and ACKs alone, ping-sr-1 its private data in the
# request, the one-sided stages their writes, reads and atomics). The
# captures themselves are checked in the two-host lab (test_wire.sh).
test_wire_samples_are_what_labs_wire_prints() {
	local readme stage packet opcodes

	packet='^ +[0-9]+ +[0-9]+\.[0-9]{6} 192\.0\.2\.[12] +192\.0\.2\.[12] +'
	opcodes='(CM (ConnectRequest|ConnectReply|ReadyToUse|DisconnectRequest|DisconnectReply)|(Send|RDMA Write|RDMA Read Response) (First|Middle|Last|Only)|Acknowledge|RDMA Read Request|Fetch Add|Compare Swap|Atomic Acknowledge)( |$)'
	for readme in "$KIT"/*/README.md; do
		stage=${readme%/README.md}
		stage=${stage##*/}
		# A stage of a server and a client.
		[ "$stage" != devices ] && grep -q '^## One file to copy' "$readme" ||
			continue
		awk '/^## On the wire/ { on = 1; next } /^## / { on = 0 }
			on && /^```text/ { text = 1; next }
			on && /^```/ { text = 0 }
			on && text { print }' "$readme" >"$WORK/sample"
		if [ ! -s "$WORK/sample" ]; then
			fail "$stage/README.md has no On the wire sample"
			continue
		fi
		grep -vE '^ +# +time from' "$WORK/sample" |
			grep -vE "$packet$opcodes" >"$WORK/odd"
		[ ! -s "$WORK/odd" ] ||
			fail "$stage/README.md: not a line labs/wire prints: $(head -n 1 "$WORK/odd")"
		case $stage in
		ping-sr-0)
			! grep -qE 'RDMA|Fetch|Compare|private data' "$WORK/sample" ||
				fail "ping-sr-0's sample shows more than sends" ;;
		ping-sr-1)
			grep -q 'ConnectRequest .*private data 4f55524b' "$WORK/sample" ||
				fail "ping-sr-1's sample shows no private data" ;;
		ping-rdma-1 | blast-rdma-1)
			grep -qE 'RDMA Write Only .* va 0x[0-9a-f]+ rkey 0x[0-9a-f]+ len' "$WORK/sample" ||
				fail "$stage's sample shows no write" ;;
		ping-rdma-2 | pubsub-rdma-1)
			grep -qE 'RDMA Read Request .* va 0x[0-9a-f]+ rkey 0x[0-9a-f]+ len' "$WORK/sample" &&
				grep -q 'RDMA Read Response' "$WORK/sample" ||
				fail "$stage's sample shows no read" ;;
		atomic-1)
			grep -q 'Fetch Add' "$WORK/sample" &&
				grep -q 'Compare Swap' "$WORK/sample" &&
				grep -q 'Atomic Acknowledge' "$WORK/sample" ||
				fail "atomic-1's sample shows no atomics" ;;
		esac
	done
	return 0
}

# Every stage runs verified across the link of the two-host lab: its
# README's block for two hosts (which test_readmes.sh runs there, host
# B's line on host b) gives the client -v.
test_two_host_blocks_check_every_byte() {
	local line

	grep -h '^hostB\$ ' "$KIT"/*/README.md "$KIT/README.md" >"$WORK/clients"
	[ -s "$WORK/clients" ] || fail "no block for two hosts"
	while IFS= read -r line; do
		[[ " $line " == *" -v "* ]] ||
			fail "a two-host block's client checks no byte: $line"
	done <"$WORK/clients"
}

. shunit2
