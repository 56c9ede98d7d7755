# SPDX-License-Identifier: GPL-2.0-or-later
# sshare-ext's test stages.
#   sshare-ext          offline: seed 000 goldens, what-if, JSON, errors,
#                       hostile files (offline.sh; no daemon, < 1 min)
#   sshare-ext-scale    a generated 4,000,000-association tree (~104 MB)
#                       read with the default columns and with -l -a,
#                       peak memory under 1 GiB by /usr/bin/time -v
#                       (scale.sh; ~1 min, ~800 MB of memory)
#   sshare-ext-cluster  late: sshare-ext vs Debian's sshare byte for byte
#                       on a cluster lab, per priority plugin, under Fair
#                       Tree, classic and DEPTH_OBLIVIOUS, PrivateData;
#                       --explain against squeue and sshare (explain_check.py;
#                       with treeshare also a random tree under every
#                       algorithm and a formula, and an overtake timed);
#                       -M with two clusters on one slurmdbd (cluster.sh,
#                       multi_cluster.sh; ~8 min, bounded waits)
CHECK_STAGES += sshare-ext sshare-ext-scale
CHECK_STAGES_LATE += sshare-ext-cluster
LAB_PREREQS += $(SSHARE_EXT_BIN)
.PHONY: check-sshare-ext check-sshare-ext-scale check-sshare-ext-cluster
check-sshare-ext: $(SSHARE_EXT_BIN) $(TS_REPLAY_BIN)
	@bash testsuite/sshare-ext/offline.sh $(BUILD)

check-sshare-ext-scale: $(SSHARE_EXT_BIN)
	@bash testsuite/sshare-ext/scale.sh $(BUILD)

check-sshare-ext-cluster: $(SSHARE_EXT_BIN)
	@bash testsuite/sshare-ext/cluster.sh $(BUILD)
