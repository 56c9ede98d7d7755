# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: Debian's priority/multifactor and priority/treeshare timed
# side by side by ts-harness on the same generated clusters (100 accounts,
# 10k users, 100k pending jobs; 1,000, 100k, 1M), classic and Fair Tree,
# medians of 5, each plugin in its own forked child for its peak RSS.
# Prints every time, the treeshare/multifactor ratio, peak RSS and PASS or
# FAIL against the goals (ratio <= 0.33, RSS <= reference + 10%).
# Not part of make check.  BENCH_ARGS passes options (ts-harness(1)).
.PHONY: bench
bench: all
	$(HARNESS_BIN) bench $(BENCH_ARGS)

# make bench-floor: the same runs with a third plugin in each,
# priority/touch (testsuite/bench/priority_touch.c), which reads and
# writes the memory treeshare's passes do and computes nothing: its
# ratios, printed after treeshare's goal lines, are the least any
# implementation can reach on this machine.  FAIL lines are findings
# here, not errors: the target always succeeds.
BENCH_TOUCH_SO := $(BUILD)/bench/slurm/priority_touch.so
BENCH_FLOOR_DIRS := $(abspath $(BUILD)/lib/slurm):$(abspath \
	$(BUILD)/bench/slurm):$(DEB_PLUGINDIR)

$(BENCH_TOUCH_SO): testsuite/bench/priority_touch.c $(SLURM_SRC)/config.h
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) $(CFLAGS) -shared -o $@ $<

.PHONY: bench-floor
bench-floor: all $(BENCH_TOUCH_SO)
	-$(HARNESS_BIN) bench \
		-P priority/multifactor,priority/treeshare,priority/touch \
		-d $(BENCH_FLOOR_DIRS) \
		$(BENCH_ARGS)
