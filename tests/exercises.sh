# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# exercises.sh - how an exercise's checker is proved, sourced after
# lib.sh by test_exercises.sh and test_rnr_retry.sh: on its starter, as a
# student gets it, the checker fails, names the symptom the student is
# meant to see; with the solution applied (labs/solutions/NAME.patch),
# every check passes; on each way around the lesson kept beside the
# solution (labs/solutions/NAME.gaming/ATTEMPT.patch), it fails as the
# attempt's `expect:` lines say; every PASS and FAIL line its README
# shows is one of those runs' lines. Nothing is compiled here:
# `labs/exercises/prove prepare` builds the copies on the host beforehand
# (make check runs it), into .cache/exercises/starter, .../solution and
# .../gaming/NAME/ATTEMPT.

COPIES=${OUR_EXERCISE_COPIES:-$KIT/.cache/exercises}

# run_checker CHECK: the checker CHECK, bounded by CHECKER_LIMIT
# seconds; its output in $WORK/check.out, its exit status in
# $WORK/check.status. Every program a checker starts has a limit of its
# own, far shorter: a checker that nears its own waits where none of
# them reaches, so what the lab was doing then (lab_state) goes to
# $WORK/check.hang, for the failure to show (checker_said).
CHECKER_LIMIT=300
run_checker() {
	local watch

	rm -f "$WORK/check.hang"
	(nap $((CHECKER_LIMIT - 1 - CHECKER_LIMIT / 30))
	 lab_state >"$WORK/check.hang" 2>&1) &
	watch=$!
	timeout -k 5 "$CHECKER_LIMIT" "$1" >"$WORK/check.out" 2>&1
	echo $? >"$WORK/check.status"
	kill "$watch" 2>/dev/null
	wait "$watch" 2>/dev/null
	return 0 # the checker's status is in its file; callers go on
}

# lab_state: every process, with its state, its CPU time and where in the
# kernel it sleeps; the kernel stacks of those running or in a wait no
# signal ends; the kernel's last lines.
lab_state() {
	local stat line state

	echo "--- the lab at $(date +%T), the checker near its limit:"
	ps -eo pid,ppid,stat,etimes,time,wchan:24,args
	for stat in /proc/[0-9]*/stat; do
		read -r line <"$stat" 2>/dev/null || continue
		state=${line##*) }
		case $state in
		R* | D*)
			echo "--- ${line%%) *}) ${state%% *}, in the kernel:"
			cat "${stat%stat}stack" 2>/dev/null
			;;
		esac
	done
	echo "--- the kernel's last lines:"
	dmesg 2>/dev/null | tail -n 20
}

# checker_said: what the last checker printed, and the state of the lab
# if it neared its limit.
checker_said() {
	cat "$WORK/check.out" "$WORK/check.hang" 2>/dev/null
}

# checker_run KIND: NAME's checker in the KIND copy, on ports of its own
# (see run_checker).
checker_run() {
	OUR_CHECK_PORT=$PORT run_checker \
		"$COPIES/$1/labs/exercises/$NAME/check"
}

# checker_result KIND: what checker_run KIND left, checked: the starter's
# checker fails, with a FAIL line for each check that fails and each
# symptom of SYMPTOMS among what it saw, and keeps the programs' outputs
# in the folder it names; the solution's passes every check and keeps
# none.
checker_result() {
	local status symptom kept=labs/exercises/$NAME/check-outputs

	status=$(cat "$WORK/check.status" 2>/dev/null)
	sed -E 's/[0-9]+/N/g' "$WORK/check.out" >>"$PRINTED"
	echo "  $NAME, $1: $(tail -n 1 "$WORK/check.out")"
	if [ "$1" = starter ]; then
		assertEquals "the checker on the starter of $NAME; $(checker_said)" \
			1 "$status"
		assert_output "$WORK/check.out" "^FAIL: .* \(hint: .*\)\$"
		for symptom in "${SYMPTOMS[@]}"; do
			assert_output "$WORK/check.out" "$symptom"
		done
		assert_output "$WORK/check.out" "^$NAME: [0-9]+ passed, [1-9][0-9]* failed\$"
		assert_output "$WORK/check.out" "^outputs kept in $kept/ "
		assertTrue "the programs' outputs kept in $kept/" \
			"[ -n \"\$(ls \"$COPIES/$1/$kept\"/*.out 2>/dev/null)\" ]"
	else
		assertEquals "the checker with the solution of $NAME; $(checker_said)" \
			0 "$status"
		assert_no_output "$WORK/check.out" "^FAIL: "
		assert_output "$WORK/check.out" "^$NAME: [1-9][0-9]* passed, 0 failed\$"
		assertFalse "no outputs kept after a pass" "[ -e \"$COPIES/$1/$kept\" ]"
	fi
}

# readme_sample_printed: each PASS and FAIL line that NAME's README
# shows of its checker is one the checker printed on the starter or the
# solution ($PRINTED, as checker_result keeps them), the numbers aside
# (a run may draw some); a hint shown as "..." is left to the student,
# and only the words before it are compared.
readme_sample_printed() {
	local line

	awk '/^```/ { inside = !inside; next }
	     inside && /^(PASS|FAIL): / { print }' \
		"$KIT/labs/exercises/$NAME/README.md" | sed -E 's/[0-9]+/N/g' >"$WORK/sample"
	while IFS= read -r line; do
		case $line in
		*"(hint: ...)") grep -qF -- "${line%"(hint: ...)"}(hint: " "$PRINTED" ;;
		*) grep -qxF -- "$line" "$PRINTED" ;;
		esac || fail "$NAME's README shows '$line', which its checker printed neither on the starter nor on the solution: $(<"$PRINTED")"
	done <"$WORK/sample"
}

# prove NAME SYMPTOM...: the checker of exercise NAME on its starter and
# on its solution, side by side; with PROVE_APART set, one after the
# other.
prove() {
	require_rdma || return 0
	NAME=$1
	SYMPTOMS=("${@:2}")
	if [ ! -x "$COPIES/starter/labs/exercises/$NAME/client" ] ||
		[ ! -x "$COPIES/solution/labs/exercises/$NAME/client" ]; then
		fail "no built copies of $NAME in ${COPIES#"$KIT/"}: run labs/exercises/prove prepare on the host first (make check does)"
		return
	fi
	PRINTED=$WORK/printed
	: >"$PRINTED"
	if [ -n "${PROVE_APART:-}" ]; then
		checker_run starter && checker_result starter
		checker_run solution && checker_result solution
	else
		at_once checker_run checker_result starter solution
	fi
	readme_sample_printed
}

# The exercises whose checkers run only in the two-host lab (see
# test_rnr_retry.sh): their attempts are proved there.
PAIR_EXERCISES="rnr-retry wire-reading"

# expected ATTEMPT: the `expect:` lines of ATTEMPT's patch (NAME/ATTEMPT),
# the extended regexes its checker's output must match, one a line.
expected() {
	sed -n -e '/^\(--- \|diff \)/q' -e 's/^expect: //p' \
		"$KIT/labs/solutions/${1%/*}.gaming/${1#*/}.patch"
}

# attempt_run ATTEMPT: the checker of ATTEMPT's exercise in its copy, on
# ports of its own; what checker_run leaves.
attempt_run() {
	OUR_CHECK_PORT=$PORT run_checker \
		"$COPIES/gaming/$1/labs/exercises/${1%/*}/check"
}

# attempt_result ATTEMPT: the checker failed, as each expect line says.
attempt_result() {
	local status regex

	status=$(cat "$WORK/check.status" 2>/dev/null)
	echo "  ${1%/*}, gaming $1: $(tail -n 1 "$WORK/check.out")"
	assertEquals "the checker on the way around ${1%/*}'s lesson, $1; $(checker_said)" \
		1 "$status"
	while IFS= read -r regex; do
		assert_output "$WORK/check.out" "$regex"
	done < <(expected "$1")
}

# prove_attempts_apart NAME: every way around the lesson of exercise
# NAME, one of the two-host lab (PAIR_EXERCISES), one at a time.
prove_attempts_apart() {
	local patch attempt

	require_rdma || return 0
	for patch in "$KIT/labs/solutions/$1.gaming"/*.patch; do
		attempt=${patch##*/}
		attempt=$1/${attempt%.patch}
		if [ ! -x "$COPIES/gaming/$attempt/labs/exercises/$1/client" ]; then
			fail "no built copy of $attempt in ${COPIES#"$KIT/"}: run labs/exercises/prove prepare on the host first"
			continue
		fi
		[ -n "$(expected "$attempt")" ] ||
			fail "labs/solutions/$1.gaming/${patch##*/}: no expect line"
		attempt_run "$attempt" && attempt_result "$attempt"
	done
}

# prove_attempts: every way around a lesson kept beside the solutions,
# two checkers at a time, each attempt in its own copy.
prove_attempts() {
	local patch attempt name attempts=()

	require_rdma || return 0
	for patch in "$KIT"/labs/solutions/*.gaming/*.patch; do
		[ -f "$patch" ] || continue
		name=${patch%.gaming/*}
		name=${name##*/}
		attempt=${patch##*/}
		attempt=$name/${attempt%.patch}
		[[ " $PAIR_EXERCISES " = *" $name "* ]] && continue
		if [ ! -x "$COPIES/gaming/$attempt/labs/exercises/$name/client" ]; then
			fail "no built copy of $attempt in ${COPIES#"$KIT/"}: run labs/exercises/prove prepare on the host first"
			continue
		fi
		if [ -z "$(expected "$attempt")" ]; then
			fail "labs/solutions/$name.gaming/${attempt#*/}.patch: no expect line"
			continue
		fi
		attempts+=("$attempt")
	done
	[ ${#attempts[@]} -gt 0 ] || return 0
	at_once attempt_run attempt_result "${attempts[@]}"
}
