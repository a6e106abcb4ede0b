# SPDX-License-Identifier: MIT
# The client's and the server's steps, ping-sr-0's client.c and server.c,
# are the same for every stage: a stage's Makefile names its pieces (see
# common/common.mk), then includes this file.

PROGRAMS = client server
client_SOURCES = ../ping-sr-0/client.c
server_SOURCES = ../ping-sr-0/server.c

include ../common/common.mk
