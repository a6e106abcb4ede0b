#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the lab boots its guest on: KVM where a probe brings the guest up
# on it, TCG emulation elsewhere, the answer kept in .cache/lab/accel;
# LAB_ACCEL decides when set. And how the two hosts of `labs/lab pair`
# are linked: over 127.0.0.1 alone, on two UDP ports that no one else
# holds. A stand-in QEMU hangs on KVM, or boots the guest there, as a
# test says; a character device anyone may open (/dev/null) stands in
# for /dev/kvm. Nothing is booted, so make check runs these on the host.
# tests/run: host
. "$(dirname "$0")/lib.sh"

# QEMU: --version; else it notes the accelerator it was given in
# $FAKE_HOST/qemu.log (and its -netdev in netdev.log, its -append in
# append.log, its -smp and -m in size.log) and "boots" the guest: on KVM it hangs unless
# FAKE_KVM is works; otherwise it leaves the command's status 0 where the
# guest would (in the run directory that -append names, beside -initrd).
FAKE_QEMU='[ "$1" = --version ] && echo "QEMU emulator version 0.0 (fake)" && exit
accel= run= cache= size=
while [ $# -gt 0 ]; do
	case $1 in
	-accel) accel=${2%%,*} ;;
	-append) run=${2##*lab.run=} run=${run%% *}
		echo "$2" >>"$FAKE_HOST/append.log" ;;
	-netdev) echo "$2" >>"$FAKE_HOST/netdev.log" ;;
	-smp) size="-smp $2" ;;
	-m) size="$size -m $2" ;;
	-initrd) cache=${2%/*} ;;
	esac
	shift
done
echo "$accel" >>"$FAKE_HOST/qemu.log"
echo "$size" >>"$FAKE_HOST/size.log"
[ "$accel" = kvm ] && [ "${FAKE_KVM:-}" != works ] && exec sleep 600
echo 0 >"$cache/$run/status"'

# A copy of the lab whose KVM is the device a test names (none unless
# named), with the stand-in QEMU, and a cache that holds a kernel with
# nothing in it: the stand-in boots none.
oneTimeSetUp() {
	COPY=$(mktemp -d)
	mkdir -p "$COPY/labs" "$COPY/bin" \
		"$COPY/.cache/lab/kernel/lib/modules/0.0-fake"
	cp "$KIT/labs/lab" "$KIT/labs/guest-init" "$COPY/labs/"
	sed -i 's|^KVM_DEVICE=/dev/kvm$|KVM_DEVICE=${FAKE_KVM_DEVICE:-/none}|' \
		"$COPY/labs/lab"
	printf '#!/bin/bash\n%s\n' "$FAKE_QEMU" >"$COPY/bin/qemu-system-x86_64"
	chmod a+x "$COPY/bin/qemu-system-x86_64"
	: >"$COPY/.cache/lab/kernel/lib/modules/0.0-fake/modules.dep"
	: >"$COPY/.cache/lab/vmlinux-0.0-fake.none"
	echo 0.0-fake >"$COPY/.cache/lab/kernel.version"
}

oneTimeTearDown() {
	rm -rf "$COPY"
}

# accel [ENV...]: `labs/lab accel` with ENV; the stand-in QEMU logs into
# $WORK/qemu.log; output in $WORK/program.out, status in STATUS.
accel() {
	: >"$WORK/qemu.log"
	run_program env -u LAB_ACCEL -u LAB_KVM_PROBE -u LAB_QUIET \
		PATH="$COPY/bin:$PATH" FAKE_HOST="$WORK" "$@" \
		"$COPY/labs/lab" accel
}

test_the_lab_tries_kvm_once_and_keeps_the_answer() {
	rm -f "$COPY/.cache/lab/accel"
	accel FAKE_KVM_DEVICE=/dev/null LAB_KVM_PROBE=2
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "the accelerator; $(<"$WORK/program.out")" tcg \
		"$(tail -n 1 "$WORK/program.out")"
	assertEquals "the probe" kvm "$(<"$WORK/qemu.log")"
	assert_output "$WORK/program.out" \
		"^lab: KVM did not bring the guest up: the lab emulates with TCG"
	# Asked again: the answer kept, no probe.
	accel FAKE_KVM_DEVICE=/dev/null FAKE_KVM=works
	assertEquals "the kept answer; $(<"$WORK/program.out")" tcg \
		"$(<"$WORK/program.out")"
	assertEquals "no second probe" "" "$(<"$WORK/qemu.log")"
	# LAB_ACCEL decides without a probe.
	accel FAKE_KVM_DEVICE=/dev/null LAB_ACCEL=kvm
	assertEquals "LAB_ACCEL; $(<"$WORK/program.out")" kvm \
		"$(<"$WORK/program.out")"
}

test_the_lab_uses_kvm_where_the_probe_brings_the_guest_up() {
	rm -f "$COPY/.cache/lab/accel"
	accel FAKE_KVM_DEVICE=/dev/null FAKE_KVM=works
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "the accelerator; $(<"$WORK/program.out")" kvm \
		"$(tail -n 1 "$WORK/program.out")"
	assert_output "$WORK/program.out" "^lab: KVM works here"
	assertEquals "the probe" kvm "$(<"$WORK/qemu.log")"
	# No KVM device to open: emulation, without a probe.
	rm -f "$COPY/.cache/lab/accel"
	accel FAKE_KVM_DEVICE=/nonexistent FAKE_KVM=works
	assertEquals "no KVM; $(<"$WORK/program.out")" tcg \
		"$(<"$WORK/program.out")"
	assertEquals "no probe without KVM" "" "$(<"$WORK/qemu.log")"
}

test_the_lab_refuses_a_bad_accelerator_or_probe_time() {
	accel FAKE_KVM_DEVICE=/dev/null LAB_ACCEL=hvf
	assertEquals "exit status; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: LAB_ACCEL must be tcg or kvm, not 'hvf'\$"
	accel FAKE_KVM_DEVICE=/dev/null LAB_KVM_PROBE=0
	assertEquals "exit status; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: LAB_KVM_PROBE must be a number of seconds, not '0'\$"
}

# lab ARGS...: `labs/lab ARGS` in the copy (from its top), on TCG, with
# the stand-in QEMU; output in $WORK/program.out, status in STATUS.
lab() {
	: >"$WORK/netdev.log"
	: >"$WORK/append.log"
	: >"$WORK/size.log"
	cd "$COPY" || return
	run_program env -u LAB_LINK_PORT -u LAB_PAIR -u LAB_HOST \
		-u LAB_MEMORY -u LAB_CPUS \
		PATH="$COPY/bin:$PATH" FAKE_HOST="$WORK" LAB_ACCEL=tcg \
		LAB_QUIET=1 "${LAB_ENV[@]}" "$COPY/labs/lab" "$@"
	cd - >/dev/null || return
}

# free_ports: two free UDP ports of 127.0.0.1 in a row, the first
# printed.
free_ports() {
	python3 -c '
import socket
for port in range(42000, 60000, 2):
    try:
        for p in (port, port + 1):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", p))
            s.close()
    except OSError:
        continue
    print(port)
    break'
}

test_a_pair_links_its_two_guests_over_loopback_alone() {
	local port

	port=$(free_ports)
	LAB_ENV=(LAB_LINK_PORT="$port")
	lab pair run -- true
	assertEquals "exit status; $(<"$WORK/program.out")" 0 "$STATUS"
	# The serving guest (host b) starts first, then host a.
	assertEquals "the links" "\
dgram,id=link,local.type=inet,local.host=127.0.0.1,local.port=$((port + 1)),remote.type=inet,remote.host=127.0.0.1,remote.port=$port
dgram,id=link,local.type=inet,local.host=127.0.0.1,local.port=$port,remote.type=inet,remote.host=127.0.0.1,remote.port=$((port + 1))" \
		"$(<"$WORK/netdev.log")"
	assert_output "$WORK/append.log" " lab\.run=run-[^ /]+/b lab\.host=b\$"
	assert_output "$WORK/append.log" " lab\.run=run-[^ /]+/a lab\.host=a\$"
	# The single guest has no link.
	LAB_ENV=()
	lab run -- true
	assertEquals "one guest; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "one guest, no link" "" "$(<"$WORK/netdev.log")"
}

# The guest's size: LAB_MEMORY (MiB) and LAB_CPUS reach QEMU's command
# line, for the one guest and for each host of a pair, the defaults
# otherwise; a value the machine cannot give is refused, nothing booted.
test_lab_memory_and_lab_cpus_size_the_guests() {
	local port bad

	LAB_ENV=(LAB_GUEST=1)
	lab run -- true
	assertEquals "one guest; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "the one guest's default" "-smp 2 -m 4096" \
		"$(<"$WORK/size.log")"
	LAB_ENV=(LAB_GUEST=1 LAB_MEMORY=1536 LAB_CPUS=1)
	lab run -- true
	assertEquals "one guest, sized; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "the one guest, sized" "-smp 1 -m 1536" \
		"$(<"$WORK/size.log")"
	port=$(free_ports)
	LAB_ENV=(LAB_LINK_PORT="$port")
	lab pair run -- true
	assertEquals "a pair; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "a pair's default" "-smp 1 -m 2048
-smp 1 -m 2048" "$(<"$WORK/size.log")"
	LAB_ENV=(LAB_LINK_PORT="$port" LAB_MEMORY=1024)
	lab pair run -- true
	assertEquals "a pair, sized; $(<"$WORK/program.out")" 0 "$STATUS"
	assertEquals "a pair, sized" "-smp 1 -m 1024
-smp 1 -m 1024" "$(<"$WORK/size.log")"
	for bad in 0 511 two 4G 1024.5 99999999; do
		LAB_ENV=(LAB_GUEST=1 LAB_MEMORY="$bad")
		lab run -- true
		assertEquals "LAB_MEMORY=$bad; $(<"$WORK/program.out")" 125 "$STATUS"
		assert_output "$WORK/program.out" \
			"^lab: LAB_MEMORY must be MiB from 512 to [0-9]+ \\(this machine's memory\\), not '$bad'\$"
		assertEquals "LAB_MEMORY=$bad: nothing booted" "" "$(<"$WORK/size.log")"
	done
	for bad in 0 two 1.5 99999; do
		LAB_ENV=(LAB_LINK_PORT="$port" LAB_CPUS="$bad")
		lab pair run -- true
		assertEquals "LAB_CPUS=$bad; $(<"$WORK/program.out")" 125 "$STATUS"
		assert_output "$WORK/program.out" \
			"^lab: LAB_CPUS must be from 1 to [0-9]+ \\(this machine's CPUs\\), not '$bad'\$"
		assertEquals "LAB_CPUS=$bad: nothing booted" "" "$(<"$WORK/size.log")"
	done
}

test_a_pair_refuses_a_port_someone_holds_and_bad_requests() {
	local port holder

	port=$(free_ports)
	python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", int(sys.argv[1])))
print("bound", flush=True)
time.sleep(60)' $((port + 1)) >"$WORK/holder.out" &
	holder=$!
	wait_for_line "$WORK/holder.out" '^bound$' "$holder" 10
	LAB_ENV=(LAB_LINK_PORT="$port")
	lab pair run -- true
	kill "$holder"
	wait "$holder" 2>/dev/null
	assertEquals "a port taken; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: UDP port $port or $((port + 1)) of 127\\.0\\.0\\.1 is taken \\(another pair's link\\?\\): stop that lab, or set LAB_LINK_PORT to another port\$"
	assertEquals "nothing booted" "" "$(<"$WORK/append.log")"
	LAB_ENV=(LAB_LINK_PORT=80)
	lab pair run -- true
	assertEquals "port 80; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: LAB_LINK_PORT must be a port from 1024 to 65534, not '80'\$"
	LAB_ENV=()
	lab pair start
	assertEquals "pair start; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" "^lab: pair: run or shell, not 'start'"
	lab pair shell c
	assertEquals "pair shell c; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: the hosts of a pair are a and b, not 'c'\$"
	lab on b -- true
	assertEquals "on, outside a pair; $(<"$WORK/program.out")" 125 "$STATUS"
	assert_output "$WORK/program.out" \
		"^lab: on: only inside the two hosts of labs/lab pair"
}

. shunit2
