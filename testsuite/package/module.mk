# SPDX-License-Identifier: GPL-2.0-or-later
# Installing treeshare (README "Install"):
#   install   make install / make uninstall into a DESTDIR against a file
#             list, nothing written outside it; plain make on a fresh
#             clone without root (install.sh; ~10 s)
CHECK_STAGES += install
.PHONY: check-install
check-install: programs
	@bash testsuite/package/install.sh $(BUILD)
