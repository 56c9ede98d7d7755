/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench.h - "ts-harness bench": Debian's priority/multifactor and
 * priority/treeshare timed side by side on the same generated clusters.
 *
 * For each scale and algorithm the parent builds one cluster (slurm.conf,
 * assoc_mgr state, partitions, jobs), then forks one child per plugin, so
 * that both start from the same memory image and each child's peak RSS
 * (VmHWM) is its plugin's.  A child loads its plugin, lets the decay
 * thread run one unmeasured cycle, then times REPS more cycles (from the
 * gate's release to the cycle's end: decay, usage, fair share of every
 * association, priority of every pending job) and REPS passes of
 * priority_g_set() over every job, and reports the medians.  Then it
 * runs this program again under valgrind's callgrind (bench -C) on the
 * same cluster, built from the same seed, and counts instructions of
 * init (load and first cycle), of the second, steady-state cycle (all
 * threads together, cut by client requests), of the plugin's state
 * commit within it and of one priority_g_set() pass.  Goals are judged
 * on the counts; -I counts only, -T times only.
 */
#ifndef TH_BENCH_H
#define TH_BENCH_H

/* th_bench_main() - "ts-harness bench [options]"; RET 0 if all goals met. */
int th_bench_main(int argc, char **argv);

#endif
