# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# readmes.sh - the READMEs and guide pages that the suites hold to the
# convention of tests/test_readmes.sh, and how the suites read them.
# Sourced after lib.sh by test_readmes.sh (which runs their commands) and
# test_docs.sh (which checks what they name). Each check reads them all
# with one awk.

# The READMEs, from the kit's top, the top one first, then the others
# and the pages of the lab guide, which follow the same convention.
mapfile -t READMES < <(cd "$KIT" && find . -mindepth 1 -maxdepth 4 \
	\( -name README.md -o -path './labs/guide/*.md' \) \
	-not -path './.*' -not -path '*/build/*' | LC_ALL=C sort |
	awk '{ sub(/^\.\//, "") }
	     $0 == "README.md" { print; next } { rest[n++] = $0 }
	     END { for (i = 0; i < n; i++) print rest[i] }')

# readmes_awk PROGRAM [ARGS...]: run awk PROGRAM on every README, from
# the kit's top, one paragraph a record (fenced blocks included), its
# lines joined by spaces.
readmes_awk() {
	local program=$1
	shift
	(cd "$KIT" && awk "$@" 'BEGIN { RS = "" }
		{ gsub(/[ \t]*\n[ \t]*/, " ") }'"$program" "${READMES[@]}")
}

# fail_each: fail once for each line read, the line saying why. Give it
# a file, not a pipe: at the end of a pipe it would run in a subshell,
# and its failures would not count.
fail_each() {
	local why

	while IFS= read -r why; do
		fail "$why"
	done
	return 0
}
