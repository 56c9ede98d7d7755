# SPDX-License-Identifier: GPL-2.0-or-later
# Installing treeshare (README "Install"):
#   install   make install / make uninstall into a DESTDIR against a file
#             list, nothing written outside it; plain make on a fresh
#             clone without root (install.sh; ~10 s)
CHECK_STAGES += install
.PHONY: check-install
check-install: programs
	@bash testsuite/package/install.sh $(BUILD)
#   package   make deb in a checkout only root can read (a clone in a
#             mode-700 directory, private_checkout.sh; ~2 min; its
#             packages are the ones tested next, so they are built once),
#             then make deb's packages in a fresh Debian root (mmdebstrap):
#             apt-get install, the cluster lab from the default PluginDir
#             against the build tree's plugin on one state,
#             treeshare-as-multifactor, purge (stage.sh, in-root.sh;
#             needs the archive; ~4 min).  Run by .ci/run after the
#             other stages (CHECK_STAGES_CI), or make check-package.
CHECK_STAGES_CI += package
.PHONY: check-package
check-package: deps-deb
	@bash testsuite/package/stage.sh $(BUILD)
#   as-multifactor  treeshare built as priority_multifactor.so, loaded by
#             ts-harness as priority/multifactor, against priority/treeshare
#             on every harness fixture (as_multifactor.sh; ~15 s)
CHECK_STAGES += as-multifactor
.PHONY: check-as-multifactor
check-as-multifactor: $(PT_MF_SO) $(HARNESS_BIN)
	@bash testsuite/package/as_multifactor.sh $(BUILD)
