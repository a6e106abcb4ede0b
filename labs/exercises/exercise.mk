# SPDX-License-Identifier: MIT
# What every exercise's Makefile shares. An exercise's Makefile names its
# pieces as a stage's does (see common/common.mk): the one the student
# writes or fixes by its bare name, since it lives in the exercise's
# folder, and the kit's by the folder of the stage that introduced them.
# Then it includes this file, which brings the steps every stage is built
# from (ping-sr-0/steps.mk).
#
#   make         build the exercise's client and server in its folder
#   make check   build them, then run the folder's checker on an RDMA
#                stack: in the lab when run on the host, directly when run
#                inside the lab or on a machine with an RDMA device

EXERCISES_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
include $(EXERCISES_DIR)/../../ping-sr-0/steps.mk

.PHONY: check
all: $(EXERCISES_DIR)/verb_log.so
# Where the checker runs: in the lab, unless the exercise's Makefile says
# otherwise (wire-reading's checker boots the two hosts itself).
CHECK_RUN ?= $(KIT)/labs/lab run --
check: all
	$(CHECK_RUN) ./check

# The kit's stages whose programs a checker runs against the student's
# (PEERS, by folder: ../../../ping-rdma-1), built with the exercise.
.PHONY: $(PEERS)
all: $(PEERS)
$(PEERS):
	$(MAKE) -C $@ client server

# The checkers' record of the verbs a program calls (see verb_log.c).
$(EXERCISES_DIR)/verb_log.so: $(EXERCISES_DIR)/verb_log.c
	$(CC) -Wall -Wextra -Werror $(shell pkg-config --cflags librdmacm) \
		-shared -fPIC -o $@ $< -ldl -lpthread
