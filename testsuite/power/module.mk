# SPDX-License-Identifier: GPL-2.0-or-later
# node_power's tests (docs/node_power.8):
#   make check-power      config refusals, the capmc test double (command
#                         lines, errors, hangs, 8 concurrent runs) and
#                         real IPMI against ipmi_sim; ~1.5 min
#   make check-power-e2e  the cluster lab powered through node_power,
#                         ipmi_sim and slurmd; ~3 min
POWER_TESTS := testsuite/power/test_config.sh testsuite/power/test_capmc.sh \
	testsuite/power/test_ipmi.sh

CHECK_STAGES += power
.PHONY: check-power
check-power: $(BUILD)/bin/node_power
	@NP=$(abspath $(BUILD)/bin/node_power) bash testsuite/power/run.sh \
		$(BUILD)/check/power.tap $(POWER_TESTS)
CHECK_STAGES_LATE += power-e2e
LAB_PREREQS += $(BUILD)/bin/node_power
.PHONY: check-power-e2e
check-power-e2e: $(BUILD)/bin/node_power
	@NP=$(abspath $(BUILD)/bin/node_power) \
		TS_CLUSTER_DIR=$(abspath $(BUILD)/cluster-power) \
		bash testsuite/power/run.sh $(BUILD)/check/power-e2e.tap \
		testsuite/power/test_e2e.sh
