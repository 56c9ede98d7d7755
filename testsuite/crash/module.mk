# SPDX-License-Identifier: GPL-2.0-or-later
# Crash consistency and hostile state files (issue 13, docs/ts-crash.7).
#
#   make check-crash          in-process: ts-harness killed at every step
#                             of a cycle's save (fault_shim.so), restarted
#                             on what is left, compared with runs that did
#                             not crash; every state file damaged every
#                             way (~20 s)
#   make check-crash-cluster  the same against a real slurmctld in the
#                             cluster lab, plus ENOSPC on a small tmpfs
#                             and node_power's ownership checks
CRASH_SHIM := $(BUILD)/lib/ts_fault_shim.so

all: $(CRASH_SHIM)

# Test only: interposes open/write/fsync/close/unlink/link/rename.
$(CRASH_SHIM): testsuite/crash/fault_shim.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -fPIC -shared $(CFLAGS) -o $@ $< -ldl -lpthread

CHECK_STAGES += crash
.PHONY: check-crash
check-crash: $(CRASH_SHIM) $(HARNESS_BIN) $(PT_SO)
	@mkdir -p $(BUILD)/check
	@BUILD=$(BUILD) bash testsuite/crash/harness_matrix.sh \
		$(BUILD)/check/crash.tap
