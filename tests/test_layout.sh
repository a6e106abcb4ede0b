#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A stage's folder holds its lesson: each piece lives with the stage that
# introduces it, make diff between two consecutive stages shows that
# stage's pieces and nothing else, and editors are told which files a
# stage compiles. These read files and run make; no device is needed,
# so make check runs them on the host.
# tests/run: host
. "$(dirname "$0")/lib.sh"

# diff_headings FROM TO: the headings of make diff FROM TO, into
# $WORK/diff.out.
diff_headings() {
	"$KIT/labs/stage-diff" "$1" "$2" >"$WORK/diff.full" 2>&1 ||
		fail "make diff FROM=$1 TO=$2 failed: $(<"$WORK/diff.full")"
	grep '^###' "$WORK/diff.full" >"$WORK/diff.out"
}

# headings_are FROM TO HEADING...: make diff FROM TO has exactly these
# headings after the Makefile's, in order.
headings_are() {
	local from=$1 to=$2 expected
	shift 2

	diff_headings "$from" "$to"
	expected=$(printf '%s\n' "### $to against $from: the stage's Makefile" "$@")
	assertEquals "make diff FROM=$from TO=$to" "$expected" \
		"$(<"$WORK/diff.out")"
}

test_each_piece_lives_with_the_stage_that_introduces_it() {
	local file

	for file in ping-sr-0/{client,server,ping,private_none,cm_blocking,completions_busy}.c \
		ping-sr-1/private_data.c ping-sr-2/cm_thread.c ping-sr-2/cm_channel.c \
		ping-sr-3/completions_channel.c ping-sr-3/cq_events.c \
		ping-sr-4/cm_nonblocking.c ping-sr-4/completions_poll.c \
		blast-sr-2/blast.c ping-rdma-1/ping_write.c \
		ping-rdma-1/remote_memory.c ping-rdma-1/notice.c \
		ping-rdma-2/ping_read.c blast-rdma-1/blast_write.c \
		blast-rdma-1/completions_batch.c; do
		[ -f "$KIT/$file" ] || fail "$file is missing"
	done
	# common/ holds what every program links: no stage's piece.
	for file in "$KIT"/common/*.c; do
		case $(basename "$file") in
		cm_*|completions_*|ping*.c|blast*.c|private_*|remote_*)
			fail "common/ holds a stage's piece: $(basename "$file")" ;;
		esac
	done
}

test_make_diff_shows_each_stages_lesson() {
	headings_are ping-sr-0 ping-sr-1 \
		"### replaces ping-sr-0/private_none.c: ping-sr-1/private_data.c, shown whole" \
		"### added: ping-sr-1/private_wire.h (in ping-sr-1, not in ping-sr-0)"
	headings_are ping-sr-1 ping-sr-2 \
		"### replaces ping-sr-0/cm_blocking.c: ping-sr-2/cm_thread.c, shown whole" \
		"### added: ping-sr-2/cm_channel.c (in ping-sr-2, not in ping-sr-1)" \
		"### added: ping-sr-2/cm_channel.h (in ping-sr-2, not in ping-sr-1)"
	headings_are ping-sr-2 ping-sr-3 \
		"### replaces ping-sr-0/completions_busy.c: ping-sr-3/completions_channel.c, shown whole" \
		"### added: ping-sr-3/cq_events.c (in ping-sr-3, not in ping-sr-2)" \
		"### added: ping-sr-3/cq_events.h (in ping-sr-3, not in ping-sr-2)"
	headings_are ping-sr-3 ping-sr-4 \
		"### replaces ping-sr-2/cm_thread.c: ping-sr-4/cm_nonblocking.c, shown whole" \
		"### replaces ping-sr-3/completions_channel.c: ping-sr-4/completions_poll.c, shown whole" \
		"### added: ping-sr-4/nonblocking.h (in ping-sr-4, not in ping-sr-3)"
	headings_are ping-sr-2 blast-sr-2 \
		"### changes: blast-sr-2/blast.c in place of ping-sr-0/ping.c"
	headings_are ping-sr-2 ping-rdma-1 \
		"### changes: ping-rdma-1/ping_write.c in place of ping-sr-0/ping.c" \
		"### replaces ping-sr-0/sends_only.c: ping-rdma-1/remote_memory.c, shown whole" \
		"### added: ping-rdma-1/notice.c (in ping-rdma-1, not in ping-sr-2)" \
		"### added: ping-rdma-1/memory_wire.h (in ping-rdma-1, not in ping-sr-2)" \
		"### added: ping-rdma-1/notice.h (in ping-rdma-1, not in ping-sr-2)" \
		"### added: ping-rdma-1/remote_memory.h (in ping-rdma-1, not in ping-sr-2)"
	# An exchange in place of one with the same functions: a diff.
	headings_are ping-rdma-1 ping-rdma-2 \
		"### changes: ping-rdma-2/ping_read.c in place of ping-rdma-1/ping_write.c" \
		"### replaces ping-sr-0/no_reads.c: ping-rdma-2/read_resources.c, shown whole" \
		"### added: ping-rdma-2/read_resources.h (in ping-rdma-2, not in ping-rdma-1)"
	headings_are blast-sr-2 blast-rdma-1 \
		"### changes: blast-rdma-1/blast_write.c in place of blast-sr-2/blast.c" \
		"### replaces ping-sr-0/sends_only.c: ping-rdma-1/remote_memory.c, shown whole" \
		"### added: ping-rdma-1/notice.c (in blast-rdma-1, not in blast-sr-2)" \
		"### replaces ping-sr-0/completions_busy.c: blast-rdma-1/completions_batch.c, shown whole" \
		"### added: ping-rdma-1/memory_wire.h (in blast-rdma-1, not in blast-sr-2)" \
		"### added: ping-rdma-1/notice.h (in blast-rdma-1, not in blast-sr-2)" \
		"### added: ping-rdma-1/remote_memory.h (in blast-rdma-1, not in blast-sr-2)"
	# The three ways to post: only the posting piece changes.
	headings_are ping-sr-2 ping-sg-1 \
		"### changes: ping-sg-1/ping_sg.c in place of ping-sr-0/ping.c" \
		"### replaces ping-sr-0/post_recv.c: ping-sg-1/recv_lists.c, shown whole" \
		"### added: ping-sg-1/send_lists.c (in ping-sg-1, not in ping-sr-2)"
	headings_are ping-sg-1 ping-post-1 \
		"### replaces ping-sg-1/recv_lists.c: ping-post-1/post_rdma.c, shown whole" \
		"### dropped: ping-sg-1/send_lists.c (in ping-sg-1, not in ping-post-1)"
	headings_are ping-sr-2 ping-wr-1 \
		"### replaces ping-sr-0/queue_pair.c: ping-wr-1/queue_pair_ex.c, shown whole"
	# Turned round, it names what going back drops.
	headings_are ping-sr-3 ping-sr-2 \
		"### replaces ping-sr-3/completions_channel.c: ping-sr-0/completions_busy.c, shown whole" \
		"### dropped: ping-sr-3/cq_events.c (in ping-sr-3, not in ping-sr-2)" \
		"### dropped: ping-sr-3/cq_events.h (in ping-sr-3, not in ping-sr-2)"
	# A piece shown whole is the piece itself, every line of it.
	diff_headings ping-sr-2 ping-sr-3
	assertEquals "cq_events.c shown whole" \
		"$(sed 's/^/+/' "$KIT/ping-sr-3/cq_events.c")" \
		"$(sed -n '/^### added: ping-sr-3\/cq_events.c/,/^###/p' \
			"$WORK/diff.full" | grep '^+' | grep -v '^+++')"
}

# The Makefiles' part of make diff names only what the stage changes: a
# part left to its default (ping-sr-1's posting) is the same as the one
# ping-sr-0 names, and a comment of FROM's on a piece that TO keeps is no
# change of the lesson.
test_make_diff_shows_only_the_makefile_lines_that_change() {
	diff_headings ping-sr-0 ping-sr-1
	awk 'NR > 1 && /^###/ { exit } /^[-+][^-+]/' "$WORK/diff.full" \
		>"$WORK/changed"
	assertEquals "ping-sr-0 to ping-sr-1, the Makefile's changed lines" \
		"$(printf '%s\n' \
			'-# ping-sr-0: the baseline send/recv ping-pong: a client, and a server that' \
			'-# serves one client.' \
			'+# ping-sr-1: the client sends its count and size as connection private' \
			'+# data, and the agent adopts them.' \
			'+# Builds on ping-sr-0.' \
			'-PRIVATE_DATA = ping-sr-0/private_none' \
			'+# New: the client sends count, size and -v; the agent adopts them' \
			'+PRIVATE_DATA = ping-sr-1/private_data' \
			'-RUN_SERVER = ./server -a 192.0.2.1 -c 1000 -v &' \
			'+RUN_SERVER = ./server -a 192.0.2.1 &')" \
		"$(<"$WORK/changed")"
	# A stage that names its own posting shows it in place of the default.
	diff_headings ping-sr-2 ping-sg-1
	assert_output "$WORK/diff.full" \
		'^-POSTING = ping-sr-0/queue_pair ping-sr-0/post_recv$'
	assert_output "$WORK/diff.full" \
		'^\+POSTING = ping-sr-0/queue_pair ping-sg-1/recv_lists ping-sg-1/send_lists$'
}

test_each_stage_tells_editors_the_files_it_compiles() {
	local json=$KIT/ping-sr-3/compile_commands.json

	[ -f "$json" ] || { fail "no ping-sr-3/compile_commands.json"; return; }
	assert_output "$json" "\"file\": \"$KIT/ping-sr-3/completions_channel.c\""
	assert_output "$json" "\"file\": \"$KIT/ping-sr-2/cm_thread.c\""
	assert_output "$json" "-DOUR_STAGE=.*ping-sr-3"
	assertFalse "ping-sr-3 is not told of busy polling" \
		"has_line '$json' 'completions_busy'"
	assertEquals "ping-sr-3 compiles 22 files" 22 \
		"$(grep -c '"file":' "$json")"
}

# rebuilt_by KIT STAGE HEADER OBJECT...: in the kit at KIT, once STAGE is
# built, a change to HEADER (a path in the kit) makes make build each
# OBJECT of STAGE again.
rebuilt_by() {
	local kit=$1 stage=$2 header=$3 objects object
	shift 3

	objects=$(make -n -W "$kit/$header" -C "$kit/$stage" 2>&1 |
		grep -oE -- ' -o \.build/[a-z_]+\.o' | sed 's/.*\///' | sort |
		tr '\n' ' ')
	for object in "$@"; do
		case " $objects" in
		*" $object "*) ;;
		*) fail "${kit#"$WORK/"} $stage: $object is not built again when $header changes (built again: ${objects:-none})" ;;
		esac
	done
}

# A header changed: make builds again every object that includes it,
# the stage's own sources as well as those of other folders. (An object
# left as it was would pass structures laid out the old way.) Also in a
# copy of the kit deep in folders, as a student's may be, where gcc
# writes a long source name on a line of its own in the dependency file.
test_a_changed_header_rebuilds_what_includes_it() {
	local stage deep=$WORK/a-student-s-home/courses/rdma-programming/lab-kit

	for stage in ping-sr-0 ping-sr-3 blast-sr-2; do
		rebuilt_by "$KIT" "$stage" common/control.h \
			client.o server.o buffers.o
	done
	mkdir -p "$deep"
	(cd "$KIT" && cp -r common ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-3 \
		"$deep") &&
		rm -rf "$deep"/*/.build "$deep"/*/client "$deep"/*/server &&
		make -s -j2 -C "$deep/ping-sr-3" >"$WORK/deep.out" 2>&1 ||
		fail "ping-sr-3 does not build deep in folders: $(<"$WORK/deep.out")"
	rebuilt_by "$deep" ping-sr-3 common/control.h \
		client.o cm_thread.o completions_channel.o
}

# make install puts a stage's programs where commands go, and its README
# and single files with the documentation.
test_install_carries_the_programs_and_the_reference_code() {
	local root=$WORK/root file

	make -s -C "$KIT/ping-sr-3" install DESTDIR="$root" PREFIX=/usr \
		>"$WORK/install.out" 2>&1 ||
		fail "make install failed: $(<"$WORK/install.out")"
	for file in bin/ping-sr-3-client bin/ping-sr-3-server \
		share/doc/rdma-kit/ping-sr-3/README.md \
		share/doc/rdma-kit/ping-sr-3/client.c \
		share/doc/rdma-kit/ping-sr-3/server.c; do
		[ -f "$root/usr/$file" ] || fail "make install left out $file"
	done
	cmp -s "$KIT/ping-sr-3/single/client.c" \
		"$root/usr/share/doc/rdma-kit/ping-sr-3/client.c" ||
		fail "the installed client.c is not the single file"
}

. shunit2
