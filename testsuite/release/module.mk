# SPDX-License-Identifier: GPL-2.0-or-later
# Slurm releases (docs/treeshare-build.7).
#   slurm-src            stage: which Slurm trees the build accepts and
#                        refuses (contrib/slurm-src-check.sh; ~2 s)
#   make check-release DIST=trixie
#                        make check inside a fresh Debian DIST root built
#                        with mmdebstrap; not part of make check (.ci/run
#                        runs it after make check); RELEASE_SKIP, the
#                        stages skipped inside (default fuzz
#                        unit-valgrind), RELEASE_KEEP_ROOT=1 keeps the root
CHECK_STAGES += slurm-src
.PHONY: check-slurm-src check-release
check-slurm-src:
	@bash testsuite/release/test_slurm_src.sh $(BUILD)

DIST ?= trixie
check-release:
	@bash testsuite/release/check-release.sh $(DIST) $(BUILD)
