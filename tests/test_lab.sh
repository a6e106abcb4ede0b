#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The lab and the installer as a user without root meets them: which RDMA
# port the lab picks on a host that has some (fake rdma and ip commands
# stand in for the hardware), the locked memory it asks for, the tools it
# finds outside a user's PATH, and what install-deps tells a user. No test
# needs an RDMA device.
. "$(dirname "$0")/lib.sh"

# The user the lab and the installer run as: this one, or nobody when the
# suite runs as root (as it does in the lab), then free to lock memory if
# root may allow it.
AS_USER=()
if [ "$(id -u)" -eq 0 ]; then
	if prlimit --memlock=unlimited:unlimited true 2>/dev/null; then
		AS_USER=(prlimit --memlock=unlimited:unlimited)
	fi
	AS_USER+=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi

# Stand-ins for a host's commands, first on the PATH of what the tests
# run. They print what the test wrote into $FAKE_HOST (its $WORK):
# `rdma link show` the lines of rdma-link, `ip -o -4 addr show dev NETDEV`
# the lines of ip-addr about NETDEV, `ip -o link show` ip-link. apt-get
# only says that it was run.
FAKE_RDMA='[ "$*" = "link show" ] && exec cat "$FAKE_HOST/rdma-link"
exit 1'
FAKE_IP='case "$*" in
"-o -4 addr show dev "*)
	while read -r index name rest; do
		[ "$name" != "$6" ] || echo "$index $name $rest"
	done <"$FAKE_HOST/ip-addr"
	exit 0 ;;
"-o link show") exec cat "$FAKE_HOST/ip-link" ;;
esac
exit 1'
FAKE_APT_GET='echo "apt-get was run: $*" >&2'

# A copy of the lab's scripts and the fake commands that any user may
# read (the kit itself may be private to its owner); whether that user
# may lock the memory the lab asks for; every package install-deps knows.
oneTimeSetUp() {
	COPY=$(mktemp -d)
	mkdir "$COPY/labs" "$COPY/bin" "$COPY/dpkg"
	cp "$KIT/labs/lab" "$KIT/labs/install-deps" "$COPY/labs/"
	printf '#!/bin/sh\n%s\n' "$FAKE_RDMA" >"$COPY/bin/rdma"
	printf '#!/bin/sh\n%s\n' "$FAKE_IP" >"$COPY/bin/ip"
	printf '#!/bin/sh\n%s\n' "$FAKE_APT_GET" >"$COPY/bin/apt-get"
	: >"$COPY/dpkg/status"
	chmod -R a+rX "$COPY"
	chmod a+x "$COPY"/bin/*
	HARD_MEMLOCK=$("${AS_USER[@]}" bash -c 'ulimit -H -l')
	# With no package installed, install-deps names them all.
	"${AS_USER[@]}" env PATH="$COPY/bin:/usr/bin:/bin" \
		DPKG_ADMINDIR="$COPY/dpkg" "$COPY/labs/install-deps" \
		>"$COPY/all.out" 2>&1
	ALL_PACKAGES=$(apt_get_line "$COPY/all.out")
}

oneTimeTearDown() {
	rm -rf "$COPY"
}

# port DEVICE/PORT STATE [NETDEV]: a line of `rdma link show`, RoCE or iWARP
# (with a netdev) or InfiniBand (without).
port() {
	if [ -n "${3:-}" ]; then
		echo "link $1 state $2 physical_state LINK_UP netdev $3 "
	else
		echo "link $1 subnet_prefix fe80:0000:0000:0000 lid 3 sm_lid 1" \
			"lmc 0 state $2 physical_state LINK_UP "
	fi >>"$WORK/rdma-link"
}

# address NETDEV ADDRESS: a line of `ip -o -4 addr show`.
address() {
	printf '7: %s    inet %s/24 scope global %s\\       valid_lft forever\n' \
		"$1" "$2" "$1" >>"$WORK/ip-addr"
}

# ipoib NETDEV FLAGS: a line of `ip -o link show` for an IPoIB netdev.
ipoib() {
	printf '8: %s: <%s> mtu 2044 qdisc mq state UP\\    link/infiniband %s\n' \
		"$1" "$2" \
		"00:00:10:87:fe:80:00:00:00:00:00:00:b8:ce:f6:03:00:1a:2b:3c" \
		>>"$WORK/ip-link"
}

# open_work [FOLDER...]: the user the lab runs as may read $WORK and each
# FOLDER, and reach $WORK through shunit2's folders, private to us.
open_work() {
	chmod a+rx "$WORK" "$@"
	chmod a+x "$SHUNIT_TMPDIR" "${SHUNIT_TMPDIR%/*}"
}

# pick [ULIMIT_ARGS]: `labs/lab pick-host-device` as a user without root,
# on the fake host, after `ulimit ULIMIT_ARGS` when given; output in
# $WORK/program.out, status in STATUS.
pick() {
	: >>"$WORK/rdma-link"
	: >>"$WORK/ip-addr"
	: >>"$WORK/ip-link"
	open_work
	run_program "${AS_USER[@]}" \
		env PATH="$COPY/bin:/usr/bin:/bin" FAKE_HOST="$WORK" \
		bash -c "${1:+ulimit $1 || exit 99; }exec \"\$0\" pick-host-device" \
		"$COPY/labs/lab"
}

# memlock_allows_the_kit: true when that user may lock the 64 MiB the lab
# asks for; otherwise the test is skipped.
memlock_allows_the_kit() {
	[ "$HARD_MEMLOCK" = unlimited ] || [ "$HARD_MEMLOCK" -ge 65536 ] || {
		skip_test "the hard limit on locked memory (ulimit -H -l) is" \
			"below 64 MiB"
		return 1
	}
}

test_picks_an_active_port_over_a_down_one() {
	memlock_allows_the_kit || return 0
	port mlx5_0/1 DOWN eth1
	port mlx5_1/1 ACTIVE eth2
	address eth1 10.1.0.1
	address eth2 10.2.0.1
	pick
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "the choice" "mlx5_1 10.2.0.1" "$(<"$WORK/program.out")"
}

test_picks_a_port_whose_netdev_has_an_ipv4_address() {
	memlock_allows_the_kit || return 0
	port rxe0/1 ACTIVE eth1
	port mlx5_0/1 ACTIVE eth2
	port mlx5_0/2 ACTIVE eth3
	address eth3 10.3.0.1
	pick
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "the choice" "mlx5_0 10.3.0.1" "$(<"$WORK/program.out")"
}

test_an_infiniband_port_uses_an_ipoib_address() {
	memlock_allows_the_kit || return 0
	# rdma link names no netdev for InfiniBand; ib0 has no carrier.
	port mlx5_0/1 ACTIVE
	ipoib ib0 NO-CARRIER,BROADCAST,MULTICAST,UP
	ipoib ib1 BROADCAST,MULTICAST,UP,LOWER_UP
	address ib0 10.8.0.1
	address ib1 10.9.0.1
	pick
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "the choice" "mlx5_0 10.9.0.1" "$(<"$WORK/program.out")"
}

test_no_usable_port_is_explained_in_one_line() {
	port mlx5_0/1 DOWN eth1
	port rxe0/1 ACTIVE eth2
	address eth1 10.1.0.1
	pick
	assertEquals "exit status; $(<"$WORK/program.out")" 1 "$STATUS"
	assertEquals "lines; $(<"$WORK/program.out")" \
		1 "$(wc -l <"$WORK/program.out")"
	assert_output "$WORK/program.out" "^lab: no RDMA port here is ACTIVE"
	assert_output "$WORK/program.out" "mlx5_0/1 is DOWN"
	assert_output "$WORK/program.out" "rxe0/1: netdev eth2 has no IPv4"
}

test_no_port_at_all_is_explained() {
	pick
	assertEquals "exit status; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" "^lab: rdma link show lists no RDMA port"
}

test_too_little_locked_memory_says_what_to_do() {
	local user advice

	port rxe0/1 ACTIVE eth1
	address eth1 10.1.0.1
	user=$("${AS_USER[@]}" id -un)
	# Soft and hard limit both: a user cannot raise them again.
	pick "-l 1024"
	assertEquals "exit status; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: locked memory \\(ulimit -l\\) is 1024 KiB; .* need 65536 KiB"
	# The exact command, for this user.
	advice="then log in again: echo '$user - memlock unlimited'"
	advice+=" \\| sudo tee /etc/security/limits.d/[a-z-]+\\.conf\$"
	assert_output "$WORK/program.out" "$advice"
}

test_a_low_soft_limit_on_locked_memory_is_raised() {
	memlock_allows_the_kit || return 0
	port rxe0/1 ACTIVE eth1
	address eth1 10.1.0.1
	pick "-S -l 1024"
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "the choice" "rxe0 10.1.0.1" "$(<"$WORK/program.out")"
}

test_lab_finds_modprobe_and_depmod_outside_a_users_path() {
	[ -s "$KIT/.cache/lab/kernel.version" ] || {
		skip_test "needs the lab's kernel in .cache/ (make lab once)"
		return
	}
	# Debian keeps them in /sbin and /usr/sbin, which a user's PATH lacks.
	run_program env PATH=/usr/bin:/bin "$KIT/labs/lab" prepare
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertFalse "a tool is missing: $(<"$WORK/program.out")" \
		"grep -q missing '$WORK/program.out'"
}

# dpkg_has PACKAGE...: a dpkg database in $WORK/dpkg in which exactly these
# packages are installed (dpkg-query reads the one DPKG_ADMINDIR names).
dpkg_has() {
	local package

	mkdir -p "$WORK/dpkg"
	for package in "$@"; do
		printf 'Package: %s\nStatus: install ok installed\n' "$package"
		printf 'Version: 1\nArchitecture: all\nMaintainer: none\n'
		printf 'Description: none\n\n'
	done >"$WORK/dpkg/status"
}

# install_deps [USE...]: labs/install-deps USE... as a user without root,
# from the top of the kit, on the database dpkg_has wrote; output in
# $WORK/program.out, status in STATUS.
install_deps() {
	open_work "$WORK/dpkg"
	run_program "${AS_USER[@]}" env PATH="$COPY/bin:/usr/bin:/bin" \
		DPKG_ADMINDIR="$WORK/dpkg" \
		bash -c 'cd "$0" && labs/install-deps "$@"' "$COPY" "$@"
}

# apt_get_line [FILE]: the packages of the apt-get command install-deps
# printed into FILE ($WORK/program.out by default).
apt_get_line() {
	sed -n 's/^  apt-get update && apt-get install -y --no-install-recommends //p' \
		"${1:-$WORK/program.out}"
}

test_install_deps_tells_a_user_what_to_run_as_root() {
	assertContains "every package: $(<"$COPY/all.out")" \
		" $ALL_PACKAGES " " valgrind "
	dpkg_has
	install_deps
	assertEquals "exit status; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" "^  sudo labs/install-deps\$"
	assertEquals "packages to install" "$ALL_PACKAGES" "$(apt_get_line)"
	assert_output "$WORK/program.out" "make check .*as yourself"
	assertFalse "it ran apt-get: $(<"$WORK/program.out")" \
		"grep -q 'apt-get was run' '$WORK/program.out'"
}

test_install_deps_names_only_the_missing_packages() {
	# shellcheck disable=SC2086 # one package per word
	dpkg_has $(echo " $ALL_PACKAGES " | sed 's/ valgrind / /')
	install_deps test
	assertEquals "exit status; $(<"$WORK/program.out")" 1 "$STATUS"
	assert_output "$WORK/program.out" "^  sudo labs/install-deps test\$"
	assertEquals "packages to install" valgrind "$(apt_get_line)"
}

test_install_deps_is_silent_when_all_is_installed() {
	# shellcheck disable=SC2086 # one package per word
	dpkg_has $ALL_PACKAGES
	install_deps
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "output" "" "$(<"$WORK/program.out")"
}

. shunit2
