# SPDX-License-Identifier: GPL-2.0-or-later
# node_power: SuspendProgram/ResumeProgram/ResumeFailProgram companion
# (docs/node_power.8).  Links libtreeshare (src/power), json-c, libslurm.
NP_SRCS := $(wildcard plugins/node_power/*.c)
NP_OBJS := $(patsubst plugins/node_power/%.c,$(BUILD)/obj/node_power/%.o,$(NP_SRCS))
NP_BIN := $(BUILD)/bin/node_power
NP_JSON_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
NP_JSON_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
NP_LINKS := node_power-suspend node_power-resume node_power-resume-fail

all: $(NP_BIN)

$(BUILD)/obj/node_power/%.o: plugins/node_power/%.c $(wildcard plugins/node_power/*.h src/*.h src/power/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(NP_JSON_CFLAGS) $(SLURM_API_CFLAGS) -Iplugins/node_power -c -o $@ $<

$(NP_BIN): $(NP_OBJS) $(LIBTS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(NP_OBJS) $(LIBTS) $(NP_JSON_LIBS) \
		$(SLURM_LIB_LDFLAGS) -lslurm
	@for l in $(NP_LINKS); do ln -sf node_power $(dir $@)$$l; done

# The lead's "install" depends on this target.
SBINDIR ?= $(PREFIX)/sbin
MAN8DIR ?= $(MANDIR)/man8
.PHONY: install-node_power
install-node_power: $(NP_BIN)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MAN8DIR)
	install -m 0755 $(NP_BIN) $(DESTDIR)$(SBINDIR)/node_power
	for l in $(NP_LINKS); do ln -sf node_power $(DESTDIR)$(SBINDIR)/$$l; done
	install -m 0644 docs/node_power.8 $(DESTDIR)$(MAN8DIR)/node_power.8
