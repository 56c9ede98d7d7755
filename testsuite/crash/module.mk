# SPDX-License-Identifier: GPL-2.0-or-later
# Crash consistency and hostile state files (issue 13, docs/ts-crash.7).
#
#   make check-crash          in-process: ts-harness killed at every step
#                             of a cycle's save (fault_shim.so), restarted
#                             on what is left, compared with runs that did
#                             not crash; every state file damaged every
#                             way; node_power's ownership checks (~20 s)
#   make check-crash-cluster  the same against a real slurmctld in the
#                             cluster lab, plus EIO and ENOSPC on a small
#                             tmpfs (~2 min)
CRASH_SHIM := $(BUILD)/lib/ts_fault_shim.so

all: $(CRASH_SHIM)

# Test only: interposes open/write/fsync/close/unlink/link/rename.
$(CRASH_SHIM): testsuite/crash/fault_shim.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -fPIC -shared $(CFLAGS) -o $@ $< -ldl -lpthread

CHECK_STAGES += crash
.PHONY: check-crash
check-crash: $(CRASH_SHIM) $(HARNESS_BIN) $(PT_SO) $(NP_BIN)
	@mkdir -p $(BUILD)/check
	@BUILD=$(BUILD) bash testsuite/crash/harness_matrix.sh \
		$(BUILD)/check/crash.tap; rc=$$?; \
	BUILD=$(BUILD) bash testsuite/crash/node_power_trust.sh \
		$(BUILD)/check/crash.tap || rc=1; exit $$rc

CHECK_STAGES_LATE += crash-cluster
LAB_PREREQS += $(CRASH_SHIM) $(PT_SO)
.PHONY: check-crash-cluster
check-crash-cluster: $(CRASH_SHIM) $(PT_SO)
	@mkdir -p $(BUILD)/check
	@bash testsuite/crash/cluster_stage.sh $(BUILD)/check/crash-cluster.tap
