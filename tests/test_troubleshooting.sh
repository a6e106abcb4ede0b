#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The troubleshooting page quotes the kit's messages word for word: a
# student searches it for the line the program printed. Every line of
# its ```text blocks that starts with `client: `, `server: ` or
# `devices: ` must be one the kit's code can print: a format string of
# the kit's (its %s, %d and the like standing for any text) or, for a
# verb that failed, such a string followed by ": " and the system's
# reason. No device is needed: make check runs this on the host.
# tests/run: host
. "$(dirname "$0")/lib.sh"

PAGE=$KIT/labs/guide/troubleshooting.md

# quoted_messages: the page's quoted messages, one a line, the program's
# name first.
quoted_messages() {
	awk '/^```/ { text = !text && $0 == "```text"; next }
		text && /^(client|server|devices): / { print }' "$PAGE"
}

# unprinted FILE: the lines of FILE (messages, the program's name first)
# that the kit's code cannot print. A message is the kit's when one of
# its format strings (adjacent literals joined, comments left out), its
# conversions (%s, %d, ...) standing for any text, makes the whole of it,
# or the whole of it but ": " and a reason (a verb that failed). A
# format with too little text of its own (the verbs' "%s %s") is taken
# with its first %s one of the kit's words, a verb's name.
unprinted() {
	(cd "$KIT" && find common devices ping-* blast-* atomic-* pubsub-* \
		-name single -prune -o -name '*.c' -print) >"$WORK/sources"
	(cd "$KIT" && python3 -c '
import re, sys
literal = r"\"(?:[^\"\\\n]|\\.)*\""
joined = re.compile(r"%s(?:\s*%s)*" % (literal, literal))
conversion = re.compile(r"%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?"
                        r"(?:hh|h|ll|l|z|j|t)?[diouxXscp%]")
texts = set()
for name in open(sys.argv[1]).read().split():
    source = re.sub(r"/\*.*?\*/|//[^\n]*", " ", open(name).read(), flags=re.S)
    for found in joined.finditer(source):
        texts.add("".join(t[1:-1] for t in re.findall(literal, found.group(0))))
words = "|".join(sorted(t for t in texts if re.fullmatch(r"[a-z_]{4,}", t)))
patterns = []
for text in texts:
    pattern, last = "", 0
    for c in conversion.finditer(text):
        pattern += re.escape(text[last:c.start()])
        pattern += "%" if c.group(0) == "%%" else ".*"
        last = c.end()
    pattern += re.escape(text[last:])
    if len(re.sub(r"[^a-z]", "", conversion.sub("", text))) < 8:
        if not pattern.startswith(".*") or "%" not in text:
            continue
        pattern = "(?:%s)" % words + pattern[2:]
    patterns.append(re.compile("(?:%s)(?:: .*)?" % pattern))
for line in open(sys.argv[2]).read().splitlines():
    message = line.split(": ", 1)[1]
    if not any(p.fullmatch(message) for p in patterns):
        print(line)
' "$WORK/sources" "$1")
}

test_the_page_quotes_messages() {
	local count

	count=$(quoted_messages | wc -l)
	# The page quotes at least the cases it is known for.
	[ "$count" -ge 20 ] ||
		fail "only $count messages quoted in $PAGE: $(quoted_messages)"
	assertTrue "a remote access error is quoted" \
		"quoted_messages | grep -q 'remote access error (status 10'"
	assertTrue "an unreachable network is quoted" \
		"quoted_messages | grep -q 'rdma_resolve_addr .*: Network is unreachable'"
}

test_every_quoted_message_is_one_the_kit_prints() {
	quoted_messages >"$WORK/quoted"
	unprinted "$WORK/quoted" >"$WORK/unprinted" ||
		fail "the check itself failed: $(<"$WORK/unprinted")"
	assertEquals "quoted on the page, printed nowhere in the kit" "" \
		"$(<"$WORK/unprinted")"
}

# The check can fail: a message the kit does not print is caught, one
# it prints is not.
test_a_message_the_kit_does_not_print_is_caught() {
	printf '%s\n' "client: no route to 192.0.2.2:12321" \
		"client: rdma_connect 192.0.2.1:12321: Connection refused" \
		"client: the moon is unreachable: ask an astronaut" \
		"client: rdma_frobnicate 192.0.2.1:12321: Connection refused" \
		>"$WORK/messages"
	assertEquals "the messages the kit cannot print" \
		"client: the moon is unreachable: ask an astronaut
client: rdma_frobnicate 192.0.2.1:12321: Connection refused" \
		"$(unprinted "$WORK/messages")"
}

. shunit2
