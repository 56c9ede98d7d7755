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
