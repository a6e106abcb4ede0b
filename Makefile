# SPDX-License-Identifier: MIT
# The RDMA teaching kit: build every stage, run the demo, run the tests.
#
#   make demo    build, bring up an RDMA stack, run a verified ping-pong
#   make check   build, bring up an RDMA stack, run the test suites
#   make lab     an interactive shell on the Soft-RoCE lab
#   make diff FROM=ping-sr-2 TO=ping-sr-3   what a stage adds
#   make single  each program in one C file to copy: STAGE/single/
#   make slides  the course's decks into slides/build/, the lab guide
#                into labs/guide/build/
#   make handout the students' copy, without the answer key or the
#                solutions: build/handout/rdma-kit/ and its .tar.gz
#
# demo, check and lab first install what is missing when run as root; run
# by anyone else, they print the command to run once as root (sudo
# labs/install-deps) and stop. Run them as yourself, so that the files
# they make in the kit are yours. Each stage also builds on its own:
# make -C ping-sr-0.

# The folders with programs to install; tests/ builds a test client too.
STAGES = devices ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-3 ping-sr-4 blast-sr-2 \
	ping-rdma-1 ping-rdma-2 blast-rdma-1 atomic-1 pubsub-rdma-1 \
	ping-sg-1 ping-post-1 ping-wr-1
BUILT = $(STAGES) tests
LAB = labs/lab
# make check builds on every CPU of the host.
JOBS := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
SINGLE = $(STAGES:%=single-%)

.PHONY: all deps demo check lab install clean diff single slides proofs handout \
	$(BUILT) $(SINGLE)

all: $(BUILT)

$(BUILT):
	$(MAKE) -C $@

deps:
	labs/install-deps build test lab

demo: deps
	$(MAKE) all
	$(LAB) run -- labs/demo

# The programs, the decks, the guide and the exercises' starters and
# solutions (in .cache/exercises) are built on the host: the suites check
# them in the lab, where compiling is slow. Then three runs at once, each
# keeping its results, and the last line counts them all. On the host,
# the suites that need no RDMA device run (the layout, the slides, what
# the READMEs name). The two-host lab (labs/lab pair) runs the suites of
# two hosts on a wire, the READMEs' blocks for two hosts, and the proof
# of a checker that counts the device's RNR NAKs; the one-guest lab runs
# the others. The outputs of the first two are kept until the end. The
# pair's suites run one at a time (its guests have a CPU each): a capture
# of the link must hold one run's packets alone. The single files' suite
# and the bad input's need one device only, but the valgrind runs of the
# first are a quarter of the one guest's CPU time, and the pair would
# otherwise end long before the one guest: they run on host a too.
# Each lab run is bounded as a whole (LAB_TIMEOUT) only to stop a stuck
# guest, as every test bounds its own programs: the one guest's suites
# took 17 minutes on one idle 2-core machine and 50 on a slower one, so
# check gives each run 80 minutes unless LAB_TIMEOUT says otherwise.
CHECK_TIMEOUT = $${LAB_TIMEOUT:-4800}
PAIR_SUITES = tests/test_two_hosts.sh tests/test_wire.sh tests/test_bad_link.sh \
	tests/test_rnr_retry.sh tests/test_wire_reading.sh tests/test_readmes.sh \
	tests/test_single.sh tests/test_bad_input.sh
RESULTS = .cache/tests
check: deps
	$(MAKE) -j$(JOBS) -Otarget all single slides proofs
	mkdir -p $(RESULTS)
	rm -f $(RESULTS)/host.results $(RESULTS)/pair.results \
		$(RESULTS)/lab.results $(RESULTS)/pair.log $(RESULTS)/host.log
	tests/run --host-only --results $(RESULTS)/host.results \
		>$(RESULTS)/host.log 2>&1 & \
	LAB_TIMEOUT=$(CHECK_TIMEOUT) $(LAB) pair run -- tests/run \
		--results $(RESULTS)/pair.results $(PAIR_SUITES) \
		>$(RESULTS)/pair.log 2>&1 & \
	LAB_TIMEOUT=$(CHECK_TIMEOUT) $(LAB) run -- tests/run --no-host \
		--results $(RESULTS)/lab.results; \
	wait; echo "=== on the host:"; cat $(RESULTS)/host.log; \
	echo "=== the two-host lab:"; cat $(RESULTS)/pair.log
	tests/run --count $(RESULTS)/host.results $(RESULTS)/pair.results \
		$(RESULTS)/lab.results

lab: deps
	$(MAKE) all
	$(LAB) shell

single: $(SINGLE)

$(SINGLE): single-%: %
	$(MAKE) -C $* single

# The copies of the kit in which the suite proves the exercises' checkers
# (prove runs its own parallel make).
proofs:
	MAKEFLAGS= labs/exercises/prove prepare

slides:
	labs/install-deps slides
	$(MAKE) -C slides all guide

# The students' copy (labs/handout): the kit's files with the guide's
# pages and the decks built first, but the answer key and the solutions.
HANDOUT = build/handout
handout: slides
	labs/handout $(HANDOUT)

# What stage TO adds to stage FROM: make diff FROM=ping-sr-2 TO=ping-sr-3
diff:
	@labs/stage-diff $(FROM) $(TO)

install: all
	for stage in $(STAGES); do $(MAKE) -C $$stage install || exit 1; done

clean:
	for stage in $(BUILT); do $(MAKE) -C $$stage clean || exit 1; done
	$(MAKE) -C slides clean
	rm -rf $(HANDOUT)
