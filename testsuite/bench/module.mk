# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: Debian's priority/multifactor, priority/treeshare and the
# floor priority/touch (testsuite/bench/priority_touch.c: it reads and
# writes the memory treeshare's passes do and computes nothing) side by
# side on the same generated clusters (100 accounts, 10k users, 100k
# pending jobs; 1,000, 100k, 1M; and six shapes at 100k, each varying one
# dimension: jobs per user, partitions per job, weighted TRES, tree depth,
# running jobs, and issue 28's workload), classic and Fair Tree.  Each plugin is
# counted under valgrind's callgrind (instructions of init, of the
# second, steady-state decay cycle, of its state commit and of one
# priority_g_set() pass over all jobs; the dumps stay in
# $(BENCH_CG_DIR) for callgrind_annotate), then timed (medians of 5) in
# its own forked child for its peak RSS.  Prints Ir, ratios to
# multifactor and to the floor, times and RSS, and PASS or FAIL against
# the goals (ts-harness(1)).  Not part of make check (bench-guard is).
# BENCH_ARGS passes options (-S 100k, -S shapes: less); make bench-floor
# is the same target.  Last, testsuite/bench/profile.sh: what treeshare's
# cycle spends beyond the floor, and how much of that is inherent (tree
# walk, charge, commit).
BENCH_TOUCH_SO := $(BUILD)/bench/slurm/priority_touch.so
BENCH_FLOOR_DIRS := $(abspath $(BUILD)/lib/slurm):$(abspath \
	$(BUILD)/bench/slurm):$(REF_PLUGINDIR)
BENCH_CG_DIR := $(BUILD)/bench/callgrind
BENCH_PLUGINS := priority/multifactor,priority/treeshare,priority/touch

$(BENCH_TOUCH_SO): testsuite/bench/priority_touch.c plugins/slurm_compat.h \
		$(SLURM_SRC)/config.h
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) $(CFLAGS) -shared -o $@ $<

# Then (issue 27) treeshare with usage windows against the same with
# Maui's credentials (ts-harness(1), TYPE+cred) at 100k, classic and
# Fair Tree, instructions only: the cost of the credentials, printed as
# var/base (no goal is judged there).  BENCH_CRED_ARGS gives its options
# (default -I -S 100k).
BENCH_CRED_PLUGINS := priority/treeshare+windows,priority/treeshare+cred
BENCH_CRED_ARGS ?= -I -S 100k

# Last (issue 30), testsuite/bench/replay.sh: ts-replay over 30 days of
# 1,000,000 jobs and 5,000 associations (generated once into
# $(BENCH_REPLAY_DIR)), at most 60 s of CPU, its peak RSS printed.
BENCH_REPLAY_DIR := $(BUILD)/bench/replay

.PHONY: bench bench-floor
bench: all $(BENCH_TOUCH_SO)
	@rm -rf $(BENCH_CG_DIR) && mkdir -p $(BENCH_CG_DIR)
	@$(HARNESS_BIN) bench -P $(BENCH_PLUGINS) -d $(BENCH_FLOOR_DIRS) \
		-c $(abspath $(BENCH_CG_DIR)) $(BENCH_ARGS); rc=$$?; \
	bash testsuite/bench/profile.sh $(BENCH_CG_DIR) || rc=1; \
	$(HARNESS_BIN) bench -P $(BENCH_CRED_PLUGINS) \
		-d $(BENCH_FLOOR_DIRS) $(BENCH_CRED_ARGS) || rc=1; \
	bash testsuite/bench/replay.sh $(TS_REPLAY_BIN) $(BENCH_REPLAY_DIR) || \
		rc=1; exit $$rc
bench-floor: bench

# Stage bench-guard (testsuite/bench/guard.sh): treeshare's instruction
# ratios to multifactor and to the floor on a small cluster, under
# callgrind, against this Slurm release's record in
# testsuite/bench/guard.record; fails when one grows by more than 3%.
# make bench-guard-record writes this release's ratios into the record.
# priority/touch is built for every series treeshare supports
# (plugins/slurm_compat.h); a release with no record is reported, not
# judged.
CHECK_STAGES += bench-guard
.PHONY: check-bench-guard bench-guard-record
check-bench-guard: $(HARNESS_BIN) $(PT_SO) $(BENCH_TOUCH_SO)
	@mkdir -p $(BUILD)/check
	@BUILD=$(BUILD) DEB_PLUGINDIR=$(REF_PLUGINDIR) \
		bash testsuite/bench/guard.sh $(BUILD)/check/bench-guard.tap
bench-guard-record: $(HARNESS_BIN) $(PT_SO) $(BENCH_TOUCH_SO)
	@BUILD=$(BUILD) DEB_PLUGINDIR=$(REF_PLUGINDIR) \
		bash testsuite/bench/guard.sh $(BUILD)/check/bench-guard.tap \
		record
