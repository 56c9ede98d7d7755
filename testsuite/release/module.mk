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

# make check-upstream [SLURM_TARBALLS=...] [UPSTREAM_STAGES=...]
#   for each SchedMD release tarball (default: ../shared/slurm-src's),
#   build it (cached in $(BUILD)/upstream), treeshare against it with
#   make SLURM_SRC=<its tree> alone (ldd: the clients load its libslurm
#   from its prefix), and run the release-dependent stages on its own
#   daemons and clients;
#   last line "N passed, N failed" over all (check-upstream.sh)
SLURM_TARBALLS ?= $(sort $(wildcard ../shared/slurm-src/slurm-*.tar.xz))
UPSTREAM_STAGES ?= harness bench-guard sshare-ext-cluster crash-cluster power-e2e cluster
UPSTREAM_CORE_STAGES := harness bench-guard sshare-ext-cluster cluster
.PHONY: check-upstream upstream-slurm
check-upstream:
	@UPSTREAM_STAGES="$(UPSTREAM_STAGES)" bash testsuite/release/check-upstream.sh \
		$(BUILD) $(SLURM_TARBALLS)
# make upstream-slurm: only build each SLURM_TARBALLS release's Slurm into
#   $(BUILD)/upstream (what check-upstream then reuses); .ci/run runs it
#   niced beside make check
upstream-slurm:
	@UPSTREAM_BUILD_ONLY=1 bash testsuite/release/check-upstream.sh \
		$(BUILD) $(SLURM_TARBALLS)
