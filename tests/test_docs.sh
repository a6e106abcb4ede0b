#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the READMEs and the lab guide name is there: every `make diff`
# they mention prints a diff, every suite and test they cite exists,
# every file of the kit they name and every link exists, and every
# counters line they show (-x) is one the code can print. (Their
# commands are run by test_readmes.sh, in the lab.) These read files and
# run make; no device is needed, so make check runs them on the host.
# tests/run: host
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/readmes.sh"

test_make_diff_in_the_readmes_prints_a_diff() {
	local readme from to status

	while read -r readme from to; do
		(cd "$KIT" && timeout 60 make -s diff FROM="$from" TO="$to") \
			>"$WORK/diff.out" 2>&1
		status=$?
		assertEquals "$readme: make diff FROM=$from TO=$to: exit status; $(cat "$WORK/diff.out")" \
			0 "$status"
		grep -q '^@@ ' "$WORK/diff.out" ||
			fail "$readme: make diff FROM=$from TO=$to printed no diff: $(cat "$WORK/diff.out")"
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

test_named_files_and_links_exist() {
	local readme kind name dir

	while read -r readme kind name; do
		dir=${readme%"${readme##*/}"}
		case $kind in
		path) [ -e "$KIT/$name" ] ||
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
		# ping-rdma-1/ping_write.c.
		each("path", "`(\\./)?(common|tests|labs|devices|[a-z]+-(sr|rdma)-[0-9]+)/[A-Za-z0-9_./-]*`", 1)
		# Sources by bare name: of the stage, or a piece of any stage.
		each("source", "`[A-Za-z0-9_]+\\.[ch]`", 1)
		# Links to files of the kit, from the folder of the README.
		each("link", "\\]\\([^) ]+\\)", 2)
	}')
}

# The counters the programs print with -x, as README samples show them.
# What ping-sr-3/cq_events.c and ping-sr-0/completions_busy.c count makes these
# hold whatever the run: every empty first poll is followed by a second
# poll, and at most one sleep (a poll() call); a sleep takes at most one
# event; events are acknowledged 16 at a time, the rest (fewer than 16)
# after the report. An exercise's README is left out: it shows what its
# starter, wrong on purpose, prints.
test_counters_lines_shown_are_possible() {
	(cd "$KIT" && awk '
		function check(ok, why) {
			if (!ok)
				printf "%s line %d: %s: %s\n", FILENAME, FNR, why, $0
		}
		FILENAME ~ /^labs\/exercises\// { next }
		/[0-9]+ ibv_poll_cq calls, [0-9]+ first polls found nothing/ {
			text = $0
			sub(/.*: /, "", text)
			n = split(text, word, /[ ,]+/)
			polls = word[1]; empty = word[4]; events = word[9]
			acked = word[12]; calls = n >= 16 ? word[14] : ""
			check(2 * empty <= polls,
				"each empty first poll is followed by a second one")
			check(events <= empty,
				"at most one event per empty first poll")
			if (calls != "") {
				check(calls <= empty,
					"at most one poll() call per empty first poll")
				check(events <= calls,
					"at most one event per poll() call")
			}
			check(acked <= events && events - acked < 16 &&
				acked % 16 == 0,
				"events are acknowledged 16 at a time")
		}
		/busy polling: [0-9]+ ibv_poll_cq calls, [0-9]+ found nothing/ {
			text = $0
			sub(/.*busy polling: /, "", text)
			split(text, word, /[ ,]+/)
			check(word[4] + 0 <= word[1] + 0,
				"no more empty polls than polls")
		}
	' "${READMES[@]}") >"$WORK/why"
	fail_each <"$WORK/why"
}

. shunit2
