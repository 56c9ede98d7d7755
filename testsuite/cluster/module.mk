# SPDX-License-Identifier: GPL-2.0-or-later
# Cluster lab: a private single-machine Slurm 22.05 cluster (testsuite/
# cluster/cluster, docs/cluster-lab.7), its scenario tests and make demo.
#
#   make check-cluster   scenarios with priority/multifactor, and with
#                        priority/treeshare when its .so is built (five
#                        clusters in parallel: stage.sh); TAP in
#                        $(BUILD)/check/cluster.tap (~8.5 min)
#   make demo            deps, build, a live cluster with the seed 000
#                        tree and a workload; left running
CLUSTER_TOOL := testsuite/cluster/cluster

CHECK_STAGES_LATE += cluster
.PHONY: check-cluster
check-cluster:
	@mkdir -p $(BUILD)/check
	@bash testsuite/cluster/stage.sh $(BUILD)/check/cluster.tap

demo: deps
	@$(MAKE) --no-print-directory all
	@bash contrib/demo.sh
