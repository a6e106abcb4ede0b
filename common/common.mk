# SPDX-License-Identifier: MIT
# Build rules shared by every stage. A stage's Makefile sets PROGRAMS,
# <program>_SOURCES and PIECES (the common/ pieces it is built from), then
# includes this file. Objects go into .build/ inside the stage's folder,
# since two stages may build the same source with different pieces.

KIT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
COMMON := $(KIT)/common
STAGE := $(notdir $(CURDIR))
BUILD ?= .build

# What every program that talks over a connection shares.
SHARED ?= options report control stats queue_pair buffers posting \
	connection interrupt

PKG_CONFIG ?= pkg-config
RDMA_CFLAGS := $(shell $(PKG_CONFIG) --cflags libibverbs librdmacm 2>/dev/null)
RDMA_LIBS := $(shell $(PKG_CONFIG) --libs librdmacm libibverbs 2>/dev/null)
ifeq ($(RDMA_LIBS),)
RDMA_LIBS := -lrdmacm -libverbs
endif

CFLAGS ?= -O2 -g
KIT_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-Wall -Wextra -Werror -I$(COMMON) $(RDMA_CFLAGS)
LDLIBS += $(RDMA_LIBS) -lpthread

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin

ALL_SOURCES := $(foreach p,$(PROGRAMS),$($(p)_SOURCES))
vpath %.c $(COMMON) $(sort $(dir $(ALL_SOURCES)))
COMMON_OBJECTS := $(patsubst %,$(BUILD)/%.o,$(SHARED) $(PIECES))

.PHONY: all clean install
all: $(PROGRAMS)

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

# Installed as <stage>-<program>, or <stage> alone when they are the same.
install: all
	install -d $(DESTDIR)$(BINDIR)
	for p in $(PROGRAMS); do \
		name=$(STAGE)-$$p; [ "$$p" = "$(STAGE)" ] && name=$$p; \
		install -m 755 $$p $(DESTDIR)$(BINDIR)/$$name || exit 1; \
	done

clean:
	rm -rf $(BUILD) $(PROGRAMS)

-include $(wildcard $(BUILD)/*.d)

# For `make diff` at the top: what this stage is built from.
.PHONY: print-pieces print-sources
print-pieces:
	@echo $(PIECES)
print-sources:
	@echo $(foreach p,$(PROGRAMS),$(abspath $($(p)_SOURCES)))
