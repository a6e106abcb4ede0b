# SPDX-License-Identifier: MIT
# Build rules shared by every stage. A stage's Makefile sets PROGRAMS,
# <program>_SOURCES and its pieces, then includes this file (the stages
# of the ping-pong through ping-sr-0/steps.mk). A piece is named by its
# path without .c: its bare name for a piece of the stage's own folder
# (cm_thread), or by the folder of the stage that introduced it
# (../ping-sr-0/ping). The pieces come in one variable for each part of a
# program: EXCHANGE, PRIVATE_DATA, CM_EVENTS, COMPLETIONS and POSTING (or
# all in PIECES). Every program also links SHARED, from common/.
# Objects go into .build/ inside the stage's folder, since two stages may
# build the same source with different pieces.

KIT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
COMMON := $(KIT)/common
STAGE := $(notdir $(CURDIR))
BUILD ?= .build

PIECES ?= $(EXCHANGE) $(PRIVATE_DATA) $(CM_EVENTS) $(COMPLETIONS) $(POSTING)

# What every program that talks over a connection shares: the baseline
# and the plumbing.
SHARED ?= options report trace statistics interrupt control buffers \
	posting connection
# What a single file puts last, after a banner: the plumbing, nothing of
# RDMA. And the kit's instruments (-t, -T, -x), which it leaves out.
PLUMBING ?= options report interrupt control
INSTRUMENTS ?= trace statistics
# What serves the lab and not the lesson, left out of the single files as
# the instruments are: the client's -D, a run bounded by time, and
# $OUR_PORT, a port for each student who shares a machine.
LEAVE_OUT ?= our_timed_options time_run time_is_up timed_run \
	bad_lab_port print_lab_usage

PKG_CONFIG ?= pkg-config
RDMA_CFLAGS := $(shell $(PKG_CONFIG) --cflags libibverbs librdmacm 2>/dev/null)
RDMA_LIBS := $(shell $(PKG_CONFIG) --libs librdmacm libibverbs 2>/dev/null)
ifeq ($(RDMA_LIBS),)
RDMA_LIBS := -lrdmacm -libverbs
endif

CFLAGS ?= -O2 -g
ALL_SOURCES := $(foreach p,$(PROGRAMS),$($(p)_SOURCES))
# The pieces' folders hold the headers their pieces share, and the
# programs' folders those of their steps (ping-sr-0/agent.h).
PIECE_DIRS := $(sort $(abspath $(dir $(PIECES)) $(dir $(ALL_SOURCES))))
KIT_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-Wall -Wextra -Werror -DOUR_STAGE='"$(STAGE)"' \
	-I$(COMMON) $(addprefix -I,$(PIECE_DIRS)) $(RDMA_CFLAGS)
LDLIBS += $(RDMA_LIBS) -lpthread

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DOCDIR ?= $(PREFIX)/share/doc/rdma-kit

vpath %.c $(COMMON) $(PIECE_DIRS) $(sort $(dir $(ALL_SOURCES)))
COMMON_OBJECTS := $(patsubst %,$(BUILD)/%.o,$(SHARED) $(notdir $(PIECES)))

.PHONY: all clean install files single
all: $(PROGRAMS) compile_commands.json

define program_rule
$(1): $$(patsubst %.c,$(BUILD)/%.o,$$(notdir $$($(1)_SOURCES))) \
	$(COMMON_OBJECTS)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call program_rule,$(p))))

$(BUILD)/%.o: %.c | $(BUILD)
	$(CC) $(KIT_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD):
	mkdir -p $@

# Installed as <stage>-<program>, or <stage> alone when they are the same;
# the stage's README and single files go with the documentation.
install: all single
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DOCDIR)/$(STAGE)
	for p in $(PROGRAMS); do \
		name=$(STAGE)-$$p; [ "$$p" = "$(STAGE)" ] && name=$$p; \
		install -m 755 $$p $(DESTDIR)$(BINDIR)/$$name || exit 1; \
	done
	install -m 644 README.md $(addsuffix .c,$(SINGLES)) \
		$(DESTDIR)$(DOCDIR)/$(STAGE)

clean:
	rm -rf $(BUILD) $(PROGRAMS) compile_commands.json single

# Every C file this stage compiles, each once, from where it lives.
STAGE_FILES := $(sort $(abspath $(ALL_SOURCES) \
	$(patsubst %,$(COMMON)/%.c,$(SHARED)) $(addsuffix .c,$(PIECES))))

# make single: each program in one C file that a newcomer can copy,
# holding exactly the code the program runs (see labs/single-file), and
# built as that file's header says, with cc alone.
# (A full path: vpath would find another stage's single/ otherwise.)
SINGLE_DIR := $(CURDIR)/single
# How a single file's header says to run its programs, on the address of
# the netdev that carries the RDMA device (the lab's is 192.0.2.1).
RUN_SERVER ?= ./server -a 192.0.2.1 &
RUN_CLIENT ?= ./client -a 192.0.2.1 -c 1000 -v
SINGLES := $(addprefix $(SINGLE_DIR)/,$(PROGRAMS))
STAGE_HEADERS = $(wildcard $(addsuffix /*.h,$(sort $(COMMON) $(PIECE_DIRS) \
	$(abspath $(dir $(ALL_SOURCES))))))
single: $(SINGLES)

$(SINGLES): $(SINGLE_DIR)/%: $(SINGLE_DIR)/%.c
	cd $(SINGLE_DIR) && cc -Wall -Wextra -Werror -o $* $*.c \
		-lrdmacm -libverbs -pthread

$(SINGLE_DIR)/%.c: $(STAGE_FILES) $(STAGE_HEADERS) $(KIT)/labs/single-file \
		$(filter %.mk Makefile,$(MAKEFILE_LIST))
	mkdir -p $(SINGLE_DIR)
	$(KIT)/labs/single-file -o $@ --stage $(STAGE) --lesson Makefile \
		-I $(COMMON) $(addprefix -I ,$(PIECE_DIRS)) \
		-D 'OUR_STAGE="$(STAGE)"' \
		$(foreach f,$(filter $(PLUMBING),$(SHARED)),--plumbing $(COMMON)/$(f).c) \
		$(foreach f,$(filter $(INSTRUMENTS),$(SHARED)),--instrument $(COMMON)/$(f).c) \
		--prune-fields our_control --prune-fields our_options \
		--prune-fields our_buffers --prune-fields our_program \
		--prune-fields our_cm --prune-fields our_exchange \
		$(addprefix --leave-out ,$(LEAVE_OUT) $($*_LEAVE_OUT)) \
		--run '$(RUN_SERVER)' --run '$(RUN_CLIENT)' \
		$(patsubst %,$(COMMON)/%.c,$(SHARED)) \
		$(abspath $(addsuffix .c,$(PIECES)) $($*_SOURCES))

# For editors: how each of this stage's files is compiled, so that clangd
# (started in this folder, or with --compile-commands-dir) takes a
# function to the definition this stage really links.
JSON_CFLAGS = $(subst ",\",$(KIT_CFLAGS) $(CFLAGS))
define json_entry
  { "directory": "$(CURDIR)", "file": "$(1)",
    "command": "$(CC) $(JSON_CFLAGS) -c -o $(BUILD)/$(notdir $(1:.c=.o)) $(1)" }
endef
comma := ,
compile_commands.json: $(filter-out %.d,$(MAKEFILE_LIST))
	$(file >$@,[$(call json_entry,$(firstword $(STAGE_FILES))))
	$(foreach f,$(wordlist 2,999,$(STAGE_FILES)),$(file >>$@,$(comma)$(call json_entry,$(f))))
	$(file >>$@,])

# The files of this stage, for tools: ctags $$(make -s files)
files:
	@echo $(STAGE_FILES) $(STAGE_HEADERS)

# The dependency files of the objects built. One that names a source this
# stage no longer has there (an older tree's, before a piece moved to its
# stage's folder) is left out, and its object is built again. A source of
# the stage's own folder is named there relative to it. The source is the
# first .c named: in a deep folder gcc puts it on a line of its own.
fresh_deps = $(foreach d,$(wildcard $(BUILD)/*.d),$(if $(filter \
	$(abspath $(firstword $(filter %.c,$(file <$(d))))),$(STAGE_FILES)),$(d)))
-include $(fresh_deps)

# For `make diff` at the top: what this stage is built from.
.PHONY: print-pieces print-sources print-headers
print-pieces:
	@echo $(abspath $(addsuffix .c,$(PIECES)))
print-sources:
	@echo $(foreach p,$(PROGRAMS),$(abspath $($(p)_SOURCES)))
print-headers:
	@echo $(STAGE_HEADERS)
