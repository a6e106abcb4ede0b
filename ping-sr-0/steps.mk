# SPDX-License-Identifier: MIT
# The client's and the server's steps, ping-sr-0's client.c and server.c,
# are the same for every stage: a stage's Makefile names its pieces (see
# common/common.mk), then includes this file. Paths start from this
# file's folder, so a Makefile in any folder of the kit can include it
# (the exercises' in labs/exercises/ do).

STEPS_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
PROGRAMS = client server
client_SOURCES = $(STEPS_DIR)client.c
server_SOURCES = $(STEPS_DIR)server.c

include $(STEPS_DIR)../common/common.mk
