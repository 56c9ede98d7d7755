# SPDX-License-Identifier: GPL-2.0-or-later
# ts-harness: any priority plugin in-process, on fixtures and random cases;
# stage "harness" compares priority/treeshare with Debian's
# priority/multifactor.  See docs/ts-harness.1.
HARNESS_BIN := $(BUILD)/bin/ts-harness
HARNESS_SRCS := $(wildcard testsuite/harness/*.c)
HARNESS_OBJS := $(patsubst testsuite/harness/%.c,$(BUILD)/obj/harness/%.o,\
	$(HARNESS_SRCS))
# The slurmctld symbols exported differ by release (stubs.c): the common
# list plus the release's own, named after $(SLURM_SERIES) (the top Makefile).
HARNESS_STUBS := testsuite/harness/stubs.list \
	testsuite/harness/stubs-$(SLURM_SERIES).list
# The reference and libslurmfull.so: the release's own (REF_PLUGINDIR,
# the top Makefile: Debian's, or $(SLURM_PREFIX)/lib/slurm).
HARNESS_CFLAGS := -isystem $(SLURM_SRC) -iquote . \
	-DTH_DEB_PLUGINDIR='"$(REF_PLUGINDIR)"'
HARNESS_LDFLAGS := -L$(REF_PLUGINDIR) -Wl,-rpath,$(REF_PLUGINDIR) \
	$(addprefix -Wl$(comma)--dynamic-list=,$(HARNESS_STUBS))
HARNESS_LIBS := -l:libslurmfull.so -lpthread -ldl -lm

all: $(HARNESS_BIN)

# REF_PLUGINDIR is compiled in: a new one (another SLURM_PREFIX) rebuilds.
HARNESS_REF_STAMP := $(BUILD)/obj/harness/ref-plugindir.stamp
$(HARNESS_REF_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(REF_PLUGINDIR)' | cmp -s - $@ || echo '$(REF_PLUGINDIR)' >$@
$(HARNESS_OBJS): $(HARNESS_REF_STAMP)

$(BUILD)/obj/harness/%.o: testsuite/harness/%.c \
		$(wildcard testsuite/harness/*.h) plugins/slurm_compat.h \
		$(wildcard src/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(HARNESS_CFLAGS) -c -o $@ $<

# libtreeshare: release names, and the state file formats (th_setup_damage()).
$(HARNESS_BIN): $(HARNESS_OBJS) $(HARNESS_STUBS) $(LIBTS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(HARNESS_OBJS) $(LIBTS) $(HARNESS_LDFLAGS) $(HARNESS_LIBS)

CHECK_STAGES += harness
.PHONY: check-harness
check-harness: $(HARNESS_BIN) $(SSHARE_EXT_BIN)
	@mkdir -p $(BUILD)/check
	BUILD=$(BUILD) TH_DEB_PLUGINDIR=$(REF_PLUGINDIR) \
		TH_SLURM_PREFIX=$(SLURM_PREFIX) \
		bash testsuite/harness/check_parity.sh \
		$(BUILD)/check/harness.tap
