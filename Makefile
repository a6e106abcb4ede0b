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
#
# demo, check and lab first install what is missing when run as root; run
# by anyone else, they print the command to run once as root (sudo
# labs/install-deps) and stop. Run them as yourself, so that the files
# they make in the kit are yours. Each stage also builds on its own:
# make -C ping-sr-0.

# The folders with programs to install; tests/ builds a test client too.
STAGES = devices ping-sr-0 ping-sr-1 ping-sr-2 ping-sr-3 ping-sr-4 blast-sr-2
BUILT = $(STAGES) tests
LAB = labs/lab

.PHONY: all deps demo check lab install clean diff single slides $(BUILT)

all: $(BUILT)

$(BUILT):
	$(MAKE) -C $@

deps:
	labs/install-deps build test lab

demo: deps
	$(MAKE) all
	$(LAB) run -- labs/demo

# The decks, the guide and the exercises' starters and solutions (in
# .cache/exercises) are built on the host: the suites check them in the
# lab, where compiling is slow.
check: deps
	$(MAKE) all single slides
	labs/exercises/prove prepare
	$(LAB) run -- tests/run

lab: deps
	$(MAKE) all
	$(LAB) shell

single: all
	for stage in $(STAGES); do $(MAKE) -C $$stage single || exit 1; done

slides:
	labs/install-deps slides
	$(MAKE) -C slides all guide

# What stage TO adds to stage FROM: make diff FROM=ping-sr-2 TO=ping-sr-3
diff:
	@labs/stage-diff $(FROM) $(TO)

install: all
	for stage in $(STAGES); do $(MAKE) -C $$stage install || exit 1; done

clean:
	for stage in $(BUILT); do $(MAKE) -C $$stage clean || exit 1; done
	$(MAKE) -C slides clean
