# SPDX-License-Identifier: GPL-2.0-or-later
# sshare-ext's test stages.
#   sshare-ext          offline: seed 000 goldens, what-if, JSON, errors,
#                       hostile files (offline.sh; no daemon, < 1 min)
CHECK_STAGES += sshare-ext
.PHONY: check-sshare-ext
check-sshare-ext: $(SSHARE_EXT_BIN)
	@bash testsuite/sshare-ext/offline.sh $(BUILD)
