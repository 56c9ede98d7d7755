# SPDX-License-Identifier: GPL-2.0-or-later
# ts-harness: any priority plugin in-process, on fixtures and random cases;
# stage "harness" compares priority/treeshare with Debian's
# priority/multifactor.  See docs/ts-harness.1.
HARNESS_BIN := $(BUILD)/bin/ts-harness
HARNESS_SRCS := $(wildcard testsuite/harness/*.c)
HARNESS_OBJS := $(patsubst testsuite/harness/%.c,$(BUILD)/obj/harness/%.o,\
	$(HARNESS_SRCS))
HARNESS_CFLAGS := -isystem $(SLURM_SRC) \
	-DTH_DEB_PLUGINDIR='"$(DEB_PLUGINDIR)"'
HARNESS_LDFLAGS := -L$(DEB_PLUGINDIR) -Wl,-rpath,$(DEB_PLUGINDIR) \
	-Wl,--dynamic-list=testsuite/harness/stubs.list
HARNESS_LIBS := -l:libslurmfull.so -lpthread -ldl -lm

all: $(HARNESS_BIN)

$(BUILD)/obj/harness/%.o: testsuite/harness/%.c \
		$(wildcard testsuite/harness/*.h) $(wildcard src/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(HARNESS_CFLAGS) -c -o $@ $<

# libtreeshare for the state file formats (th_setup_damage()).
$(HARNESS_BIN): $(HARNESS_OBJS) testsuite/harness/stubs.list $(LIBTS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(HARNESS_OBJS) $(LIBTS) $(HARNESS_LDFLAGS) $(HARNESS_LIBS)

CHECK_STAGES += harness
.PHONY: check-harness
check-harness: $(HARNESS_BIN)
	@mkdir -p $(BUILD)/check
	BUILD=$(BUILD) bash testsuite/harness/check_parity.sh \
		$(BUILD)/check/harness.tap
