# SPDX-License-Identifier: MIT
# The client's and the server's steps, ping-sr-0's client.c and server.c,
# are the same for every stage: a stage's Makefile names its pieces (see
# common/common.mk), then includes this file. Paths start from this
# file's folder, so a Makefile in any folder of the kit can include it
# (the exercises' in labs/exercises/ do).

STEPS_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
PROGRAMS = client server
client_SOURCES = $(STEPS_DIR)client.c
# The listener's steps: server.c serves one client; a stage whose server
# serves many at once names its own (atomic-1's server_threads.c). The
# agent's steps, agent.c, are the same for both.
LISTENER ?= $(STEPS_DIR)server.c
server_SOURCES = $(STEPS_DIR)agent.c $(LISTENER)
# A refusal comes only to the side that connects: the server's single
# file leaves out the client's report of one.
server_LEAVE_OUT = our_report_refusal
# What an exchange may leave to these defaults: it asks no RDMA read
# resources of the adapters (no_reads), and it posts sends and receives
# alone, whose failures posting.c explains itself (sends_only). A stage
# whose exchange reads, or writes into the peer's memory, names its own.
EXCHANGE_DEFAULTS ?= $(STEPS_DIR)no_reads $(STEPS_DIR)sends_only
EXCHANGE += $(EXCHANGE_DEFAULTS)
# How work is posted: ibv_post_send and ibv_post_recv, unless a stage
# names its own posting pieces (ping-sg-1, ping-post-1, ping-wr-1).
POSTING ?= $(STEPS_DIR)queue_pair $(STEPS_DIR)post_recv

include $(STEPS_DIR)../common/common.mk
